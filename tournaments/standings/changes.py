"""Standings at the cost of the change: what a process knows of an event's seat results at one
generation (a *snapshot*), moved to a later generation by reading again only the boards the
change log names (tournaments.models.StandingsChange).

A recomputation of generation G that finds a snapshot of generation S ≤ G reads the log rows
of S+1 … G (one query). When every one of them names boards, it reads those boards' openness
and counted games (two queries) and credits them with the snapshot's seats, adjusted scores
and lineup, which no such change moves; everything else the standings read (the seats of
every round, the boards and their stages, adjustments, penalties, substitutions) is the
snapshot's. A generation logged without boards, one missing from the log (pruned), a board
or a table the snapshot does not know, or a snapshot older than SNAPSHOT_SECONDS sends the
recomputation back to the full read (tournaments.standings.results.event_results), which
takes a new snapshot. When none of the named boards' results differ, the results are the
snapshot's own objects and, with the event's settings the same, so are the computed rows:
the recomputation stores nothing and costs a few queries at any size.

Why it is exact: the log row of a generation commits with the change that bumped it, and a
generation is visible only once every earlier one is (the bump holds the state row until
commit), so the snapshot of S holds every change up to S and the log names every board a
later one touched. The property tests hold that the stored rows equal a recompute from
nothing after every kind of change.

PostgreSQL only, like the rest of what a process keeps (tournaments.standings.cache).
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

from django.db import connection
from django.db.models import Case, Count, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.fields.json import KeyTextTransform

from ddz_site.kernel.sql import prepared_values
from games.counting import counted_q
from games.models import Board, Game
from tournaments.core.embargo import played_games_count
from tournaments.models import Event, Seat, StandingsChange, Table
from tournaments.scoring import methods
from tournaments.standings.cache import keep_results
from tournaments.standings.seat_results import Layout, credit_adjustments, credit_games
from tournaments.standings.snapshots import Snapshot, snapshot_keep, snapshot_of

# A snapshot older than this is not moved but read again from nothing: a bound on what a
# writer that logged too little could leave wrong (none is known; the tests look for them).
SNAPSHOT_SECONDS = 300.0


def settings_of(event: Event, stages: list[Any]) -> tuple[Any, ...]:
    """What the rows depend on besides the seat results: the event's scoring settings and
    its stages' numbers, cuts and carry-over."""
    return (
        event.scoring_method,
        str(event.adjustment_unit),
        tuple(event.tiebreaks or ()),
        event.lot_seed,
        event.deal_commitment,
        event.slug,
        tuple((s.pk, s.number, s.cut, s.carry_over) for s in stages),
    )


def changed_boards(
    event_id: int, since: int, upto: int
) -> tuple[set[int], set[tuple[int, int]] | None] | None:
    """What the generations `since`+1 … `upto` of `event_id` changed: the boards, with the
    very games (board id, table id) when every generation named them (else None: every game
    of the boards); None when one of them changed something else or is missing from the
    log. One query."""
    if upto <= since:
        return set(), set()
    rows = prepared_values("standings.changes", _log_rows, [event_id, since, upto])
    generations: set[int] = set()
    boards: set[int] = set()
    games: set[tuple[int, int]] | None = set()
    for generation, named, tables in rows:
        if isinstance(named, str):  # the cursor's JSON text (prepared_values)
            named = json.loads(named)
        if isinstance(tables, str):
            tables = json.loads(tables)
        if named is None:
            return None
        generations.add(generation)
        boards.update(int(b) for b in named)
        if tables is None:
            games = None
        elif games is not None:
            games.update((int(b), int(t)) for b, t in tables)
    return (boards, games) if len(generations) == upto - since else None


def _log_rows(args: list[int]) -> QuerySet[StandingsChange, tuple[int, Any, Any]]:
    event_id, since, upto = args
    return StandingsChange.objects.filter(
        event_id=event_id, generation__gt=since, generation__lte=upto
    ).values_list("generation", "boards", "tables")


