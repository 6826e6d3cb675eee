"""A table *finished* a board (tournaments.core.embargo) when it has a current game of it or
every seat of the table has an adjusted score for it: the round's close rule (DESIGN.md,
"every seat has an adjusted score"). Adjusted scores for some seats only, with no game, leave
the board in play: hidden from the public, out of the standings, the other seats still to be
ruled on or played. The trial's steps: "average-plus" to South alone at the last table opened
the board, and East and West were left with no result on it."""

from __future__ import annotations

import pytest

from tests.factories import bot_record, duplicate_round
from tournaments.core import embargo
from tournaments.models import Standing
from tournaments.standings import cache
from tournaments.standings import results as standings_results
from tournaments.standings.requests import standings_refresh
from tournaments.standings.rulings import adjusted_scores_set
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def half_ruled():
    """Two tables, one board: table 1 played it, table 2 has "average-plus" at South only."""
    event, round_, tables, boards = duplicate_round(tables=2, boards=1, seed="partly")
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    standings_refresh(event_id=event.pk)
    adjusted_scores_set(table=tables[1], board=boards[0], scores={"S": "avg+"}, actor=None)
    standings_refresh(event_id=event.pk)
    return event, round_, tables, boards


def _boards_counted(event) -> dict[int, int]:
    return dict(Standing.objects.filter(event=event, stage=None).values_list("player_id", "boards"))


def test_some_seats_adjusted_and_no_game_leave_the_board_in_play(half_ruled) -> None:
    event, round_, tables, boards = half_ruled
    assert not embargo.board_is_open(boards[0])
    assert embargo.open_board_ids(event) == set()
    assert embargo.public_board_ids(event) == set()
    # Table 1 finished it; table 2 did not (two of its three seats have no result yet).
    assert embargo.finished_boards(round_) == {tables[0].pk: {boards[0].pk}}
    # The standings count no board of the round: no one has a board yet, South included (a
    # player has a row once he has a board).
    assert _boards_counted(event) == {}


def test_the_incremental_standings_agree_with_a_recomputation_from_nothing(half_ruled) -> None:
    event, _round, _tables, _boards = half_ruled
    stored = {
        row.player_id: (row.total, row.boards)
        for row in Standing.objects.filter(event=event, stage=None)
    }
    cache.kept_forget()
    computed = standings_results.computed_rows(event=event)[None]
    assert {row["player_id"]: (row["total"], row["boards"]) for row in computed} == stored


def test_the_last_seats_ruled_on_finish_the_table(half_ruled) -> None:
    event, round_, tables, boards = half_ruled
    adjusted_scores_set(
        table=tables[1], board=boards[0], scores={"E": "avg", "W": "avg-"}, actor=None
    )
    standings_refresh(event_id=event.pk)
    assert embargo.board_is_open(boards[0])
    assert embargo.open_board_ids(event) == {boards[0].pk}
    assert embargo.finished_boards(round_) == {
        tables[0].pk: {boards[0].pk},
        tables[1].pk: {boards[0].pk},
    }
    # Every player of both tables now has the board: 6 players, one board each.
    assert sorted(_boards_counted(event).values()) == [1] * 6


def test_a_game_entered_beside_some_adjusted_seats_finishes_the_table(half_ruled) -> None:
    event, _round, tables, boards = half_ruled
    game = game_submit(table=tables[1], board=boards[0], record=bot_record(boards[0], tables[1]))
    game_verify(game_id=game.pk)
    standings_refresh(event_id=event.pk)
    assert embargo.open_board_ids(event) == {boards[0].pk}
    assert sorted(_boards_counted(event).values()) == [1] * 6
