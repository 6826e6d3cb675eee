"""An entrant who left his online table (the robot took his seat over: Seat.robot_from) finds on
his page of the event that the robot plays that board for him to its end, and no button to go
back to playing it; the others at his table still go on playing theirs."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_event, online_table_seated
from tournaments.online import play

pytestmark = pytest.mark.django_db

SAID = "The robot plays your seat to the end of the board."


def _row(user, slug: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    page = client.get(reverse("online:home", args=[slug])).content.decode()
    start = page.index('<tr data-board="1">')
    return page[start : page.index("</tr>", start)]


def test_the_leavers_page_says_the_robot_plays_his_board_and_offers_no_way_back() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    online_table_seated(event, users, 1)
    device_page = reverse("online:device_board", args=[event.slug, 1])
    before = _row(users[2], event.slug)
    assert "Go on playing" in before and device_page in before
    at = play.online_board_leave(event=event, user=users[2], number=1)
    assert at is not None
    row = _row(users[2], event.slug)
    assert "in play" in row  # the others still play it
    assert SAID in row
    assert f"played by the robot from move {at + 1}" in row
    assert "Go on playing" not in row and device_page not in row
    other = _row(users[0], event.slug)
    assert "Go on playing" in other and SAID not in other