def results_since(event: Event, generation: int) -> Snapshot | None:
    """The event's snapshot moved to `generation` (kept, and returned with `unchanged` when
    no board's results differ), or None when a full read is needed (see the module
    docstring)."""
    if connection.vendor != "postgresql":
        return None
    snap = snapshot_of(event.pk)
    if (
        snap is None
        or snap.generation > generation
        or time.monotonic() - snap.taken > SNAPSHOT_SECONDS
    ):
        return None
    found = changed_boards(event.pk, snap.generation, generation)
    if found is None or not found[0] <= set(snap.layout.number_of):
        return None
    boards, pairs = found
    fresh = _named_read(snap, boards, pairs)
    if not boards or (fresh is not None and _named_games_same(snap, boards, fresh)):
        moved = replace(snap, generation=generation, unchanged=True)
        snapshot_keep(event.pk, moved)
        return moved
    seats = snap.seats
    read_again = _boards_read(event, snap, boards, fresh)
    if read_again is None:
        return None
    rows, layout, expected, now_open = read_again
    if now_open != boards:
        rows = [row for row in rows if row[0] in now_open]
    credited = replace(layout, boards=now_open)
    every_board = dict(snap.results.by_board or {})
    grouped, games, anew = _credit_again(rows, snap, credited, boards)
    credit_adjustments(grouped, credited, {})
    read = {b: grouped[b] for b in grouped if grouped[b]}
    changed = False
    for board in boards:
        old = every_board.get(board)
        new = read.get(board)
        if new is None:
            changed |= every_board.pop(board, None) is not None
        elif old is None or board in anew or not _same(old, new):
            every_board[board] = new
            changed = True
    if not changed and layout is snap.layout and expected == snap.results.expected:
        # The rows read are kept even so: the next request naming these boards (a message
        # delivered twice, a verification that changed nothing) finds them the same at once.
        moved = replace(snap, generation=generation, unchanged=True, games={**snap.games, **games})
        snapshot_keep(event.pk, moved)
        return moved
    open_boards = (set(snap.layout.boards) - boards) | now_open
    # The boards read here are kept with a version no row has, so that their points are kept
    # with them (board_point_lists) and a full read reads them again.
    keep_results(event.pk, snap.context, dict.fromkeys(read, ""), read)
    results = replace(
        snap.results,
        event=event,
        results=[r for rs in every_board.values() for r in rs],
        expected=expected,
        by_board=every_board,
    )
    moved = Snapshot(
        generation=generation,
        taken=snap.taken,
        results=results,
        layout=replace(layout, boards=open_boards),
        seats=seats,
        context=snap.context,
        games={**snap.games, **games},
    )
    snapshot_keep(event.pk, moved)
    return moved


def _named_read(
    snap: Snapshot, boards: set[int], pairs: set[tuple[int, int]] | None
) -> dict[tuple[int, int], tuple[Any, ...]] | None:
    """The current rows of the games `pairs` names (named_games), read when every one of
    `boards` is open in the snapshot and known there table by table, so that only those
    games need reading; else None. One query, as many rows as `pairs`."""
    if not pairs or not boards <= snap.layout.boards or not all(b in snap.games for b in boards):
        return None
    return named_games(pairs, snap.seats)


def _named_games_same(
    snap: Snapshot, boards: set[int], fresh: dict[tuple[int, int], tuple[Any, ...]]
) -> bool:
    """Whether every game read again (`fresh`, of `boards` only) is still counted with the
    scores the snapshot credited last, at a table whose seats it knows: then no result moved
    (a ruling that let a result stand, a message delivered twice), and the boards need not be
    assembled again, which costs as much as their tables (10,000 at 30,000 players). No
    query: the tables of a board's round, its N, are as the snapshot counted them. A round's
    tables are written when it is seated (tournaments.events.setup.tables_write), before any
    of its boards is played, and the snapshot knows these boards table by table; only an
    online duplicate's tables come and go during play, and its N is the tables that finished
    the board (played_games_count), which the games read tell."""
    if {b for b, _t in fresh} != boards or any(
        len(snap.layout.seat_of.get(t, ())) < len(snap.seats) for _b, t in fresh
    ):
        return False
    for (board_id, table_id), row in fresh.items():
        last = snap.games[board_id].get(table_id)
        if last is None or not row[2] or last[0] != (row[0], row[1], *row[3:]):
            return False
    return True


