"""Standings per event and per stage: computed from the games, stored, always equal to a full
recompute.

Vocabulary: a *seat result* of an event is one seat of a table on one board: the engine's score
of the table's current, counted game in that seat (verified, or flagged and ruled to stand by a
chief referee: games.counting.counted_q), or the seat's adjusted score
(tournaments.models.Adjustment, which then replaces the game for that seat: an artificial
percentage scored out of the comparison, a weighted score compared at its weights). Only *open*
boards count (tournaments.core.embargo): a board under embargo moves no total. Boards are
compared by the seat held (the seats of the event's rules, whatever the table size), never by
role. A *scope* is the whole event (stage None) or one stage; a stage that carries scores over
also counts the boards of the stages before it, for the players of this stage. Penalties are
kept apart from the boards and taken off for the rank; ties are separated by the event's
tie-breaks. In a stage with a cut, players the tie-breaks leave equal across the cut line are
drawn by the event's lot, so that the cut (tournaments.events.stages.stage_cut, which takes the
top `Stage.cut` of these stored rows, as the Swiss seating ranks by them) never chooses between
players the published standings show as equal.

The rows are stored by tournaments.standings.store (standings_recompute), only where they
differ from this computation; the rulings that move them are tournaments.standings.rulings'.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from django.db.models.fields.json import KeyTextTransform

from games.counting import counted_q
from games.models import Game
from tournaments.core import lineups
from tournaments.core.embargo import open_board_ids
from tournaments.models import (
    Event,
    Stage,
)
from tournaments.scoring import methods
from tournaments.scoring import ranking as scoring_ranking
from tournaments.standings import arrays, changes, snapshots
from tournaments.standings.cache import (
    BOARD_POINTS,
    BOARD_POINTS_KEPT,
    BOARD_RESULTS,
    KEPT_LOCK,
    POINTS_OF_LIST,
    board_versions,
    keep_results,
    kept_results,
)
from tournaments.standings.running import running_sums
from tournaments.standings.seat_results import (
    EventResults,
    Layout,
    adjustments_of,
    boards_of,
    credit_adjustments,
    credit_games,
    rulings_of,
    seats_of_tables,
)


def event_results(
    *,
    event: Event,
    boards: set[int] | None = None,
    with_penalties: bool = True,
    lineup: lineups.Lineup | None = None,
    generation: int | None = None,
) -> EventResults:
    """The seat results of `event` (see the module docstring) on `boards` (default: the open
    boards), and its penalties and unranked players (reserves the organizer did not rank)
    unless not `with_penalties`; each seat result is credited to who played the board
    (tournaments.events.substitutions). Nine flat queries at most, whatever the event's size.
    With `generation` (the standings' recomputation of that generation, all defaults) what
    it reads is kept as the event's snapshot (tournaments.standings.changes)."""
    if boards is None:
        boards = open_board_ids(event)
    seat_rows, seat_of = seats_of_tables(event)
    if lineup is None:  # the caller's, when it has the event's already
        lineup = lineups.lineup_of(event=event)
    stage_of_board, expected, number_of = boards_of(event)
    adjustment_rows, adjusted = adjustments_of(event)
    games = Game.objects.filter(
        counted_q(),  # verified, or flagged and ruled to stand (tournaments.tables.review)
        board__event=event,
        board_id__in=boards,
        replaced_at__isnull=True,
    ).order_by()
    # What a board's seat results depend on besides its games: kept with them (BOARD_RESULTS).
    context = (seat_rows, adjustment_rows, lineup.signature(), tuple(sorted(number_of.items())))
    versions = board_versions(games)
    kept = kept_results(event.pk, context, versions)
    # Each seat's score read out of the JSON by the database (one text column per seat of the
    # event), not a JSON document decoded in Python per game, which would be far slower.
    seats = sorted({seat for at_table in seat_of.values() for seat in at_table})
    by_seat = {f"score_{i}": KeyTextTransform(seat, "score") for i, seat in enumerate(seats)}
    read = games if versions is None else games.filter(board_id__in=set(versions) - set(kept))
    by_board: dict[int, list[methods.SeatResult]] = defaultdict(list)
    layout = Layout(boards, seat_of, number_of, adjusted, lineup)
    credit_games(
        by_board,
        read.annotate(**by_seat).values_list("board_id", "table_id", *by_seat),
        seats,
        layout,
    )
    credit_adjustments(by_board, layout, kept)
    if versions is not None:
        keep_results(event.pk, context, versions, by_board)
    every_board: dict[Hashable, list[methods.SeatResult]] = {}
    for source in (kept, by_board):
        for board_id, board_results in source.items():
            every_board[board_id] = board_results
    results = [r for board_results in every_board.values() for r in board_results]
    penalties, unranked = rulings_of(event) if with_penalties else ([], set())
    # Board by board for board_points only where boards are kept (else nothing to find).
    data = EventResults(
        event,
        results,
        stage_of_board,
        expected,
        penalties,
        unranked,
        every_board if versions is not None else None,
    )
    if generation is not None and versions is not None and with_penalties:
        snapshots.snapshot_keep(
            event.pk,
            snapshots.Snapshot(generation, time.monotonic(), data, layout, seats, context),
        )
        snapshots.heap_settle(len(results))
    return data


def method_of(event: Event) -> methods.Method:
    """The scoring method of `event` as the pure scoring names it."""
    return "datum" if event.scoring_method == "datum" else "matchpoints"


def _tiebreaks(event: Event) -> tuple[list[str], str]:
    order = [t for t in (event.tiebreaks or []) if t in scoring_ranking.TIEBREAKS]
    order = list(dict.fromkeys(order))
    # The lot needs a public seed: the event's own, else the deal commitment published before
    # play, else its slug; every one of them is shown on the event page.
    return order, lot_seed(event)


def lot_seed(event: Event) -> str:
    """The published seed of the lot of `event` (see _tiebreaks)."""
    return event.lot_seed or event.deal_commitment or event.slug


def board_points(
    data: EventResults, *, method: methods.Method, unit: Fraction, memo: bool = True
) -> list[methods.SeatPoints]:
    """The points of every seat result of `data`, in its order: methods.board_points board by
    board, each board's looked up when its results are the same as at a recompute before
    (`memo`), else computed; the same list as one call of methods.board_points on them all
    (a property test holds it).

    Raises:
        ScoringError: as methods.board_points.
    """
    if not memo:
        return methods.board_points(data.results, method=method, expected=data.expected, unit=unit)
    per_board = board_point_lists(data, method=method, unit=unit)
    if per_board is not None:
        return [p for points in per_board.values() for p in points]
    by_board: dict[Any, list[methods.SeatResult]] = defaultdict(list)
    for r in data.results:
        by_board[r.board].append(r)
    found: dict[tuple[Any, Any, str], methods.SeatPoints] = {}
    for board, results in by_board.items():
        # Plain values (hashed in C), not the results themselves (Fractions hash slowly).
        signature = frozenset(
            (
                r.table,
                r.seat,
                r.player,
                r.score.numerator,
                r.score.denominator,
                r.adjusted,
                r.weighted,
            )
            for r in results
        )
        key = (method, unit, data.expected.get(board), board, signature)
        hit = BOARD_POINTS.get(key)
        if hit is None:
            points = methods.board_points(results, method=method, expected=data.expected, unit=unit)
            # A seat result is one seat of one table (scoring refuses a seat met twice), so
            # a board's points are found again by table and seat, in whatever order they come.
            hit = {(p.board, p.table, p.seat): p for p in points}
            BOARD_POINTS[key] = hit
            if len(BOARD_POINTS) > BOARD_POINTS_KEPT:
                BOARD_POINTS.popitem(last=False)
        else:
            BOARD_POINTS.move_to_end(key)
        found.update(hit)
    return [found[(r.board, r.table, r.seat)] for r in data.results]


def board_point_lists(
    data: EventResults, *, method: methods.Method, unit: Fraction
) -> dict[Hashable, list[methods.SeatPoints]] | None:
    """Board → the points of its seat results, where `data` holds them board by board (else
    None): the list kept with the board's results while they are the same object
    (POINTS_OF_LIST), else computed and kept.

    Raises:
        ScoringError: as methods.board_points.
    """
    if data.by_board is None:
        return None
    out: dict[Hashable, list[methods.SeatPoints]] = {}
    for board, results in data.by_board.items():
        place = (data.event.pk, board)
        how = (method, unit, data.expected.get(board))
        kept = POINTS_OF_LIST.get(place)
        if kept is not None and kept[0] is results and kept[1] == how:
            out[board] = kept[2]
            continue
        points = methods.board_points(results, method=method, expected=data.expected, unit=unit)
        with KEPT_LOCK:
            if place in BOARD_RESULTS:  # else dropped meanwhile: kept with its board only
                POINTS_OF_LIST[place] = (results, how, points)
        out[board] = points
    return out


def compute(
    data: EventResults, *, stages: Iterable[Stage] = (), memo: bool = True
) -> dict[int | None, list[scoring_ranking.RankedRow]]:
    """The standings of every scope: None (the whole event) and each of `stages`; `memo`:
    the points of boards unchanged since a recompute before are looked up (board_points).

    Raises:
        ScoringError: input the pure scoring refuses (a seat met twice at one table).
    """
    event = data.event
    method = method_of(event)
    unit = Fraction(event.adjustment_unit or 0)
    per_board = board_point_lists(data, method=method, unit=unit) if memo else None
    unranked = data.unranked
    compared = data
    if unranked:
        # Reserves the organizer did not rank (and an online table's robots): their boards
        # are compared with the others (the points are computed from `compared`, every
        # result), but they have no row (tournaments.events.substitutions).
        data = replace(data, results=[r for r in data.results if r.player not in unranked])
    found: list[list[methods.SeatPoints]] = []

    def every_point() -> list[methods.SeatPoints]:
        # Read only when needed (a tie on best_board, a stage that is not the whole event).
        if not found:
            points = (
                [p for ps in per_board.values() for p in ps]
                if per_board is not None
                else board_points(compared, method=method, unit=unit, memo=memo)
            )
            found.append([p for p in points if p.player not in unranked] if unranked else points)
        return found[0]

    order, seed = _tiebreaks(event)
    penalties = _penalties_in(data, None)
    if per_board is not None:
        # The running sums (tournaments.standings.running): only the boards that changed are
        # summed again.
        sums = running_sums(event.pk, (method, unit, frozenset(unranked)), per_board)
        values_of = scoring_ranking.tie_values(method, every_point, data.results, seed)
        checked = scoring_ranking.check_tiebreaks(order, seed)
        event_rows = scoring_ranking.ranked(
            sums, method=method, penalties=penalties, order=checked, values_of=values_of
        )
    else:
        event_rows = scoring_ranking.standings(
            every_point(),
            method=method,
            results=data.results,
            penalties=penalties,
            tiebreaks=order,
            seed=seed,
        )
    scopes: dict[int | None, list[scoring_ranking.RankedRow]] = {None: event_rows}
    ordered = sorted(stages, key=lambda s: s.number)
    boards_present = (
        set(data.by_board) if data.by_board is not None else {r.board for r in data.results}
    )
    for stage in ordered:
        counted = _counted_stages(stage, ordered)
        players, scope_results, scope_points = _stage_scope(
            data, every_point, stage.pk, counted, boards_present
        )
        stage_penalties = {
            k: v for k, v in _penalties_in(data, set(counted)).items() if k in players
        }

        ranked = _stage_ranking(scope_points, scope_results, stage_penalties, method, seed)
        if len(scope_results) == len(data.results) and stage_penalties == penalties:
            # The stage holds every result and penalty of the event (one stage, the common
            # case): its ranking is the event's, computed once.
            rows = list(scopes[None])
        else:
            rows = ranked(tiebreaks=order)
        scopes[stage.pk] = _drawn_at_cut(rows, stage.cut, ranked, order)
    return scopes


def _stage_ranking(
    points: Callable[[], list[methods.SeatPoints]],
    results: list[methods.SeatResult],
    penalties: dict[Hashable, Fraction],
    method: methods.Method,
    seed: str,
) -> Callable[..., list[scoring_ranking.RankedRow]]:
    """A stage's ranking by given tie-breaks (`tiebreaks=`), its points read when it runs."""

    def ranked(*, tiebreaks: list[str]) -> list[scoring_ranking.RankedRow]:
        return scoring_ranking.standings(
            points(),
            method=method,
            results=results,
            penalties=penalties,
            tiebreaks=tiebreaks,
            seed=seed,
        )

    return ranked


def _penalties_in(
    data: EventResults, stage_ids: set[int | None] | None
) -> dict[Hashable, Fraction]:
    """Player → the sum of his penalties in the stages `stage_ids` (None: in the whole event)."""
    out: dict[Hashable, Fraction] = defaultdict(Fraction)
    for player_id, stage_id, value in data.penalties:
        if stage_ids is None or stage_id in stage_ids:
            out[player_id] += value
    return dict(out)


def _counted_stages(stage: Stage, ordered: list[Stage]) -> set[int | None]:
    """The stages whose boards count in `stage`: itself, and those before it when it carries
    scores over."""
    counted: set[int | None] = {stage.pk}
    if stage.carry_over:
        counted |= {s.pk for s in ordered if s.number < stage.number}
    return counted


def _stage_scope(
    data: EventResults,
    points: Callable[[], list[methods.SeatPoints]],
    stage_id: int,
    counted: set[int | None],
    boards_present: set[Hashable],
) -> tuple[set[Hashable], list[methods.SeatResult], Callable[[], list[methods.SeatPoints]]]:
    """The players of a stage (those with a result on its boards), their results on the
    boards of the `counted` stages, and what gives their points there (read when needed)."""
    if all(data.stage_of_board.get(b) == stage_id for b in boards_present):
        # Every result is on this stage's boards (one stage, the common case): its
        # players, results and points are the event's, with no pass to filter them.
        return {r.player for r in data.results}, data.results, points
    players = {r.player for r in data.results if data.stage_of_board.get(r.board) == stage_id}
    scope_results = [
        r
        for r in data.results
        if r.player in players and data.stage_of_board.get(r.board) in counted
    ]

    def scope_points() -> list[methods.SeatPoints]:
        return [
            p
            for p in points()
            if p.player in players and data.stage_of_board.get(p.board) in counted
        ]

    return players, scope_results, scope_points


def _drawn_at_cut(
    rows: list[scoring_ranking.RankedRow],
    cut: int | None,
    ranked: Callable[..., list[scoring_ranking.RankedRow]],
    order: list[str],
) -> list[scoring_ranking.RankedRow]:
    """`rows`, with the players the tie-breaks `order` leave equal across the line of `cut`
    drawn by the lot (`ranked`: the stage's ranking by given tie-breaks)."""
    shared = _shared_at_cut(rows, cut)
    if shared and "lot" not in order:
        # A cut takes exactly `cut` players: those the tie-breaks leave equal across its
        # line, and they only, are drawn by the lot, and the published rows show the draw.
        # The drawn rows keep the places of the shared rank, in the lot's order.
        drawn = {r.player: r for r in ranked(tiebreaks=[*order, "lot"])}
        rows = sorted(
            (drawn[r.player] if r.rank == shared else r for r in rows),
            key=lambda r: r.position,
        )
    return rows


def _shared_at_cut(rows: list[scoring_ranking.RankedRow], cut: int | None) -> str:
    """The rank shared by the players on both sides of a cut of `cut` ("" when none does)."""
    if not cut or len(rows) <= cut or rows[cut - 1].rank != rows[cut].rank:
        return ""
    return rows[cut - 1].rank


def _rows(event: Event, rows: list[scoring_ranking.RankedRow]) -> list[dict[str, Any]]:
    fmt = methods.format_fraction
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


def computed_rows(
    *, event: Event, generation: int | None = None, incremental: bool = True
) -> dict[int | None, list[dict[str, Any]]]:
    """What standings_recompute would store now, per scope, as plain dicts of FIELDS. With
    `generation` (the one being recomputed), what is read is kept as the event's snapshot
    and, when `incremental`, a snapshot kept is moved to it by the boards changed since
    (tournaments.standings.changes), its rows returned as they are when no result and no
    setting changed."""
    stages = list(event.stages.all())
    settings = changes.settings_of(event, stages)
    moved = None
    if generation is not None and incremental:
        # A large event's arrays moved by the named games first (tournaments.standings.arrays);
        # where they cannot be, the snapshot's objects.
        rows = arrays.arrays_rows(event, generation, settings)
        if rows is not None:
            return rows
        moved = changes.results_since(event, generation)
    if moved is not None and moved.unchanged and moved.settings == settings and moved.rows:
        arrays.arrays_advance(event.pk, generation, moved.rows)  # type: ignore[arg-type]
        return moved.rows
    if moved is not None:
        data = replace(moved.results, event=event)
    else:
        data = event_results(event=event, generation=generation)
    scopes = compute(data, stages=stages)
    event_rows = _rows(event, scopes[None])
    # A stage ranked as the whole event (one stage, the common case) is formatted once.
    rows = {
        scope: event_rows if rows == scopes[None] else _rows(event, rows)
        for scope, rows in scopes.items()
    }
    if generation is not None:
        snapshots.snapshot_rows(event.pk, generation, rows, settings)
        snap = snapshots.snapshot_of(event.pk)
        if snap is not None and snap.generation == generation:
            arrays.arrays_take(event, snap, stages, settings, _tiebreaks(event), rows)
    return rows
