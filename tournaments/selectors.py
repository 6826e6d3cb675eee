"""Read-side queries of tournaments: they fetch, and hand computation to tournaments.scoring.

A *seat result* of an event is one seat of one current, counted game (verified, or ruled to
stand by a chief referee: games.versions.counted_q) whose table names a player in that seat;
unverified, flagged and unruled, or replaced games take no part in any comparison.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Board, Game
from games.versions import counted_q, counts
from tournaments import scoring
from tournaments.models import Event, Player, Seat, Standing, Table

SEATS = ("S", "E", "W")


def _count(queryset: QuerySet[Any]) -> Subquery:
    # A subquery per count, since joining boards and standings at once would multiply rows.
    return Subquery(
        queryset.filter(event=OuterRef("pk"))
        .order_by()
        .values("event")
        .annotate(n=Count("pk"))
        .values("n"),
        output_field=IntegerField(),
    )


def event_list() -> QuerySet[Event]:
    """Every event, newest first, with its numbers of boards and players ranked."""
    return Event.objects.annotate(
        board_count=Coalesce(_count(Board.objects.all()), 0),
        player_count=Coalesce(_count(Standing.objects.filter(stage__isnull=True)), 0),
    ).order_by("-created_at", "name")


def event_players(*, event: Event) -> QuerySet[Player]:
    """The players who hold a seat at some table of `event` (its scorecards exist for them
    only; an archive of imported games seats nobody)."""
    return Player.objects.filter(
        pk__in=Seat.objects.filter(table__round__event=event).values("player_id")
    )


def event_standings(*, event: Event) -> QuerySet[Standing]:
    """The stored standing rows of the whole of `event` (not of a stage), best first."""
    return event.standings.filter(stage__isnull=True).select_related("player").order_by("position")


def _current_games(event: Event) -> QuerySet[Game]:
    return (
        Game.objects.filter(board__event=event, replaced_at__isnull=True)
        .select_related("board", "table__round")
        .prefetch_related(Prefetch("table__seats", queryset=Seat.objects.select_related("player")))
    )


def _expected_tables(event: Event) -> dict[int, int]:
    """Board id → tables expected to play it: the tables of its round, else the games met."""
    expected: dict[int, int] = {}
    tables_per_round = dict(
        Table.objects.filter(round__event=event)
        .values_list("round_id")
        .annotate(n=Count("id"))
        .values_list("round_id", "n")
    )
    for board_id, round_id, games in (
        Board.objects.filter(event=event)
        .annotate(n=Count("games"))
        .values_list("id", "round_id", "n")
    ):
        expected[board_id] = tables_per_round.get(round_id, 0) if round_id else games
    return expected


def event_seat_results(*, event: Event) -> list[scoring.SeatResult]:
    """The seat results of `event` (see the module docstring); board and table are ids.

    Two flat queries (seats, then verified games without their records), since the standings
    are recomputed after every verification.
    """
    players: dict[int, dict[str, int]] = {}
    for table_id, seat, player_id in Seat.objects.filter(table__round__event=event).values_list(
        "table_id", "seat", "player_id"
    ):
        players.setdefault(table_id, {})[seat] = player_id
    if not players:
        return []
    results = []
    games = Game.objects.filter(
        counted_q(), board__event=event, replaced_at__isnull=True
    ).values_list("board_id", "table_id", "score")
    for board_id, table_id, score in games:
        for seat, player_id in players.get(table_id, {}).items():
            value = (score or {}).get(seat)
            if value is None:
                continue
            results.append(
                scoring.SeatResult(
                    board=board_id,
                    table=table_id,
                    seat=seat,
                    player=player_id,
                    score=Fraction(value),
                )
            )
    return results


def event_board_points(*, event: Event) -> list[scoring.SeatPoints]:
    """The points (MP or datum difference, by the event's method) of every seat result."""
    method: scoring.Method = "datum" if event.scoring_method == "datum" else "matchpoints"
    return scoring.board_points(
        event_seat_results(event=event), method=method, expected=_expected_tables(event)
    )


def event_computed_standings(*, event: Event) -> list[scoring.Standing]:
    """Standings of the whole event computed now (what standings_recompute stores)."""
    from tournaments.standings import compute, event_results

    return compute(event_results(event=event))[None]


@dataclass
class TravellerRow:
    """One table's game of a board: players and score per seat, points per seat."""

    table: Table
    game: Game | None
    players: dict[str, Player | None]
    score: dict[str, Any]
    points: dict[str, Fraction | None]
    top: Fraction | None

    @property
    def seat_cells(self) -> list[tuple[str, Player | None, Any, Fraction | None]]:
        return [(s, self.players.get(s), self.score.get(s), self.points.get(s)) for s in SEATS]


def board_is_public(*, board: Board) -> bool:
    """Whether `board`'s results and hands may be shown to the public (the embargo).

    A board of a round is public once every table of the round has a current game of it; a
    board of no round (an archive) is always public.
    """
    from tournaments.embargo import board_is_open

    return board_is_open(board)


def board_traveller(*, board: Board) -> list[TravellerRow]:
    """Every table's result of `board`, side by side, with each seat's points."""
    points = {
        (p.table, p.seat): p for p in event_board_points(event=board.event) if p.board == board.pk
    }
    games = {g.table_id: g for g in _current_games(board.event).filter(board=board)}
    if board.round_id is not None:
        tables: Sequence[Table] = list(
            Table.objects.filter(round_id=board.round_id).prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("player"))
            )
        )
    else:
        tables = [g.table for g in games.values()]
    rows = []
    for table in tables:
        game = games.get(table.pk)
        seat_points = {s: points.get((table.pk, s)) for s in SEATS}
        tops = [p.top for p in seat_points.values() if p is not None and p.top is not None]
        rows.append(
            TravellerRow(
                table=table,
                game=game,
                players={s.seat: s.player for s in table.seats.all()},
                score=(game.score or {}) if counts(game) else {},
                points={s: (p.points if p else None) for s, p in seat_points.items()},
                top=tops[0] if tops else None,
            )
        )
    rows.sort(key=lambda r: r.table.number)
    return rows


@dataclass
class ScorecardRow:
    """One board a player played: where, in which seat, the game, its score and points."""

    board: Board
    table: Table
    seat: str
    game: Game | None
    score: Any
    points: Fraction | None
    top: Fraction | None


def player_scorecard(*, event: Event, player: Player) -> list[ScorecardRow]:
    """The boards `player` met in `event`, in round and board order."""
    points = {
        (p.board, p.table, p.seat): p
        for p in event_board_points(event=event)
        if p.player == player.pk
    }
    seats = Seat.objects.filter(table__round__event=event, player=player).select_related(
        "table__round"
    )
    rows = []
    for seat in seats:
        games = {
            g.board_id: g for g in Game.objects.filter(table=seat.table, replaced_at__isnull=True)
        }
        for board in Board.objects.filter(round=seat.table.round).order_by("number"):
            game = games.get(board.pk)
            p = points.get((board.pk, seat.table_id, seat.seat))
            verified = counts(game)
            rows.append(
                ScorecardRow(
                    board=board,
                    table=seat.table,
                    seat=seat.seat,
                    game=game,
                    score=(game.score or {}).get(seat.seat) if verified and game else None,
                    points=p.points if p else None,
                    top=p.top if p else None,
                )
            )
    rows.sort(key=lambda r: (r.table.round.number, r.board.number))
    return rows
