"""The organizer's dashboard of an online robot duplicate counts its entrants, never the
robots that fill the other seats, and checks no seating for repeat meetings: every entrant
meets the same robots on every board by design, and no organizer seats anyone."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event

pytestmark = pytest.mark.django_db


def test_the_dashboard_counts_two_entrants_and_no_robot() -> None:
    event, td, (ann, bob) = online_event(entrants=2, boards=2)
    online_board_play(event, ann, 1)
    online_board_play(event, bob, 1)
    online_board_play(event, ann, 2)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert ">2 players</a>" in page
    assert "Robot" not in page
    # Board 1 played by both, board 2 by Ann: counted, not listed table by table.
    assert "2 plays of this board started · 2 finished" in page
    assert "1 play of this board started · 1 finished" in page
    assert "Not seated yet" not in page
    assert "repeat meeting" not in page and "No repeat meeting" not in page