def _boards_read(
    event: Event,
    snap: Snapshot,
    boards: set[int],
    fresh: dict[tuple[int, int], tuple[Any, ...]] | None,
) -> tuple[list[tuple[Any, ...]], Layout, dict[Hashable, int], set[int]] | None:
    """The counted games of the changed `boards` (board id, table id, the seats' scores),
    the layout with their tables, the tables each board is meant for (Neuberg's N) and which
    of them the standings count now; None when the snapshot cannot be moved (read
    everything).

    `fresh`, when given, is the named games read again (_named_read): the boards' other
    rows are then the snapshot's, at tables it knows."""
    seats = snap.seats
    # Every current game of the boards (counted or not), read when the named ones do not do.
    every: list[tuple[Any, ...]] | None = None
    if fresh is not None:
        tables = {t for _b, t in fresh}.union(*(snap.games[b] for b in boards))
    else:
        every = _current_games(boards, seats)
        tables = {row[1] for row in every}
    layout = _with_tables(snap.layout, tables, seats)
    if layout is None:
        return None
    # The tables of the changed boards' rounds counted again: a table may have been added
    # since (an online entrant starting a board), and it counts in N until it finishes.
    counted_again = {} if played_games_count(event) else round_tables(boards)
    if any(
        n != snap.results.expected.get(b) and alone is False
        for b, (n, alone) in counted_again.items()
    ):
        return None  # a table added to a round of several boards: each board's openness moves
    expected: dict[Hashable, int] = dict(snap.results.expected)
    expected.update({b: n for b, (n, _alone) in counted_again.items()})
    if played_games_count(event):
        now_open = boards
    elif fresh is not None and expected == snap.results.expected:
        # Open in the snapshot with the same tables: a finished table stays finished (its
        # game replaced or ruled on, never taken away), so the boards stay open.
        now_open = boards
    else:
        if every is None:
            every = _current_games(boards, seats)
        now_open = _open_of(boards, every, layout, expected)
    if fresh is not None:
        return _games_moved(snap, boards, fresh), layout, expected, now_open
    assert every is not None  # read above when no games were named
    rows = [(b, t, *scores) for b, t, counted, *scores in every if counted]
    return rows, layout, expected, now_open


def _credit_again(
    rows: list[tuple[Any, ...]], snap: Snapshot, layout: Layout, boards: set[int]
) -> tuple[
    dict[int, list[methods.SeatResult]],
    dict[int, dict[int, tuple[tuple[Any, ...], tuple[methods.SeatResult, ...]]]],
    set[int],
]:
    """The seat results of the counted game rows `rows` of `boards` (board id, table id, the
    seats' scores), board by board, each board's rows with what they credited (kept as
    Snapshot.games), and the boards credited a seat result anew (one the snapshot did not
    hold at its place: changed, most likely): a row the snapshot read the same last time
    gives its very seat results, so only the games that changed are credited again (a
    verified batch changes a few of a board's hundreds), and a board whose rows are all the
    same has its very results."""
    grouped: dict[int, list[methods.SeatResult]] = defaultdict(list)
    games: dict[int, dict[int, tuple[tuple[Any, ...], tuple[methods.SeatResult, ...]]]] = {
        b: {} for b in boards
    }
    fresh: list[tuple[Any, ...]] = []
    anew: set[int] = set()
    for row in rows:
        board_id, table_id = row[0], row[1]
        last = snap.games.get(board_id, {}).get(table_id)
        if last is not None and last[0] == row:
            grouped[board_id].extend(last[1])
            games[board_id][table_id] = last
        else:
            fresh.append(row)
    if fresh:
        before = _credited_before(snap, boards, fresh)
        credited: dict[int, list[methods.SeatResult]] = defaultdict(list)
        credit_games(credited, fresh, snap.seats, layout, reuse=before)
        by_table: dict[tuple[int, Any], list[methods.SeatResult]] = defaultdict(list)
        for board_id, results in credited.items():
            grouped[board_id].extend(results)
            for r in results:
                by_table[(board_id, r.table)].append(r)
        for row in fresh:
            games[row[0]][row[1]] = (row, tuple(by_table.get((row[0], row[1]), ())))
        anew = {
            board_id
            for (board_id, _table), results in by_table.items()
            if any(before.get((r.board, r.table, r.seat)) is not r for r in results)
        }
    return grouped, games, anew


