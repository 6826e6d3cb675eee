"""The game write path (tournaments.tables.submission) and the standings (tournaments.events.setup),
on
PostgreSQL. Celery is not involved here: tasks are captured, and services called directly."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from django.db import IntegrityError, transaction

from games.models import Game, Status
from games.records import GameRejected
from tests.factories import bot_record, duplicate_round
from tournaments.events.setup import EventRejected, event_create
from tournaments.models import Standing
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_reverify, game_verify

pytestmark = pytest.mark.django_db


def _played_board(tables: int = 3):
    event, round_, tabs, boards = duplicate_round(tables=tables)
    return event, tabs, boards[0]


def test_submit_stores_and_enqueues_verification_after_commit(
    django_capture_on_commit_callbacks,
) -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game = game_submit(table=tables[0], board=board, record=record)
    # After commit: the verification, and the notice to the table's live devices.
    assert len(callbacks) == 2
    game.refresh_from_db()
    assert game.status == Status.PENDING and game.record == record
    assert game.record_id == record["id"] and game.declared == record["declared"]


@pytest.mark.parametrize(
    "bad, message",
    [
        ("not a dict", "JSON object"),
        ({"hello": "world"}, "not a game record"),
        ({"id": "x", "rules": "classic"}, "not a game record"),
    ],
)
def test_not_a_record_is_refused_and_nothing_stored(bad, message) -> None:
    _event, tables, board = _played_board()
    with pytest.raises(GameRejected, match=message):
        game_submit(table=tables[0], board=board, record=bad)
    assert Game.objects.count() == 0


def test_record_of_another_deal_or_rules_is_refused() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    other = copy.deepcopy(record)
    other["hands"]["S"], other["hands"]["E"] = record["hands"]["E"], record["hands"]["S"]
    with pytest.raises(GameRejected, match="not the deal of board"):
        game_submit(table=tables[0], board=board, record=other)
    ruled = copy.deepcopy(record) | {"rules": "rob"}
    with pytest.raises(GameRejected, match="rules"):
        game_submit(table=tables[0], board=board, record=ruled)
    assert Game.objects.count() == 0


def test_one_current_game_per_table_and_board() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    first = game_submit(table=tables[0], board=board, record=record)
    with pytest.raises(GameRejected, match="already has a game"):
        game_submit(table=tables[0], board=board, record=record)
    # The database itself holds the invariant, whatever the caller.
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(table=tables[0], board=board, record=record)
    second = game_submit(table=tables[0], board=board, record=record, replaces=1)
    first.refresh_from_db()
    assert first.replaced_at is not None and second.replaced_at is None


def test_verify_stores_the_engines_result_once() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    game = game_submit(table=tables[0], board=board, record=record)
    assert game_verify(game_id=game.pk) is True
    game.refresh_from_db()
    assert game.status == Status.VERIFIED and game.error is None
    assert game.score == record["declared"] and sum(game.score.values()) == 0
    stamp = game.verified_at
    assert game_verify(game_id=game.pk) is False  # idempotent: a second run changes nothing
    game.refresh_from_db()
    assert game.verified_at == stamp
    assert game_verify(game_id=10**9) is False  # a deleted game is no error


def test_illegal_play_is_stored_with_the_engines_error() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    assert record["plays"], "the seeded bot game has plays"
    seat = record["plays"][1][0]
    record["plays"][1] = [seat, "BR" if "BR" not in record["hands"][seat] else "3333"]
    game = game_submit(table=tables[0], board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Status.ILLEGAL
    assert game.error["stage"] == "play" and game.error["index"] == 1
    assert game.error["seat"] == seat and game.error["message"]


def test_wrong_declared_score_is_a_mismatch() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    record["declared"] = {"S": 999, "E": 0, "W": -999}
    game = game_submit(table=tables[0], board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Status.MISMATCH and game.error["stage"] == "result"


def test_bad_notation_inside_a_record_is_flagged_not_refused() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    record["plays"].append([record["plays"][0][0], "33Z"])
    game = game_submit(table=tables[0], board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status in (Status.ILLEGAL, Status.INCOMPLETE) and game.error


def test_reverify_puts_a_game_back_to_pending() -> None:
    _event, tables, board = _played_board()
    game = game_submit(table=tables[0], board=board, record=bot_record(board, tables[0]))
    game_verify(game_id=game.pk)
    assert game_reverify(game_id=game.pk) is True
    assert game_reverify(game_id=game.pk) is False
    assert Game.objects.get(pk=game.pk).status == Status.PENDING


def test_standings_recompute_is_idempotent_and_ranks_by_seat_held() -> None:
    event, tables, board = _played_board()
    for table in tables:
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        game_verify(game_id=game.pk)
    assert standings_recompute(event_id=event.pk) is True
    rows = list(Standing.objects.filter(event=event).order_by("position"))
    assert len(rows) == 9 and all(r.boards == 1 for r in rows)
    # Every seat direction shares 3 * 2 = 6 MP; tops are 4 per result.
    assert sum(int(r.total) for r in rows) == 3 * 6 and {r.top for r in rows} == {"4"}
    ids = [r.pk for r in rows]
    assert standings_recompute(event_id=event.pk) is False
    assert [r.pk for r in Standing.objects.filter(event=event).order_by("position")] == ids


def test_unverified_games_take_no_part_in_standings() -> None:
    event, tables, board = _played_board()
    game_submit(table=tables[0], board=board, record=bot_record(board, tables[0]))
    standings_recompute(event_id=event.pk)
    assert Standing.objects.filter(event=event).count() == 0


def test_passed_out_board_scores_zero_for_everyone() -> None:
    event, tables, board = _played_board(tables=1)
    first = board.first_bidder
    order = "SEW"[("SEW".index(first)) :] + "SEW"[: "SEW".index(first)]
    record = bot_record(board, tables[0])
    record.update(bidding=[[s, "pass"] for s in order], plays=[], declared={"S": 0, "E": 0, "W": 0})
    game = game_submit(table=tables[0], board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Status.VERIFIED and game.score == {"S": 0, "E": 0, "W": 0}
    assert game.landlord == ""


def test_event_create_validates() -> None:
    with pytest.raises(EventRejected, match="Unknown rules"):
        event_create(name="X", rules="no-such-preset")
    event = event_create(name="斗地主 公开赛", rules={"preset": "classic", "options": {}})
    assert event.slug == "斗地主-公开赛"
    with pytest.raises(EventRejected, match="already exists"):
        event_create(name="斗地主 公开赛", rules="classic")


def test_unproven_claim_is_flagged_for_the_referee() -> None:
    _event, tables, board = _played_board()
    record = bot_record(board, tables[0])
    record.update(plays=record["plays"][:1], end={"claim": record["plays"][0][0]})
    record.pop("declared")
    game = game_submit(table=tables[0], board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Status.FLAGGED and game.error["rule"] == "R-CLAIM"


def test_datum_difference_event() -> None:
    event, _round, tables, boards = duplicate_round(tables=3, seed="datum", scoring_method="datum")
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    rows = list(Standing.objects.filter(event=event))
    assert len(rows) == 9 and all(r.method == "datum" and r.percentage == "" for r in rows)
    # Differences from the datum of each seat sum to zero over the tables.
    assert sum(Fraction(r.total) for r in rows) == 0


def test_tasks_retry_on_database_errors() -> None:
    from django.db import DatabaseError

    from tournaments.tasks import recompute_standings, verify_game

    for task in (verify_game, recompute_standings):
        assert DatabaseError in task.autoretry_for and task.max_retries and task.acks_late
