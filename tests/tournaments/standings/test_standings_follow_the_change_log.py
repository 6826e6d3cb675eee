"""A coalesced recomputation reads again only what the change log names (StandingsChange):
the boards of the games verified, replaced or ruled on since the generation it knows. Its
stored rows equal a recomputation from nothing after every kind of change; one that finds
nothing changed reads no seat, no board but the changed ones and no stored standing. On real
PostgreSQL (the process keeps nothing elsewhere)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Status
from tests.factories import PlayerFactory, bot_record, duplicate_round
from tournaments.models import Adjustment, Standing, StandingsChange, StandingsState
from tournaments.standings import cache
from tournaments.standings import results as standings_results
from tournaments.standings.requests import (
    CHANGES_KEPT_SECONDS,
    standings_changes_prune,
    standings_refresh,
    standings_request,
)
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

SCORES = [{"S": 4, "E": -2, "W": -2}, {"S": -4, "E": 2, "W": 2}, {"S": 2, "E": -1, "W": -1}]


def _stored(event) -> dict:
    rows: dict = {}
    for row in Standing.objects.filter(event=event).order_by("stage_id", "position"):
        rows.setdefault(row.stage_id, []).append(
            {name: getattr(row, name) for name in cache.FIELDS}
        )
    return rows


def _from_nothing(event) -> dict:
    cache.kept_forget()
    rows = standings_results.computed_rows(event=event)
    return {scope: scope_rows for scope, scope_rows in rows.items() if scope_rows}


def _refresh(event) -> None:
    # What the worker runs after the request's commit (the test's transaction never commits).
    standings_refresh(event_id=event.pk)


def test_a_request_logs_its_generation_and_boards(played) -> None:
    event, _round, tables, boards = played
    before = StandingsState.objects.get(pk=event.pk).requested
    standings_request(event_id=event.pk, boards=[boards[1].pk, boards[0].pk, boards[1].pk])
    standings_request(event_id=event.pk)
    logged = list(
        StandingsChange.objects.filter(event=event, generation__gt=before)
        .order_by("generation")
        .values_list("generation", "boards")
    )
    assert logged == [
        (before + 1, sorted([boards[0].pk, boards[1].pk])),
        (before + 2, None),  # anything else: the next recomputation reads everything
    ]


def _ask(event, board, table, named: str) -> None:
    """Request the standings for a change of the game of `board` at `table`, named by its
    board (every game of it read again) or by the game itself (only it)."""
    if named == "games":
        standings_request(event_id=event.pk, games=[(board.pk, table.pk)])
    else:
        standings_request(event_id=event.pk, boards=[board.pk])


@pytest.mark.parametrize("named", ["boards", "games"])
def test_every_kind_of_change_stores_the_rows_of_a_recompute_from_nothing(played, named) -> None:
    event, _round, tables, boards = played
    b1, b2, b3 = boards
    t1, t2, t3, t4 = tables
    assert _stored(event) == _from_nothing(event)
    if named == "games":
        # Each board read again once by the log: its games are known table by table, so
        # the changes below read only the games they name.
        with transaction.atomic():
            standings_request(event_id=event.pk, boards=[b.pk for b in boards])
        _refresh(event)
    # A new score on board 1, table 2.
    with transaction.atomic():
        Game.objects.filter(table=t2, board=b1).update(score={"S": -10, "E": 5, "W": 5})
        _ask(event, b1, t2, named)
    _refresh(event)
    assert _stored(event) == _from_nothing(event)
    # A game no longer counted (flagged) on board 2.
    with transaction.atomic():
        Game.objects.filter(table=t3, board=b2).update(status=Status.FLAGGED)
        _ask(event, b2, t3, named)
    _refresh(event)
    assert _stored(event) == _from_nothing(event)
    # The board is back; two boards changed in two generations before one recomputation.
    with transaction.atomic():
        Game.objects.filter(table=t3, board=b2).update(status=Status.VERIFIED)
        _ask(event, b2, t3, named)
    with transaction.atomic():
        Game.objects.filter(table=t4, board=b3).update(score={"S": 6, "E": -3, "W": -3})
        _ask(event, b3, t4, named)
    _refresh(event)
    assert _stored(event) == _from_nothing(event)
    # A game replaced on board 3 (the new version counts, the old one no longer).
    old = Game.objects.get(table=t1, board=b3, replaced_at__isnull=True)
    with transaction.atomic():
        Game.objects.filter(pk=old.pk).update(replaced_at=timezone.now())
        Game.objects.create(
            table=t1,
            board=b3,
            record={},
            status=Status.VERIFIED,
            version=old.version + 1,
            score={"S": -6, "E": 3, "W": 3},
        )
        _ask(event, b3, t1, named)
    _refresh(event)
    assert _stored(event) == _from_nothing(event)
    # A game removed from board 1: the board is under embargo again and counts for no one.
    with transaction.atomic():
        Game.objects.filter(table=t4, board=b1).delete()
        _ask(event, b1, t4, named)
    _refresh(event)
    stored = _stored(event)
    assert stored == _from_nothing(event)
    assert all(row["boards"] == 2 for row in stored[None])
    # An adjusted score (logged without boards: the recomputation reads everything).
    with transaction.atomic():
        Adjustment.objects.create(table=t4, board=b1, seat="S", kind="avg+")
        standings_request(event_id=event.pk)
    _refresh(event)
    assert _stored(event) == _from_nothing(event)


def test_a_recompute_that_finds_nothing_changed_reads_no_seat_and_no_stored_row(played) -> None:
    event, _round, tables, boards = played
    # A batch verified again with the same scores (a redelivered message, a re-verification):
    # logged with its board, and nothing moves.
    with transaction.atomic():
        Game.objects.filter(board=boards[0]).update(verified_at=timezone.now())
        standings_request(event_id=event.pk, boards=[boards[0].pk])
    before = _stored(event)
    runs = StandingsState.objects.get(pk=event.pk).runs
    with CaptureQueriesContext(connection) as seen:
        _refresh(event)
    sql = [q["sql"] for q in seen.captured_queries]
    assert not [s for s in sql if '"tournaments_seat"' in s]
    assert not [s for s in sql if 'FROM "tournaments_standing"' in s]
    # What is read is the changed board's only: its current games, which give both its
    # openness and its counted scores, and the tables of its round.
    reads = [s for s in sql if s.startswith("SELECT") and '"games_' in s]
    assert len(reads) == 2 and all(f"IN ({boards[0].pk})" in s for s in reads)
    # No lock: the stored rows are this process's, marked done at once.
    assert not [s for s in sql if "pg_advisory_xact_lock" in s]
    state = StandingsState.objects.get(pk=event.pk)
    assert state.done == state.requested and state.runs == runs + 1
    assert _stored(event) == before == _from_nothing(event)


def test_a_game_named_is_the_only_one_read_again(played) -> None:
    # A verification names its games: once a board's games are known table by table, a
    # change reads only the games named (one query by their tables), whatever the board's
    # size, and the rows equal a recompute from nothing.
    event, _round, tables, boards = played
    with transaction.atomic():
        standings_request(event_id=event.pk, boards=[b.pk for b in boards])
    _refresh(event)
    with transaction.atomic():
        Game.objects.filter(table=tables[1], board=boards[0]).update(
            score={"S": 8, "E": -4, "W": -4}
        )
        standings_request(event_id=event.pk, games=[(boards[0].pk, tables[1].pk)])
    with CaptureQueriesContext(connection) as seen:
        _refresh(event)
    games_read = [q["sql"] for q in seen.captured_queries if 'FROM "games_game"' in q["sql"]]
    assert len(games_read) == 1
    assert f'"table_id" IN ({tables[1].pk})' in games_read[0]
    assert _stored(event) == _from_nothing(event)


def test_a_game_named_again_unchanged_is_all_that_is_read(played, monkeypatch) -> None:
    # A ruling that lets a result stand names its game: once the board's games are known
    # table by table, finding that game the same reads it alone (and its round's tables),
    # without assembling the board's other tables, which at 30,000 players are 10,000.
    from tournaments.standings import changes

    event, _round, tables, boards = played
    with transaction.atomic():
        standings_request(event_id=event.pk, boards=[boards[0].pk])
    _refresh(event)
    before = _stored(event)

    def assembled(*args, **kwargs):
        raise AssertionError("the board was assembled again")

    monkeypatch.setattr(changes, "_boards_read", assembled)
    with transaction.atomic():
        standings_request(event_id=event.pk, games=[(boards[0].pk, tables[2].pk)])
    with CaptureQueriesContext(connection) as seen:
        _refresh(event)
    games_read = [q["sql"] for q in seen.captured_queries if 'FROM "games_game"' in q["sql"]]
    assert len(games_read) == 1 and f'"table_id" IN ({tables[2].pk})' in games_read[0]
    state = StandingsState.objects.get(pk=event.pk)
    assert state.done == state.requested
    assert _stored(event) == before == _from_nothing(event)


def test_a_board_found_unchanged_twice_is_credited_once(played, monkeypatch) -> None:
    # A board named again and again with the same games (messages delivered twice, a
    # verification that changed nothing): the games read the first time are kept with the
    # snapshot, so the second finds each row the same and credits no seat again.
    from tournaments.standings import changes

    event, _round, _tables, boards = played
    credited: list[int] = []
    real = changes.credit_games

    def counting(by_board, rows, *args, **kwargs):
        rows = list(rows)
        credited.append(len(rows))
        return real(by_board, rows, *args, **kwargs)

    monkeypatch.setattr(changes, "credit_games", counting)
    for _ in range(2):
        with transaction.atomic():
            standings_request(event_id=event.pk, boards=[boards[0].pk])
        _refresh(event)
    assert credited == [4]  # the board's 4 tables, the first time only
    state = StandingsState.objects.get(pk=event.pk)
    assert state.done == state.requested
    assert _stored(event) == _from_nothing(event)


def test_a_table_seated_without_a_request_is_read_in_full(played) -> None:
    event, _round, _tables, _boards = played
    # A second round seated (its tables and seats written without a standings request).
    second_event, round_, tables, boards = duplicate_round(tables=2, boards=1, event=event)
    assert second_event == event
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    _refresh(event)
    stored = _stored(event)
    assert stored == _from_nothing(event)
    assert {row["player_id"] for row in stored[None]} >= {
        s.player_id for t in tables for s in t.seats.all()
    }


def test_a_pruned_log_reads_everything_again(played) -> None:
    event, _round, tables, boards = played
    with transaction.atomic():
        Game.objects.filter(table=tables[0], board=boards[2]).update(
            score={"S": -8, "E": 4, "W": 4}
        )
        standings_request(event_id=event.pk, boards=[boards[2].pk])
    # The log's rows grow old and are pruned before the recomputation runs: it cannot know
    # which boards moved, so it reads every one.
    StandingsChange.objects.filter(event=event).update(
        created_at=timezone.now() - timedelta(seconds=CHANGES_KEPT_SECONDS + 1)
    )
    assert standings_changes_prune() >= 1
    assert not StandingsChange.objects.filter(event=event).exists()
    _refresh(event)
    assert _stored(event) == _from_nothing(event)


def test_a_new_player_seated_by_hand_counts_after_a_full_request(played) -> None:
    # The organizer's own recompute (the admin's action) asks without boards.
    event, _round, tables, _boards = played
    newcomer = PlayerFactory(name="Late Lin")
    seat = tables[0].seats.get(seat="S")
    seat.player = newcomer
    seat.save()
    standings_request(event_id=event.pk)
    _refresh(event)
    stored = _stored(event)
    assert newcomer.pk in {row["player_id"] for row in stored[None]}
    assert stored == _from_nothing(event)


def _table_added(round_, board=None):
    """A table added to `round_` with three new players (as an online entrant starting a
    board adds one), and, with `board`, its verified game of that board."""
    from tournaments.models import Seat, Table

    table = Table.objects.create(round=round_, number=round_.tables.count() + 1)
    for seat in "SEW":
        Seat.objects.create(table=table, seat=seat, player=PlayerFactory())
    if board is not None:
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        game_verify(game_id=game.pk)
    return table


def test_a_table_added_to_a_round_of_several_boards_is_read_in_full(played) -> None:
    # Boards 2 and 3 are no longer finished by every table of their round: none counts them.
    event, round_, _tables, boards = played
    _table_added(round_, boards[0])
    _refresh(event)
    stored = _stored(event)
    assert stored == _from_nothing(event)
    assert {row["boards"] for row in stored[None]} == {1}


def test_a_table_added_to_a_one_board_round_is_read_with_its_seats_only() -> None:
    # One board a round, as online: the added table's seats are read, not the event's.
    event, round_, tables, boards = duplicate_round(tables=3, boards=1, seed="one")
    for table in tables:
        game_verify(
            game_id=game_submit(
                table=table, board=boards[0], record=bot_record(boards[0], table)
            ).pk
        )
    cache.kept_forget()
    _refresh(event)
    added = _table_added(round_)
    game = game_submit(table=added, board=boards[0], record=bot_record(boards[0], added))
    with CaptureQueriesContext(connection) as seen:
        game_verify(game_id=game.pk)
        _refresh(event)
    seat_reads = [q["sql"] for q in seen.captured_queries if 'FROM "tournaments_seat"' in q["sql"]]
    assert len(seat_reads) == 1 and f"IN ({added.pk})" in seat_reads[0]
    stored = _stored(event)
    assert stored == _from_nothing(event)
    assert len(stored[None]) == 12 and all(row["top"] == "6" for row in stored[None])


def test_a_table_read_with_empty_seats_is_read_again_once_they_are_filled() -> None:
    # An online table waits for entrants with empty seats; robots fill them later, with no
    # request. The snapshot read it with one seat: its game must credit all three.
    from tournaments.models import Seat, Table

    event, round_, tables, boards = duplicate_round(tables=3, boards=1, seed="fill")
    for table in tables:
        game_verify(
            game_id=game_submit(
                table=table, board=boards[0], record=bot_record(boards[0], table)
            ).pk
        )
    waiting = Table.objects.create(round=round_, number=4)
    Seat.objects.create(table=waiting, seat="S", player=PlayerFactory(name="Early Ema"))
    standings_request(event_id=event.pk)  # anything changed: the snapshot is read in full
    cache.kept_forget()
    _refresh(event)
    filled = [PlayerFactory(name="Robot-like East"), PlayerFactory(name="Robot-like West")]
    Seat.objects.create(table=waiting, seat="E", player=filled[0])
    Seat.objects.create(table=waiting, seat="W", player=filled[1])
    game = game_submit(table=waiting, board=boards[0], record=bot_record(boards[0], waiting))
    game_verify(game_id=game.pk)
    _refresh(event)
    stored = _stored(event)
    assert stored == _from_nothing(event)
    # Twelve seats of four tables, each compared among four: a top of 2 × (4 − 1) = 6.
    assert {p.pk for p in filled} <= {row["player_id"] for row in stored[None]}
    assert len(stored[None]) == 12 and all(row["top"] == "6" for row in stored[None])