def _credited_before(
    snap: Snapshot, boards: set[int], fresh: list[tuple[Any, ...]]
) -> dict[Any, methods.SeatResult]:
    """The seat results the snapshot credited at the tables of `fresh` (board id, table id,
    …), by (board, table, seat), for credit_games to reuse the equal ones: read from the
    tables' games when the snapshot knows each (a few of a board's hundreds), else from every
    result of `boards`."""
    games = snap.games
    if all(row[1] in games.get(row[0], {}) for row in fresh):
        return {(r.board, r.table, r.seat): r for row in fresh for r in games[row[0]][row[1]][1]}
    by_board = snap.results.by_board or {}
    return {(r.board, r.table, r.seat): r for b in boards for r in by_board.get(b, ())}


def _games_moved(
    snap: Snapshot, boards: set[int], fresh: dict[tuple[int, int], tuple[Any, ...]]
) -> list[tuple[Any, ...]]:
    """The counted games of `boards` (board id, table id, the seats' scores), from the games
    named and read again (`fresh`, by board and table, as _current_games gives them): every
    other table's row is the one the snapshot read last (Snapshot.games), counted then."""
    rows: list[tuple[Any, ...]] = []
    for board_id in boards:
        rows.extend(
            row
            for table_id, (row, _results) in snap.games[board_id].items()
            if (board_id, table_id) not in fresh
        )
    rows.extend((b, t, *scores) for b, t, counted, *scores in fresh.values() if counted)
    return rows


def named_games(
    pairs: set[tuple[int, int]], seats: list[str]
) -> dict[tuple[int, int], tuple[Any, ...]] | None:
    """The current game of each (board id, table id) of `pairs` as _current_games gives it,
    by (board id, table id); None when one has no current version (a game taken away). One
    query by their tables."""

    def build(ids: list[int]) -> QuerySet[Game, tuple[Any, ...]]:
        by_seat = {f"score_{i}": KeyTextTransform(s, "score") for i, s in enumerate(seats)}
        counted = Case(When(counted_q(), then=Value(True)), default=Value(False))
        return (
            Game.objects.filter(table_id__in=ids, replaced_at__isnull=True)
            .order_by()
            .annotate(counted=counted, **by_seat)
            .values_list("board_id", "table_id", "counted", *by_seat)
        )

    tables = sorted({t for _b, t in pairs})
    fresh = {
        (row[0], row[1]): row
        for row in prepared_values(f"standings.games_at:{','.join(seats)}", build, tables)
        if (row[0], row[1]) in pairs
    }
    return fresh if len(fresh) == len(pairs) else None


def _current_games(boards: set[int], seats: list[str]) -> list[tuple[Any, ...]]:
    """Every current game of `boards` (counted or not: each finishes its table's board) as
    (board id, table id, counted, the score of each of `seats`). One query."""

    def build(ids: list[int]) -> QuerySet[Game, tuple[Any, ...]]:
        by_seat = {f"score_{i}": KeyTextTransform(s, "score") for i, s in enumerate(seats)}
        counted = Case(When(counted_q(), then=Value(True)), default=Value(False))
        return (
            Game.objects.filter(board_id__in=ids, replaced_at__isnull=True)
            .order_by()
            .annotate(counted=counted, **by_seat)
            .values_list("board_id", "table_id", "counted", *by_seat)
        )

    return prepared_values(f"standings.games:{','.join(seats)}", build, sorted(boards))


