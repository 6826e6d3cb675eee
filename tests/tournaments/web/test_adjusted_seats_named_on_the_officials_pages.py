"""The officials' pages say what an adjusted score does where it matters (the trial's
findings): a game's page names the seats whose result an adjusted score replaces (the game's
score is not theirs), and the adjusted-scores page of a table with no game warns, before
Remove is pressed, that removing one hides the public board again."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import bot_record, duplicate_round, signed_in_client
from tournaments.core import embargo
from tournaments.models import EventRole, Role
from tournaments.standings.rulings import adjusted_scores_set
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def board_open():
    """Two tables, one board: table 1 played it and its East has "average"; table 2 could not
    play it and has adjusted scores at every seat. The board is open."""
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="named-seats")
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    adjusted_scores_set(table=tables[0], board=boards[0], scores={"E": "avg"}, actor=None)
    adjusted_scores_set(
        table=tables[1],
        board=boards[0],
        scores={"S": "avg+", "E": "avg", "W": "avg-"},
        actor=None,
    )
    assert embargo.board_is_open(boards[0])
    chief = get_user_model().objects.create_user("named-seats-chief", password="x")
    EventRole.objects.create(event=event, user=chief, role=Role.CHIEF_REFEREE)
    return event, tables, boards, game, signed_in_client(chief)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_games_page_names_the_seats_an_adjusted_score_replaces(board_open) -> None:
    event, _tables, _boards, game, client = board_open
    page = _text(client.get(reverse("referee:game", args=[event.slug, game.pk])).content.decode())
    assert "Adjusted scores replace this game's result at these seats: E average" in page


def test_removing_an_adjusted_score_of_a_table_without_a_game_is_said_to_hide_the_board(
    board_open,
) -> None:
    event, tables, _boards, _game, client = board_open
    without_game = client.get(reverse("referee:adjust", args=[event.slug, tables[1].pk, 1]))
    assert 'id="rehides"' in without_game.content.decode()
    assert "removing one of its adjusted scores hides the board again" in _text(
        without_game.content.decode()
    )
    # Table 1 has its game: removing East's "average" gives East the game's result, and the
    # board stays open; the seats without one say whose result they keep.
    with_game = client.get(reverse("referee:adjust", args=[event.slug, tables[0].pk, 1]))
    body = _text(with_game.content.decode())
    assert 'id="rehides"' not in with_game.content.decode()
    assert "the result of the table's game" in body
