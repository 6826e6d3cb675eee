"""A player's problem note that is not readable text (undecodable bytes) is refused and
nothing is stored; Chinese typed as UTF-8 is stored as typed.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import bot_record
from tournaments.links import tokens as link_tokens
from tournaments.models import ResultCheck
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


def test_a_problem_note_of_undecodable_bytes_is_refused(linked) -> None:
    world, _tokens = linked
    made = link_tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    seat = table.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    answer = Client(HTTP_USER_AGENT=UA).post(
        reverse("links:check", args=[token, game.pk]),
        b"kind=problem&note=%FF%FEbomb",
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 400
    assert "not readable text" in answer.content.decode()
    assert not ResultCheck.objects.exists()
    # Chinese typed as UTF-8 is stored as typed.
    done = Client(HTTP_USER_AGENT=UA).post(
        reverse("links:check", args=[token, game.pk]), {"kind": "problem", "note": "炸弹是7777"}
    )
    assert done.status_code == 302
    assert ResultCheck.objects.get().note == "炸弹是7777"
