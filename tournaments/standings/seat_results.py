"""The seat results an event's standings are computed from (tournaments.standings.results'
vocabulary): who sat where, the boards and their stages, the adjusted scores and the rulings,
read in flat queries, and the crediting of each game's and each adjusted seat's score to the
player who held the seat (tournaments.events.substitutions' lineup)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Count

from games.models import Board
from tournaments.core import lineups
from tournaments.core.embargo import played_games_count
from tournaments.models import Adjustment, Event, Penalty, Seat, Table
from tournaments.scoring import methods


@dataclass
class EventResults:
    """Everything the standings of one event are computed from, fetched in a few flat queries.

    `results` are the seat results of open boards (board and table are ids, player a player
    id); `stage_of_board` maps a board id to its round's stage id (None: no stage);
    `expected` maps a board id to the tables that should have played it (Neuberg's N).
    """

    event: Event
    results: list[methods.SeatResult]
    stage_of_board: dict[Hashable, int | None]
    expected: dict[Hashable, int]
    penalties: list[tuple[int, int | None, Fraction]]
    unranked: set[int] = field(default_factory=set)
    # `results` board by board, in the same order, when event_results read them: a board's
    # list is the very object of the recomputation before while the board is unchanged
    # (BOARD_RESULTS), and board_points finds its points by it.
    by_board: dict[Hashable, list[methods.SeatResult]] | None = None


# An adjustment as the standings read it: its kind, its percentage (an artificial one) and
# its possible results (a weighted score: (score, weight) pairs, exact).
Ruling = tuple[str, Decimal | None, tuple[tuple[Fraction, Fraction], ...]]


@dataclass(frozen=True)
class Layout:
    """What event_results credits the seat results of a board by: who sat where, the boards'
    numbers (a substitution covers a range of them), and which seats an adjustment replaces."""

    boards: set[int]  # the boards to credit; any other is passed over
    seat_of: dict[int, dict[str, int]]  # table id → seat → id of the player seated there
    number_of: dict[int, int]  # board id → its number
    adjusted: dict[tuple[int, int], dict[str, Ruling]]  # (board id, table id) → seat → ruling
    lineup: lineups.Lineup


def seats_of_tables(
    event: Event,
) -> tuple[tuple[tuple[int, str, int], ...], dict[int, dict[str, int]]]:
    """The seats of `event` as rows (table id, seat, player id) and as table → seat → player."""
    seat_rows = tuple(
        Seat.objects.filter(table__round__event=event)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat", "player_id")
    )
    seat_of: dict[int, dict[str, int]] = defaultdict(dict)
    for table_id, seat, player_id in seat_rows:
        seat_of[table_id][seat] = player_id
    return seat_rows, seat_of


def boards_of(
    event: Event,
) -> tuple[dict[Hashable, int | None], dict[Hashable, int], dict[int, int]]:
    """Per board of `event`: its stage, the tables expected to play it (those of its round,
    when it has one; none in an online robot duplicate, where N is the tables that finished
    it: tournaments.core.embargo.played_games_count) and its number."""
    by_round = not played_games_count(event)
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
        if round_id is not None and by_round:
            expected[board_id] = tables_per_round.get(round_id, 0)
    return stage_of_board, expected, number_of


def adjustments_of(
    event: Event,
) -> tuple[tuple[tuple[Any, ...], ...], dict[tuple[int, int], dict[str, Ruling]]]:
    """The adjustments of `event` as rows (board id, table id, seat, kind, percentage,
    possible results) and as (board id, table id) → seat → (kind, percentage, possible
    results)."""
    adjustment_rows = tuple(
        (board_id, table_id, seat, kind, percentage, options_of(weighted))
        for board_id, table_id, seat, kind, percentage, weighted in Adjustment.objects.filter(
            board__event=event
        )
        .order_by("board_id", "table_id", "seat")
        .values_list("board_id", "table_id", "seat", "kind", "percentage", "weighted")
    )
    adjusted: dict[tuple[int, int], dict[str, Ruling]] = defaultdict(dict)
    for board_id, table_id, seat, kind, percentage, options in adjustment_rows:
        adjusted[(board_id, table_id)][seat] = (kind, percentage, options)
    return adjustment_rows, adjusted


def options_of(weighted: Any) -> tuple[tuple[Fraction, Fraction], ...]:
    """A weighted score's stored possible results (`[{"score": 6, "weight": "1/2"}, …]`) as
    exact (score, weight) pairs; () for any other adjustment."""
    return tuple((Fraction(str(o["score"])), Fraction(str(o["weight"]))) for o in weighted or ())


def credit_games(
    by_board: dict[int, list[methods.SeatResult]],
    rows: Iterable[tuple[Any, ...]],
    seats: list[str],
    layout: Layout,
    reuse: Mapping[Any, methods.SeatResult] | None = None,
) -> None:
    """Append to `by_board` the seat result of every seat of each game of `rows` (board id,
    table id, then the score of each of `seats`), but for the seats an adjustment replaces.
    A seat result equal to the one `reuse` holds for its (board, table, seat) is that very
    object (a recomputation finds the unchanged ones by identity)."""
    # A score takes few distinct values: each is made a Fraction once, not once per seat.
    fractions: dict[Any, Fraction] = {}
    lineup = layout.lineup
    reuse = reuse or {}
    for board_id, table_id, *values in rows:
        if board_id not in layout.boards:
            continue
        rulings = layout.adjusted.get((board_id, table_id), {})
        score = dict(zip(seats, values, strict=True))
        for seat, player_id in layout.seat_of.get(table_id, {}).items():
            if seat in rulings:
                continue
            value = score.get(seat)
            if value is not None:
                # Each board is credited to who played it (tournaments.events.substitutions); most
                # events have no substitution, and this loop runs once per seat of each game.
                if lineup:
                    player_id = lineup.player_id(
                        table_id, seat, layout.number_of[board_id], player_id
                    )
                exact = fractions.get(value)
                if exact is None:
                    exact = fractions[value] = Fraction(value)
                before = reuse.get((board_id, table_id, seat))
                if (
                    before is None
                    or before.player != player_id
                    or before.score != exact
                    or before.adjusted is not None
                    or before.weighted
                ):
                    before = methods.SeatResult(board_id, table_id, seat, player_id, exact)
                by_board[board_id].append(before)


def credit_adjustments(
    by_board: dict[int, list[methods.SeatResult]],
    layout: Layout,
    kept: dict[int, list[methods.SeatResult]],
) -> None:
    """Append to `by_board` the seat result of every adjusted seat, on the boards not `kept`
    (their results already hold their adjustments)."""
    for (board_id, table_id), rulings in layout.adjusted.items():
        if board_id not in layout.boards or board_id in kept:
            continue
        players = layout.seat_of.get(table_id, {})
        for seat, (kind, percentage, options) in rulings.items():
            if seat in players:
                player_id = layout.lineup.player_id(
                    table_id, seat, layout.number_of[board_id], players[seat]
                )
                if options:
                    result = methods.weighted_result(board_id, table_id, seat, player_id, options)
                else:
                    # An artificial percentage in the pure scoring's notation ("61.8%").
                    adjusted = f"{format(percentage, 'f')}%" if percentage is not None else kind
                    result = methods.SeatResult(
                        board_id, table_id, seat, player_id, Fraction(0), adjusted=adjusted
                    )
                by_board[board_id].append(result)


def rulings_of(event: Event) -> tuple[list[tuple[int, int | None, Fraction]], set[int]]:
    """The penalties of `event` (player id, stage id, points) and its unranked players: like
    the penalties, who is left out of the ranking matters to the ranking only."""
    penalties: list[tuple[int, int | None, Fraction]] = [
        (player_id, stage_id, Fraction(points))
        for player_id, stage_id, points in Penalty.objects.filter(event=event).values_list(
            "player_id", "stage_id", "points"
        )
    ]
    return penalties, lineups.unranked_ids(event)