def _with_tables(layout: Layout, tables: set[int], seats: list[str]) -> Layout | None:
    """`layout` with the seats of those of `tables` it does not know whole, read in one
    query: a table added to a round since the snapshot (an online entrant's play of a board),
    or one that had fewer seats than the event's score columns when it was read (an online
    table that robots filled since). The very `layout` when nothing differs; None when such
    a table has no seats or a seat the event's score columns do not name (read everything)."""
    unknown = {t for t in tables if len(layout.seat_of.get(t, ())) < len(seats)}
    if not unknown:
        return layout
    added: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, seat, player_id in Seat.objects.filter(table_id__in=unknown).values_list(
        "table_id", "seat", "player_id"
    ):
        added[table_id][seat] = player_id
    if added.keys() != unknown or any(s not in seats for t in added.values() for s in t):
        return None
    if all(layout.seat_of.get(t) == at for t, at in added.items()):
        return layout
    return replace(layout, seat_of={**layout.seat_of, **added})


def round_tables(boards: set[int]) -> dict[int, tuple[int, bool]]:
    """Board id → (the number of tables of its round, whether it is the round's one board),
    for those of `boards` in a round. One query: two counts per board by the round's indexes
    (a join of tables and boards with COUNT(DISTINCT) took 5 ms at 200 tables a round)."""

    def build(ids: list[int]) -> QuerySet[Board, tuple[int, int, int]]:
        return (
            Board.objects.filter(pk__in=ids, round__isnull=False)
            .order_by()
            .annotate(tables=_count_of(Table), others=_count_of(Board))
            .values_list("pk", "tables", "others")
        )

    return {
        board_id: (n_tables or 0, n_boards == 1)
        for board_id, n_tables, n_boards in prepared_values(
            "standings.round_tables", build, sorted(boards)
        )
    }


def _count_of(model: type[Table] | type[Board]) -> Subquery:
    """How many rows of `model` the outer board's round has (a subquery)."""
    return Subquery(
        model.objects.filter(round_id=OuterRef("round_id"))
        .order_by()
        .values("round_id")
        .annotate(n=Count("pk"))
        .values("n")
    )


def _open_of(
    boards: set[int], rows: list[tuple[Any, ...]], layout: Layout, expected: dict[Any, int]
) -> set[int]:
    """Which of `boards` the standings count (tournaments.core.embargo.open_board_ids: every
    table of the board's round has a current game of it or an adjusted score for it at every
    seat of the table), from their current games `rows`, the adjusted seats, the tables' seats
    and the tables of each board's round. A game's table is one of its board's round
    (tournaments.tables.submission refuses any other)."""
    finished: dict[int, set[int]] = defaultdict(set)
    for board_id, table_id, *_rest in rows:
        finished[board_id].add(table_id)
    for (board_id, table_id), rulings in layout.adjusted.items():
        if board_id in boards and layout.seat_of.get(table_id, {}).keys() <= rulings.keys():
            finished[board_id].add(table_id)
    return {b for b in boards if b not in expected or len(finished.get(b, ())) >= expected[b]}


def _same(old: list[methods.SeatResult], new: list[methods.SeatResult]) -> bool:
    """Whether a board's seat results read again are the ones it had, in any order (the rows
    come in whatever order the table holds them): the same objects (an unchanged game's are
    reused: _credit_again), and the others equal to the ones they replace (an adjusted seat
    is a new object each time)."""
    if len(old) != len(new):
        return False
    kept = {id(r) for r in old}
    others = [r for r in new if id(r) not in kept]
    if not others:
        return True
    reused = {id(r) for r in new}
    replaced = {_place(r): r for r in old if id(r) not in reused}
    return all(replaced.get(_place(r)) == r for r in others)


def _place(result: methods.SeatResult) -> tuple[Any, str]:
    return (result.table, result.seat)
