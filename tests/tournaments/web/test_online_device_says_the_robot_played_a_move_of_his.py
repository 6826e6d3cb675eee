"""Against robots, a move whose time ran out is played by the robot of the entrant's seat and he
plays on (tournaments.online.play.timeout_check); his board's device then says so, with how many
of his moves the robot played (``robot_moves`` and ``robot_moves_text`` of its view, in the
reader's language), as his list of boards does: before, only the list told him."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import EntryDraft
from tests.factories import online_event
from tournaments.online import play

pytestmark = pytest.mark.django_db


def _view(user, slug: str, language: str = "en") -> dict:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(reverse("online:device_position", args=[slug, 1])).json()["view"]


def test_the_device_says_how_many_of_his_moves_the_robot_played() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, move_seconds=30)
    table = play.online_board_start(event=event, user=ann, number=1)
    fresh = _view(ann, event.slug)
    assert fresh["robot_moves"] == 0 and fresh["robot_moves_text"] == ""
    # His turn began 31 seconds ago: reading the board has the robot play his move.
    EntryDraft.objects.filter(table=table).update(updated_at=timezone.now() - timedelta(seconds=31))
    view = _view(ann, event.slug)
    assert view["robot_moves"] == 1
    assert view["robot_moves_text"] == (
        "The robot played 1 of your moves: your time to move ran out."
    )
    chinese = _view(ann, event.slug, "zh-hans")["robot_moves_text"]
    assert chinese and re.search("[A-Za-z]", chinese) is None, chinese


def test_the_board_page_has_the_place_for_it() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    play.online_board_start(event=event, user=ann, number=1)
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("online:device_board", args=[event.slug, 1])).content.decode()
    assert 'id="robot-moves"' in page
