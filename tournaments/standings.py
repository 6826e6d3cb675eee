"""Standings per event and per stage: computed from the games, stored, always equal to a full
recompute.

Vocabulary: a *seat result* of an event is one seat of a table on one board: the engine's score
of the table's current, counted game in that seat (verified, or flagged and ruled to stand by
a chief referee: games.counting.counted_q), or the seat's adjusted score
(tournaments.models.Adjustment, which then replaces the game for that seat). Only *open* boards
count (tournaments.embargo): a board under embargo moves no total. Boards are compared by the
seat held (the seats of the event's rules, whatever the table size), never by role. A *scope*
is the whole event (stage None) or one stage; a stage that carries scores over also counts the
boards of the stages before it, for the players of this stage. Penalties are kept apart from
the boards and taken off for the rank; ties are separated by the event's tie-breaks. In a stage
with a cut, players the tie-breaks leave equal across the cut line are drawn by the event's
lot, so that the cut (tournaments.stages.stage_cut, which takes the top `Stage.cut` of these
stored rows, as the Swiss seating ranks by them) never chooses between players the published
standings show as equal.

Writes: `standings_recompute` (run by the Celery task recompute_standings after each verified
or corrected game, and after each adjustment or penalty) replaces a scope's rows only when
they differ from a fresh computation, under a lock on the event row, so two workers recompute
one event in turn and a second run changes nothing. `adjustment_set`, `adjustment_remove`,
`penalty_add` and `penalty_remove` are the organizers' and referees' rulings (one transaction
each, audited, recompute enqueued after commit).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import partial
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Aggregate, CharField, Count, F, QuerySet
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Greatest
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.dispatch import RECOMPUTE_STANDINGS, enqueue
from ddz_site.errors import DomainError
from ddz_site.sql import copy_rows
from games.counting import counted_q
from games.models import Board, Game, Status
from tournaments import lineups, scoring
from tournaments.access import Actor, require_ruling, signed_in
from tournaments.audit import audit_record
from tournaments.embargo import open_board_ids
from tournaments.models import (
    Adjustment,
    AdjustmentKind,
    Event,
    Penalty,
    Player,
    RoundState,
    Seat,
    Stage,
    Standing,
    StandingsState,
    Table,
)
from tournaments.rating_requests import ratings_request

logger = logging.getLogger(__name__)

FIELDS = (
    "player_id",
    "method",
    "position",
    "rank",
    "total",
    "top",
    "percentage",
    "boards",
    "penalty",
    "decided_by",
)


class RulingRejected(DomainError):
    """An adjustment or a penalty that cannot be stored."""


@dataclass
class EventResults:
    """Everything the standings of one event are computed from, fetched in a few flat queries.

    `results` are the seat results of open boards (board and table are ids, player a player
    id); `stage_of_board` maps a board id to its round's stage id (None: no stage);
    `expected` maps a board id to the tables that should have played it (Neuberg's N).
    """

    event: Event
    results: list[scoring.SeatResult]
    stage_of_board: dict[Hashable, int | None]
    expected: dict[Hashable, int]
    penalties: list[tuple[int, int | None, Fraction]]
    unranked: set[int] = field(default_factory=set)
    # `results` board by board, in the same order, when event_results read them: a board's
    # list is the very object of the recomputation before while the board is unchanged
    # (_BOARD_RESULTS), and board_points finds its points by it.
    by_board: dict[Hashable, list[scoring.SeatResult]] | None = None


# The seat results of each board, kept per process (issue 11, item 1: a recomputation reads
# again only the boards that changed): found again while the board's counted games are the
# same rows in the same versions (_RowVersions: any write, a game counted or no longer, a new
# score, a replacement, changes the board's version) and what else they depend on (the
# event's seats, adjusted scores, substitutions and board numbers: the context) is the same.
# Keyed by event and board, at most RESULTS_KEPT seat results in all (about 100 MB), least
# recently used first out; the points of a kept board are kept with it (_POINTS_OF_LIST).
# Elsewhere than on PostgreSQL every board is read each time.
_BOARD_RESULTS: OrderedDict[tuple[int, int], tuple[str, list[scoring.SeatResult]]] = OrderedDict()
_CONTEXTS: dict[int, tuple[Any, ...]] = {}
_KEPT: dict[str, int] = {"results": 0}
RESULTS_KEPT = 500_000
_KEPT_LOCK = threading.Lock()


class _RowVersions(Aggregate):
    """The version of a group of game rows: md5 of their ids, xmin and ctid in id order
    (PostgreSQL). Every write of a row makes a new row version in a new place (ctid), and
    xmin tells the transactions apart: a row written again in the transaction that wrote it
    keeps its xmin but moves."""

    template = (
        "md5(string_agg(%(expressions)s::text || ':' || %(table)s.xmin::text || ':'"
        " || %(table)s.ctid::text, ',' ORDER BY %(expressions)s))"
    )
    output_field = CharField()


def _standings_version(event_id: int) -> str | None:
    """The version of the stored standing rows of an event (_RowVersions; "" when it has
    none); None off PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    table = connection.ops.quote_name(Standing._meta.db_table)
    found = Standing.objects.filter(event_id=event_id).aggregate(
        version=_RowVersions(F("id"), table=table)
    )
    return str(found["version"] or "")


# The rows a recomputation of this process stored last, per event, with their version
# (_standings_version): the next one compares with them instead of reading them all again
# (20,000 rows of a 10,000-player event: a seventh of a recompute's time), while no one else
# stored, deleted or changed a row. At most STORED_KEPT events, least recently used first out.
_STORED_KEPT: OrderedDict[int, tuple[str, dict[int | None, list[dict[str, Any]]]]] = OrderedDict()
STORED_KEPT = 4


def _stored_rows_of(event: Event, version: str | None) -> dict[int | None, list[dict[str, Any]]]:
    """The stored rows of `event` (stored_rows): the kept ones when their version is
    `version`, else read."""
    with _KEPT_LOCK:
        kept = _STORED_KEPT.get(event.pk)
        if version is not None and kept is not None and kept[0] == version:
            _STORED_KEPT.move_to_end(event.pk)
            return kept[1]
    return stored_rows(event=event)


def _keep_stored(
    event_id: int, version: str | None, rows: dict[int | None, list[dict[str, Any]]]
) -> None:
    if version is None:
        return
    with _KEPT_LOCK:
        _STORED_KEPT[event_id] = (version, rows)
        _STORED_KEPT.move_to_end(event_id)
        while len(_STORED_KEPT) > STORED_KEPT:
            _STORED_KEPT.popitem(last=False)


def _board_versions(games: QuerySet[Game]) -> dict[int, str] | None:
    """Board id → the version of its counted games (_RowVersions); None off PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    table = connection.ops.quote_name(Game._meta.db_table)
    return dict(
        games.values("board_id")
        .annotate(version=_RowVersions(F("id"), table=table))
        .values_list("board_id", "version")
    )


def _kept_results(
    event_id: int, context: tuple[Any, ...], versions: dict[int, str] | None
) -> dict[int, list[scoring.SeatResult]]:
    """The kept seat results of the boards whose version is the same (see _BOARD_RESULTS)."""
    if versions is None:
        return {}
    with _KEPT_LOCK:
        if _CONTEXTS.get(event_id) != context:
            return {}
        kept = {}
        for board_id, version in versions.items():
            hit = _BOARD_RESULTS.get((event_id, board_id))
            if hit is not None and hit[0] == version:
                _BOARD_RESULTS.move_to_end((event_id, board_id))
                kept[board_id] = hit[1]
        return kept


def _keep_results(
    event_id: int,
    context: tuple[Any, ...],
    versions: dict[int, str],
    read: dict[int, list[scoring.SeatResult]],
) -> None:
    """Keep the seat results just read, with their boards' versions (see _BOARD_RESULTS)."""
    with _KEPT_LOCK:
        if _CONTEXTS.get(event_id) != context:
            for key in [k for k in _BOARD_RESULTS if k[0] == event_id]:
                _forget_board(key)
            _CONTEXTS.pop(event_id, None)
            _CONTEXTS[event_id] = context
            while len(_CONTEXTS) > CONTEXTS_KEPT:
                oldest = next(iter(_CONTEXTS))
                for key in [k for k in _BOARD_RESULTS if k[0] == oldest]:
                    _forget_board(key)
                del _CONTEXTS[oldest]
        for board_id, version in versions.items():
            if board_id in read:
                key = (event_id, board_id)
                _forget_board(key)
                _BOARD_RESULTS[key] = (version, read[board_id])
                _KEPT["results"] += len(read[board_id])
        while _KEPT["results"] > RESULTS_KEPT and _BOARD_RESULTS:
            _forget_board(next(iter(_BOARD_RESULTS)))


def kept_forget() -> None:
    """Forget every board this process keeps (_BOARD_RESULTS) and the points kept with them,
    as in a new process (tests; nothing else needs it: a kept board is found again only while
    it is unchanged)."""
    with _KEPT_LOCK:
        _BOARD_RESULTS.clear()
        _POINTS_OF_LIST.clear()
        _CONTEXTS.clear()
        _KEPT["results"] = 0
        _BOARD_POINTS.clear()
        _STORED_KEPT.clear()


# How many events' contexts a process keeps (each holds its seats: 30,000 for 10,000 players).
CONTEXTS_KEPT = 32


def _forget_board(key: tuple[int, int]) -> None:
    """Drop a kept board and its kept points (the caller holds _KEPT_LOCK)."""
    kept = _BOARD_RESULTS.pop(key, None)
    if kept is not None:
        _KEPT["results"] -= len(kept[1])
    _POINTS_OF_LIST.pop(key, None)


def event_results(
    *,
    event: Event,
    boards: set[int] | None = None,
    with_penalties: bool = True,
    lineup: lineups.Lineup | None = None,
) -> EventResults:
    """The seat results of `event` (see the module docstring) on `boards` (default: the open
    boards), and its penalties and unranked players (reserves the organizer did not rank)
    unless not `with_penalties`; each seat result is credited to who played the board
    (tournaments.substitutions). Nine flat queries at most, whatever the event's size."""
    if boards is None:
        boards = open_board_ids(event)
    seat_rows = tuple(
        Seat.objects.filter(table__round__event=event)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat", "player_id")
    )
    seat_of: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, seat, player_id in seat_rows:
        seat_of[table_id][seat] = player_id
    if lineup is None:  # the caller's, when it has the event's already
        lineup = lineups.lineup_of(event=event)
    tables_per_round = dict(
        Table.objects.filter(round__event=event)
        .order_by()
        .values_list("round_id")
        .annotate(n=Count("id"))
        .values_list("round_id", "n")
    )
    stage_of_board: dict[Hashable, int | None] = {}
    expected: dict[Hashable, int] = {}
    number_of: dict[int, int] = {}
    for board_id, round_id, stage_id, number in Board.objects.filter(event=event).values_list(
        "id", "round_id", "round__stage_id", "number"
    ):
        stage_of_board[board_id] = stage_id
        number_of[board_id] = number
        if round_id is not None:
            expected[board_id] = tables_per_round.get(round_id, 0)
    adjustment_rows = tuple(
        Adjustment.objects.filter(board__event=event)
        .order_by("board_id", "table_id", "seat")
        .values_list("board_id", "table_id", "seat", "kind")
    )
    adjusted: dict[tuple[int, int], dict[str, str]] = defaultdict(dict)
    for board_id, table_id, seat, kind in adjustment_rows:
        adjusted[(board_id, table_id)][seat] = kind
    games = Game.objects.filter(
        counted_q(),  # verified, or flagged and ruled to stand (games.versions)
        board__event=event,
        board_id__in=boards,
        replaced_at__isnull=True,
    ).order_by()
    # What a board's seat results depend on besides its games: kept with them (_BOARD_RESULTS).
    context = (seat_rows, adjustment_rows, lineup.signature(), tuple(sorted(number_of.items())))
    versions = _board_versions(games)
    kept = _kept_results(event.pk, context, versions)
    # A score takes few distinct values: each is made a Fraction once, not once per seat.
    fractions: dict[Any, Fraction] = {}
    # Each seat's score read out of the JSON by the database (one text column per seat of the
    # event), not a JSON document decoded in Python per game: a third of a recompute's time.
    seats = sorted({seat for at_table in seat_of.values() for seat in at_table})
    by_seat = {f"score_{i}": KeyTextTransform(seat, "score") for i, seat in enumerate(seats)}
    read = games if versions is None else games.filter(board_id__in=set(versions) - set(kept))
    by_board: dict[int, list[scoring.SeatResult]] = defaultdict(list)
    for board_id, table_id, *values in read.annotate(**by_seat).values_list(
        "board_id", "table_id", *by_seat
    ):
        if board_id not in boards:
            continue
        rulings = adjusted.get((board_id, table_id), {})
        score = dict(zip(seats, values, strict=True))
        for seat, player_id in seat_of.get(table_id, {}).items():
            if seat in rulings:
                continue
            value = score.get(seat)
            if value is not None:
                # Each board is credited to who played it (tournaments.substitutions); most
                # events have no substitution, and this loop runs once per seat of each game.
                if lineup:
                    player_id = lineup.player_id(table_id, seat, number_of[board_id], player_id)
                exact = fractions.get(value)
                if exact is None:
                    exact = fractions[value] = Fraction(value)
                by_board[board_id].append(
                    scoring.SeatResult(board_id, table_id, seat, player_id, exact)
                )
    for (board_id, table_id), rulings in adjusted.items():
        if board_id not in boards or board_id in kept:
            continue
        players = seat_of.get(table_id, {})
        for seat, kind in rulings.items():
            if seat in players:
                player_id = lineup.player_id(table_id, seat, number_of[board_id], players[seat])
                by_board[board_id].append(
                    scoring.SeatResult(
                        board_id, table_id, seat, player_id, Fraction(0), adjusted=kind
                    )
                )
    if versions is not None:
        _keep_results(event.pk, context, versions, by_board)
    every_board: dict[Hashable, list[scoring.SeatResult]] = {}
    for source in (kept, by_board):
        for board_id, board_results in source.items():
            every_board[board_id] = board_results
    results: list[scoring.SeatResult] = []
    for board_results in every_board.values():
        results.extend(board_results)
    penalties: list[tuple[int, int | None, Fraction]] = (
        [
            (player_id, stage_id, Fraction(points))
            for player_id, stage_id, points in Penalty.objects.filter(event=event).values_list(
                "player_id", "stage_id", "points"
            )
        ]
        if with_penalties
        else []
    )
    # Like the penalties, who is left out of the ranking matters to the ranking only.
    unranked = lineups.unranked_ids(event) if with_penalties else set()
    # Board by board for board_points only where boards are kept (else nothing to find).
    return EventResults(
        event,
        results,
        stage_of_board,
        expected,
        penalties,
        unranked,
        every_board if versions is not None else None,
    )


def method_of(event: Event) -> scoring.Method:
    """The scoring method of `event` as the pure scoring names it."""
    return "datum" if event.scoring_method == "datum" else "matchpoints"


def _tiebreaks(event: Event) -> tuple[list[str], str]:
    order = [t for t in (event.tiebreaks or []) if t in scoring.TIEBREAKS]
    order = list(dict.fromkeys(order))
    # The lot needs a public seed: the event's own, else the deal commitment published before
    # play, else its slug; every one of them is shown on the event page.
    return order, lot_seed(event)


def lot_seed(event: Event) -> str:
    """The published seed of the lot of `event` (see _tiebreaks)."""
    return event.lot_seed or event.deal_commitment or event.slug


# The points of one board, kept per process: they depend only on the board's own seat results,
# the method, the unit and its expected tables (the key), so a recompute after a burst scores
# again only the boards whose results changed and looks the others up. Least recently used
# first out.
_BOARD_POINTS: OrderedDict[tuple[Any, ...], dict[tuple[Any, Any, str], scoring.SeatPoints]] = (
    OrderedDict()
)
BOARD_POINTS_KEPT = 20_000
# The points of a board's kept seat results (EventResults.by_board), found by the list itself:
# no signature to build while the board is unchanged. Replaced when the list is.
_POINTS_OF_LIST: dict[
    tuple[Any, ...],
    tuple[list[scoring.SeatResult], tuple[Any, ...], list[scoring.SeatPoints]],
] = {}


def board_points(
    data: EventResults, *, method: scoring.Method, unit: Fraction, memo: bool = True
) -> list[scoring.SeatPoints]:
    """The points of every seat result of `data`, in its order: scoring.board_points board by
    board, each board's looked up when its results are the same as at a recompute before
    (`memo`), else computed; the same list as one call of scoring.board_points on them all
    (a property test holds it).

    Raises:
        ScoringError: as scoring.board_points.
    """
    if not memo:
        return scoring.board_points(data.results, method=method, expected=data.expected, unit=unit)
    if data.by_board is not None:
        out: list[scoring.SeatPoints] = []
        for board, results in data.by_board.items():
            place = (data.event.pk, board)
            how = (method, unit, data.expected.get(board))
            kept = _POINTS_OF_LIST.get(place)
            if kept is not None and kept[0] is results and kept[1] == how:
                out.extend(kept[2])
                continue
            points = scoring.board_points(results, method=method, expected=data.expected, unit=unit)
            with _KEPT_LOCK:
                if place in _BOARD_RESULTS:  # else dropped meanwhile: kept with its board only
                    _POINTS_OF_LIST[place] = (results, how, points)
            out.extend(points)
        return out
    by_board: dict[Any, list[scoring.SeatResult]] = defaultdict(list)
    for r in data.results:
        by_board[r.board].append(r)
    found: dict[tuple[Any, Any, str], scoring.SeatPoints] = {}
    for board, results in by_board.items():
        # Plain values (hashed in C), not the results themselves (Fractions hash slowly).
        signature = frozenset(
            (r.table, r.seat, r.player, r.score.numerator, r.score.denominator, r.adjusted)
            for r in results
        )
        key = (method, unit, data.expected.get(board), board, signature)
        hit = _BOARD_POINTS.get(key)
        if hit is None:
            points = scoring.board_points(results, method=method, expected=data.expected, unit=unit)
            # A seat result is one seat of one table (scoring refuses a seat met twice), so
            # a board's points are found again by table and seat, in whatever order they come.
            hit = {(p.board, p.table, p.seat): p for p in points}
            _BOARD_POINTS[key] = hit
            if len(_BOARD_POINTS) > BOARD_POINTS_KEPT:
                _BOARD_POINTS.popitem(last=False)
        else:
            _BOARD_POINTS.move_to_end(key)
        found.update(hit)
    return [found[(r.board, r.table, r.seat)] for r in data.results]


def compute(
    data: EventResults, *, stages: Iterable[Stage] = (), memo: bool = True
) -> dict[int | None, list[scoring.Standing]]:
    """The standings of every scope: None (the whole event) and each of `stages`; `memo`:
    the points of boards unchanged since a recompute before are looked up (board_points).

    Raises:
        ScoringError: input the pure scoring refuses (a seat met twice at one table).
    """
    event = data.event
    method = method_of(event)
    unit = Fraction(event.adjustment_unit or 0)
    points = board_points(data, method=method, unit=unit, memo=memo)
    if data.unranked:
        # Reserves the organizer did not rank: their boards are compared with the others
        # (above), but they have no row (tournaments.substitutions).
        points = [p for p in points if p.player not in data.unranked]
        data = replace(data, results=[r for r in data.results if r.player not in data.unranked])
    order, seed = _tiebreaks(event)

    def penalties(stage_ids: set[int | None] | None) -> dict[Hashable, Fraction]:
        out: dict[Hashable, Fraction] = defaultdict(Fraction)
        for player_id, stage_id, value in data.penalties:
            if stage_ids is None or stage_id in stage_ids:
                out[player_id] += value
        return dict(out)

    scopes: dict[int | None, list[scoring.Standing]] = {
        None: scoring.standings(
            points,
            method=method,
            results=data.results,
            penalties=penalties(None),
            tiebreaks=order,
            seed=seed,
        )
    }
    ordered = sorted(stages, key=lambda s: s.number)
    boards_present = {r.board for r in data.results}
    for stage in ordered:
        counted = {stage.pk}
        if stage.carry_over:
            counted |= {s.pk for s in ordered if s.number < stage.number}
        if all(data.stage_of_board.get(b) == stage.pk for b in boards_present):
            # Every result is on this stage's boards (one stage, the common case): its
            # players, results and points are the event's, with no pass to filter them.
            players = {r.player for r in data.results}
            scope_results, scope_points = data.results, points
        else:
            players = {
                r.player for r in data.results if data.stage_of_board.get(r.board) == stage.pk
            }
            scope_results = [
                r
                for r in data.results
                if r.player in players and data.stage_of_board.get(r.board) in counted
            ]
            scope_points = [
                p
                for p in points
                if p.player in players and data.stage_of_board.get(p.board) in counted
            ]
        stage_penalties = {k: v for k, v in penalties(set(counted)).items() if k in players}

        ranked = partial(
            scoring.standings,
            scope_points,
            method=method,
            results=scope_results,
            penalties=stage_penalties,
            seed=seed,
        )
        if len(scope_results) == len(data.results) and stage_penalties == penalties(None):
            # The stage holds every result and penalty of the event (one stage, the common
            # case): its ranking is the event's, computed once.
            rows = list(scopes[None])
        else:
            rows = ranked(tiebreaks=order)
        shared = _shared_at_cut(rows, stage.cut)
        if shared and "lot" not in order:
            # A cut takes exactly `cut` players: those the tie-breaks leave equal across its
            # line, and they only, are drawn by the lot, and the published rows show the draw.
            # The drawn rows keep the places of the shared rank, in the lot's order.
            drawn = {r.player: r for r in ranked(tiebreaks=[*order, "lot"])}
            rows = sorted(
                (drawn[r.player] if r.rank == shared else r for r in rows),
                key=lambda r: r.position,
            )
        scopes[stage.pk] = rows
    return scopes


def _shared_at_cut(rows: list[scoring.Standing], cut: int | None) -> str:
    """The rank shared by the players on both sides of a cut of `cut` ("" when none does)."""
    if not cut or len(rows) <= cut or rows[cut - 1].rank != rows[cut].rank:
        return ""
    return rows[cut - 1].rank


def _rows(event: Event, rows: list[scoring.Standing]) -> list[dict[str, Any]]:
    fmt = scoring.format_fraction
    return [
        {
            "player_id": row.player,
            "method": event.scoring_method,
            "position": row.position,
            "rank": row.rank,
            "total": fmt(row.total),
            "top": "" if row.top is None else fmt(row.top),
            "percentage": "" if row.percentage is None else fmt(row.percentage),
            "boards": row.boards,
            "penalty": fmt(row.penalty) if row.penalty else "",
            "decided_by": row.decided_by,
        }
        for row in rows
    ]


def computed_rows(*, event: Event) -> dict[int | None, list[dict[str, Any]]]:
    """What standings_recompute would store now, per scope, as plain dicts of FIELDS."""
    stages = list(event.stages.all())
    return {
        scope: _rows(event, rows)
        for scope, rows in compute(event_results(event=event), stages=stages).items()
    }


# Held while this process reads ahead (standings_warm): a recomputation waits for it instead
# of reading the same boards from nothing at the same time (a 10,000-player event: seconds
# of CPU twice over, on one interpreter lock).
_READING_AHEAD = threading.Lock()


def standings_warm(*, limit: int = 1) -> int:
    """Read the boards of the events in play whose standings were stored last (at most
    `limit`) into this process's kept results (_BOARD_RESULTS and their points), storing
    nothing; the number of events read.

    For a worker that starts in the middle of an event (tournaments.tasks): its first
    recomputation would otherwise read every board of the event (a 600-player event after
    12 rounds: 0.49 s against 0.14 s with the boards kept) while the room's results wait
    behind it; in the benchmark's burst that took the p95 lag from 1.1 s to 2.1 s. One event
    by default, the live one: reading ahead another in play, idle or large (10,000 players:
    seconds), competes with the tasks of the live one. An event that cannot be read is logged.
    """
    events = (
        Event.objects.filter(
            rounds__state=RoundState.IN_PLAY, standings_state__stored_at__isnull=False
        )
        .distinct()
        .order_by("-standings_state__stored_at")[:limit]
    )
    warmed = 0
    with _READING_AHEAD:
        for event in events:
            try:
                computed_rows(event=event)
            except Exception:
                logger.exception("the standings of event %s could not be read ahead", event.pk)
                continue
            warmed += 1
    return warmed


def stored_rows(*, event: Event) -> dict[int | None, list[dict[str, Any]]]:
    """The stored standing rows of `event` per scope, as plain dicts of FIELDS."""
    out: dict[int | None, list[dict[str, Any]]] = {None: []}
    for stage in event.stages.all():
        out[stage.pk] = []
    for row in event.standings.order_by("stage_id", "position").values("stage_id", *FIELDS):
        out.setdefault(row.pop("stage_id"), []).append(row)
    return out


# The first key of the PostgreSQL advisory lock that orders the writers of one event's standings
# (the second is the event id): "DDZS".
_LOCK_CLASS = 0x44445A53
# How long a recomputation waits after it is sent, so that a burst of verified games is
# gathered into one (seconds).
GATHER_SECONDS = 0.2


def _writers_lock(event_id: int) -> None:
    """Order the standings writers of one event, until the transaction ends, without
    blocking on one another's event row: submissions and rulings that reference the event
    never wait on it.

    Lock order: the event row, then the writers' (advisory) lock. A transition (the cut,
    Swiss seating) holds the event row FOR UPDATE before it asks for the standings; a writer
    stores rows that reference the event and moves its standings version. So a writer first
    takes the event row FOR KEY SHARE (shared with every other writer and with submissions,
    exclusive only of a transition's FOR UPDATE): it waits for a transition before it holds
    the writers' lock, never while holding it, and the two never deadlock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {Event._meta.db_table} WHERE id = %s FOR KEY SHARE", [event_id]
            )
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, event_id])


def standings_recompute(*, event_id: int, generation: int | None = None) -> bool:
    """Recompute and store the standings of every scope of an event; True when they changed.

    Idempotent: the rows of a scope are replaced only when they differ from the stored ones.
    Reads everything committed before it starts (the generation it read: `generation`, or the
    event's current StandingsState.requested) and stores under the standings writers' lock
    of the event (an advisory lock, never the event row). With a `generation` (the coalesced
    recomputation) it computes before taking the lock and stores only when no newer generation
    is stored already; without one (a caller that needs the rows now: the cut, Swiss seating)
    it computes under the lock and always stores what differs. So two workers never
    interleave and never store older rows over newer. The stored rows always equal a full
    recompute of the committed games of some moment no earlier than the generation's.
    """
    # Called without a generation (a caller that needs the rows up to date now, such as the
    # cut), it always compares and stores, whatever was requested.
    coalesced = generation is not None
    if generation is None:
        state = StandingsState.objects.filter(pk=event_id).values_list("requested", flat=True)
        generation = state.first() or 0
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return False
    with _READING_AHEAD:
        pass  # a read-ahead of this process is done (standings_warm)
    read_at = timezone.now()
    new = computed_rows(event=event) if coalesced else None
    with transaction.atomic():
        _writers_lock(event_id)
        if new is None:
            # Computed under the lock: rows older than a coalesced store never replace them.
            read_at = timezone.now()
            new = computed_rows(event=event)
        done = StandingsState.objects.filter(pk=event_id).values_list("done", flat=True).first()
        if coalesced and done is not None and done >= generation:
            return False  # a newer recomputation is stored already
        version = _standings_version(event_id)
        old = _stored_rows_of(event, version)
        changed = False
        for scope, rows in new.items():
            if old.get(scope, []) == rows:
                continue
            changed = True
            # django-stubs is wrong here: a nullable foreign key's _id lookup takes None.
            Standing.objects.filter(event=event, stage_id=scope).delete()  # type: ignore[misc]
            _store_rows(event_id, scope, rows)
        stale = [scope for scope in old if scope not in new]
        if stale:
            changed = True
            # django-stubs is wrong here: a nullable foreign key's _id lookup takes None.
            Standing.objects.filter(event=event, stage_id__in=stale).delete()  # type: ignore[misc]
        now = timezone.now()
        if changed:
            Event.objects.filter(pk=event_id).update(standings_updated_at=now)
            version = _standings_version(event_id)  # this transaction's rows now
        # What is stored now, scope by scope: the new rows (a stale scope has none left).
        _keep_stored(event_id, version, new)
        # Last, so that the state row is held for an instant only (a verification bumps it).
        StandingsState.objects.filter(pk=event_id).update(
            done=Greatest(F("done"), generation),
            runs=F("runs") + 1,
            read_at=read_at,
            stored_at=now,
        )
    # A correction to a rated event moves the rating of that event and of every one after it.
    ratings_request(event_id)
    return changed


def _store_rows(event_id: int, scope: int | None, rows: list[dict[str, Any]]) -> None:
    """Insert the standing rows of one scope (plain dicts of FIELDS), in the caller's
    transaction: on PostgreSQL with one COPY (20,000 rows of a 10,000-player event: 1.9 s of
    CPU through bulk_create, most of it building model instances), elsewhere bulk_create."""
    if connection.vendor != "postgresql":
        Standing.objects.bulk_create(
            Standing(event_id=event_id, stage_id=scope, **row) for row in rows
        )
        return
    rows_in = [(event_id, scope, *(row[name] for name in FIELDS)) for row in rows]
    copy_rows(Standing, ("event_id", "stage_id", *FIELDS), rows_in)


def standings_request(*, event_id: int, inline: bool = False, more: bool = False) -> None:
    """Ask for the standings of an event: bump its generation in the caller's transaction
    (so the request commits with the change that moves the standings, or not at all), and
    after commit have one recomputation run, unless one is queued or running already: sent
    as a task, or with `inline` (a worker that has just verified games) run at once in this
    process, so that it never waits behind the queue of verifications; `more`: the caller's
    batch came full, so more games likely wait (see _backlog)."""
    if not StandingsState.objects.filter(pk=event_id).update(requested=F("requested") + 1):
        StandingsState.objects.get_or_create(event_id=event_id)
        StandingsState.objects.filter(pk=event_id).update(requested=F("requested") + 1)
    transaction.on_commit(partial(_send, event_id, inline=inline, more=more))


# While games of an event wait to be verified, a worker that has verified a chunk leaves the
# recomputation to the worker that verifies the event's last pending game (each one reads the
# whole event: under a burst, one per chunk held verification back), unless the stored
# standings are stale. For a worker that keeps up with the room (its batch was not full) they
# are stale FRESH_SECONDS after they were stored: a game reaches the standings about one
# recomputation after its verification. For one draining a queue (its batch came full) they
# stay fresh for as long as their recomputation took, so that it verifies at least half its
# time, and while DEEP_QUEUE games of the event or more wait, DRAIN_FRESH_TIMES as long, so
# that it verifies three quarters of its time at least, whatever the event's size (a
# recompute takes about 1 s at 10,000 players; with "as long as it took" the recomputes of a
# 33,330-game drain took 34 s of its 47; in a burst of 1,200 games, where a few hundred
# wait, the longer wait raised the p95 lag from 1.9 s to 2.3 s). A game
# pending longer than BACKLOG_SECONDS (one the verifier cannot judge stays pending) holds
# nothing back, unless the worker's batch came full (its games may have waited for minutes);
# the sweep sends such a game again.
FRESH_SECONDS = 0.25
DRAIN_FRESH_TIMES = 3
DEEP_QUEUE = 2000
BACKLOG_SECONDS = 60.0


def _backlog(event_id: int, *, more: bool = False) -> bool:
    """Whether a worker may leave the recomputation of `event_id` to a later one: fresh
    standings stored, and games of the event still pending (see FRESH_SECONDS). A worker
    whose batch came full (`more`: it drains a queue) counts pending games of any age and
    finds the standings fresh for as long as they took to compute, DRAIN_FRESH_TIMES as
    long when DEEP_QUEUE games of the event wait or more; one that keeps up with the room,
    for FRESH_SECONDS, and games submitted lately."""
    now = timezone.now()
    row = StandingsState.objects.filter(pk=event_id).values_list("read_at", "stored_at").first()
    read_at, stored_at = row if row is not None else (None, None)
    if stored_at is None:
        return False
    took = (stored_at - read_at).total_seconds() if read_at is not None else 0.0
    pending = Game.objects.filter(status=Status.PENDING, board__event_id=event_id)
    if not more:
        if stored_at < now - timedelta(seconds=FRESH_SECONDS):
            return False
        return pending.filter(submitted_at__gte=now - timedelta(seconds=BACKLOG_SECONDS)).exists()
    if stored_at < now - timedelta(seconds=max(FRESH_SECONDS, took)):
        if stored_at < now - timedelta(seconds=DRAIN_FRESH_TIMES * took):
            return False
        # A drain; no ordering (Game's own joins the board, table, round and event twice,
        # and sorted them: 270 ms a count in a queue of 33,330 games).
        return pending.order_by()[:DEEP_QUEUE].count() >= DEEP_QUEUE
    return pending.exists()


def _send(event_id: int, *, again: bool = False, inline: bool = False, more: bool = False) -> None:
    """Have the recomputation of an event run when none is queued or running (`again`: the
    running one sends itself again, keeping the flag). A worker (`inline`) with a backlog of
    the event to verify leaves it to the worker that verifies the last pending game (see
    FRESH_SECONDS); the generation stays wanted meanwhile. A broker that is down, or an inline
    recomputation that fails, leaves the generation wanted: the sweep
    (games.services.verification_sweep) sends it later."""
    if inline and not again and _backlog(event_id, more=more):
        return
    if not again and not StandingsState.objects.filter(pk=event_id, queued=False).update(
        queued=True
    ):
        return
    if inline:
        standings_refresh(event_id=event_id)
    elif not enqueue(RECOMPUTE_STANDINGS, event_id, countdown=GATHER_SECONDS):
        StandingsState.objects.filter(pk=event_id).update(queued=False)


# How many times a recomputation runs again at once when more was requested while it ran,
# before it leaves the next run to the verifier of the event's last pending game (a burst).
AGAIN_INLINE = 2
# How many runs in all before it sends itself to the back of the queue (letting
# verifications through).
AGAIN_LIMIT = 12


def standings_refresh(*, event_id: int) -> bool:
    """The coalesced recomputation (the task recompute_standings): store the standings of the
    generation wanted now, unless a newer one is stored already (then it exits at once); when
    changes were requested meanwhile, run again, else mark none queued. True when the stored
    rows changed.

    After AGAIN_INLINE runs that each found more requested, a burst is going on: the flag is
    released, and if games of the event still wait to be verified, however long, the worker
    that verifies the last of them recomputes (see FRESH_SECONDS); otherwise this one takes
    the flag back and runs again (a task sent to the back of the queue would wait behind the
    burst's messages), and sends itself as a task only after AGAIN_LIMIT runs."""
    changed = False
    attempt = 0
    while True:
        state = StandingsState.objects.filter(pk=event_id).values_list("requested", "done").first()
        if state is None:
            return changed
        generation, done = state
        if done < generation:
            changed |= standings_recompute(event_id=event_id, generation=generation)
        # Released only when nothing was requested since it read: a request that bumps after
        # this finds the flag down and has a new recomputation run, one before it keeps this.
        if StandingsState.objects.filter(pk=event_id, requested=generation).update(queued=False):
            return changed
        attempt += 1
        if attempt <= AGAIN_INLINE:
            continue
        if attempt > AGAIN_LIMIT:
            _send(event_id, again=True)
            return changed
        # Released first, then the backlog read: a verifier that commits after the release
        # finds the flag down and takes it; one before it is counted in the backlog. Pending
        # games of any age count (`more`): a queue drained for minutes holds games older than
        # BACKLOG_SECONDS, and a run sent to the back of that queue waited behind every
        # message of a game already verified (105 s in a drain of 33,330 games, issue 11).
        StandingsState.objects.filter(pk=event_id).update(queued=False)
        if _backlog(event_id, more=True):
            return changed
        if not StandingsState.objects.filter(pk=event_id, queued=False).update(queued=True):
            return changed  # another recomputation has it


def _enqueue(event_id: int) -> None:
    standings_request(event_id=event_id)


def adjustment_check(*, table: Table, board: Board, seat: str, kind: str) -> None:
    """Refuse an adjusted score that cannot be stored (see adjustment_set).

    Raises:
        RulingRejected: an unknown kind, a seat not at the table, or a board of another round.
    """
    if kind not in AdjustmentKind.values:
        raise RulingRejected(_("Unknown adjusted score %(kind)s.") % {"kind": kind})
    if board.event_id != table.round.event_id or (
        board.round_id is not None and board.round_id != table.round_id
    ):
        raise RulingRejected(
            _("Board %(board)s is not played at table %(table)s.")
            % {"board": board.number, "table": table.number}
        )
    if not table.seats.filter(seat=seat).exists():
        raise RulingRejected(
            _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": seat}
        )


def adjustment_set(
    *, table: Table, board: Board, seat: str, kind: str, reason: str = "", actor: Actor = None
) -> Adjustment:
    """Give one seat of `table` an adjusted score on `board` (or change it).

    `kind` is "avg+", "avg" or "avg-" (average-plus, average, average-minus). The seat must be
    a seat of the table and the board one of the table's round.

    Raises:
        RulingRejected: an unknown kind, a seat not at the table, or a board of another round.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.access.may_rule).
    """
    require_ruling(actor, table.round.event)
    adjustment_check(table=table, board=board, seat=seat, kind=kind)
    with transaction.atomic():
        adjustment, created = Adjustment.objects.update_or_create(
            table=table,
            board=board,
            seat=seat,
            defaults={"kind": kind, "reason": reason.strip(), "created_by": _user(actor)},
        )
        audit_record(
            event=board.event,
            actor=actor,
            action="adjustment.set",
            obj=adjustment,
            changes={"board": board.number, "table": table.number, "seat": seat, "kind": kind},
        )
        _enqueue(board.event_id)
    return adjustment


def adjustment_remove(*, adjustment_id: int, actor: Actor = None) -> bool:
    """Remove an adjusted score; False when it no longer exists.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.access.may_rule).
    """
    with transaction.atomic():
        adjustment = Adjustment.objects.select_related("board").filter(pk=adjustment_id).first()
        if adjustment is None:
            return False
        event = adjustment.board.event
        require_ruling(actor, event)
        audit_record(
            event=event,
            actor=actor,
            action="adjustment.remove",
            obj=adjustment,
            changes={"kind": [adjustment.kind, None]},
        )
        adjustment.delete()
        _enqueue(event.pk)
    return True


def penalty_add(
    *,
    event: Event,
    player: Player,
    points: str | int | Decimal,
    reason: str,
    stage: Stage | None = None,
    actor: Actor = None,
) -> Penalty:
    """Penalise `player` by `points` (in the event's unit: MP or datum points), kept apart
    from his boards.

    Raises:
        RulingRejected: points not a positive number (at most 4 decimals), no reason, or a
            stage of another event.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.access.may_rule).
    """
    require_ruling(actor, event)
    try:
        value = Decimal(str(points))
    except InvalidOperation:
        raise RulingRejected(_("A penalty is a positive number of points.")) from None
    if not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.0001")):
        raise RulingRejected(_("A penalty is a positive number of points."))
    if not reason.strip():
        raise RulingRejected(_("A penalty needs a reason."))
    if stage is not None and stage.event_id != event.pk:
        raise RulingRejected(_("The stage belongs to another event."))
    try:
        with transaction.atomic():
            penalty = Penalty.objects.create(
                event=event,
                stage=stage,
                player=player,
                points=value,
                reason=reason.strip(),
                created_by=_user(actor),
            )
            audit_record(
                event=event,
                actor=actor,
                action="penalty.add",
                obj=penalty,
                changes={"player": player.name, "points": str(value), "reason": reason.strip()},
            )
            _enqueue(event.pk)
    except IntegrityError:
        raise RulingRejected(_("A penalty is a positive number of points.")) from None
    return penalty


def penalty_remove(*, penalty_id: int, actor: Actor = None) -> bool:
    """Withdraw a penalty; False when it no longer exists.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.access.may_rule).
    """
    with transaction.atomic():
        penalty = Penalty.objects.select_related("event", "player").filter(pk=penalty_id).first()
        if penalty is None:
            return False
        require_ruling(actor, penalty.event)
        audit_record(
            event=penalty.event,
            actor=actor,
            action="penalty.remove",
            obj=penalty,
            changes={"player": penalty.player.name, "points": [str(penalty.points), None]},
        )
        event_id = penalty.event_id
        penalty.delete()
        _enqueue(event_id)
    return True


def _user(actor: Actor) -> Any:
    return signed_in(actor)
