"""Read-side queries of referee entry: the table status board, the flagged queue, versions.

Vocabulary: the *entry state* of a table and board, as the chief referee's board shows it:
``not_started`` (nothing yet), ``entering`` (a live entry draft, no game), ``submitted`` (the
current game waits for the engine), ``verified`` (it counts, games.counting.counts: the engine
verified it, or a chief referee ruled that it stands), ``flagged`` (it does not count: a fault
no ruling let stand, or a ruling that it be entered again), and ``confirmed`` (it counts and a
second person confirmed it), or ``adjusted`` (no game, and every seat of the table has an
adjusted score for the board: finished without play, tournaments.core.embargo). Seats and
tables come from the database, never from a fixed list, so every table size works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import median
from typing import cast

from django.contrib.auth.models import User
from django.db.models import Min, QuerySet
from django.shortcuts import get_object_or_404

from games.counting import FLAGGED_STATUSES, counted_q, counts
from games.models import Board, EntryDraft, Game, Status
from tournaments.core.access import Actor, is_chief_referee, played_tables, signed_in
from tournaments.core.embargo import adjusted_seats, open_board_ids
from tournaments.core.rules import rules_of
from tournaments.models import (
    Adjustment,
    AuditEntry,
    Event,
    Round,
    RoundState,
    Table,
    TableAssignment,
)
from tournaments.scoring.outliers import field_outliers

ENTRY_STATES = (
    "not_started",
    "entering",
    "submitted",
    "verified",
    "flagged",
    "confirmed",
    "adjusted",
)


def entry_state(game: Game | None, *, drafting: bool, adjusted: bool = False) -> str:
    """The entry state of one table and board (see the module docstring); `adjusted`: every
    seat of the table has an adjusted score for the board."""
    if game is None:
        if adjusted:
            return "adjusted"
        return "entering" if drafting else "not_started"
    if game.status == Status.PENDING:
        return "submitted"
    # The standings' rule (games.counting.counts): a game accepted and then found illegal
    # when verified again is flagged, confirmed or not.
    if not counts(game):
        return "flagged"
    return "confirmed" if game.confirmed_at is not None else "verified"


@dataclass(frozen=True)
class Cell:
    board: Board
    state: str
    game: Game | None


@dataclass(frozen=True)
class Row:
    table: Table
    cells: list[Cell]


def tables_of(user: Actor, event: Event) -> QuerySet[Table]:
    """The tables `user` sees in `event`: all for chief referees and organizers, his assigned
    tables but those he plays at for a referee, none for anyone else."""
    tables = Table.objects.filter(round__event=event).select_related("round")
    if is_chief_referee(user, event):
        return tables.order_by("round__number", "number")
    if not getattr(user, "is_authenticated", False):
        return tables.none()
    assigned = TableAssignment.objects.filter(
        user=signed_in(user), table__round__event=event
    ).values("table_id")
    # Never a table he plays at (tournaments.core.access.can_enter_table refuses it).
    own = played_tables(user).values("pk")
    return tables.filter(pk__in=assigned).exclude(pk__in=own).order_by("round__number", "number")


def tables_now(user: Actor) -> list[tuple[Table, int | None]]:
    """The tables assigned to `user` in rounds in play, each with the number of its next board
    without a current game or adjusted scores at every seat (None: every board finished), by
    event and round (five queries)."""
    found = signed_in(user)
    if found is None:
        return []
    tables = list(
        Table.objects.filter(assignments__user=found, round__state=RoundState.IN_PLAY)
        .exclude(pk__in=played_tables(found).values("pk"))
        .select_related("round__event")
        .order_by("round__event__name", "round__number", "number")
    )
    rounds = {t.round_id for t in tables}
    boards: dict[int, list[int]] = {}
    for round_id, number in (
        Board.objects.filter(round_id__in=rounds)
        .order_by("number")
        .values_list("round_id", "number")
    ):
        boards.setdefault(cast(int, round_id), []).append(number)
    entered = set(
        Game.objects.filter(table__in=tables, replaced_at__isnull=True).values_list(
            "table_id", "board__number"
        )
    )
    # A board every seat has an adjusted score for is finished without a game.
    entered |= adjusted_seats([t.pk for t in tables], "board__number").everywhere()
    return [
        (t, _next_open(boards.get(t.round_id, []), {n for i, n in entered if i == t.pk}))
        for t in tables
    ]


def _next_open(numbers: Sequence[int], done: set[int], after: int = 0) -> int | None:
    """The first of `numbers` (in order) after `after`, then from the start, not in `done`."""
    later = [n for n in numbers if n > after] + [n for n in numbers if n < after]
    return next((n for n in later if n not in done), None)


def next_board_to_enter(table: Table, after: int = 0) -> int | None:
    """The number of the next board of `table`'s round without a current game or adjusted
    scores at every seat, after board `after` and then from the first (0: the first such
    board); None when every board of the round is finished (four queries)."""
    numbers = list(
        Board.objects.filter(round_id=table.round_id)
        .order_by("number")
        .values_list("number", flat=True)
    )
    done = set(
        Game.objects.filter(table=table, replaced_at__isnull=True).values_list(
            "board__number", flat=True
        )
    )
    done |= {n for _t, n in adjusted_seats([table.pk], "board__number").everywhere()}
    return _next_open(numbers, done, after)


def adjusted_everywhere(table: Table, board: Board) -> bool:
    """Whether every seat of `table` has an adjusted score for `board` (two queries)."""
    return (table.pk, board.pk) in adjusted_seats([table.pk]).everywhere()


def seat_adjustments(table: Table, board: Board) -> list[Adjustment]:
    """The adjusted scores of `table` for `board`, in the order of the event's seats (S, E, W:
    R-SEAT), not the alphabet's (one query; `table.round.event` selected)."""
    order = {seat: i for i, seat in enumerate(rules_of(table.round.event).seats)}
    given = Adjustment.objects.filter(table=table, board=board)
    return sorted(given, key=lambda a: (order.get(a.seat, len(order)), a.seat))


def first_boards(round_ids: Sequence[int]) -> dict[int, int]:
    """Round id → the number of its first board, for the rounds that have one (one query)."""
    return dict(
        Board.objects.filter(round_id__in=round_ids)
        .values("round_id")
        .annotate(first=Min("number"))
        .values_list("round_id", "first")
    )


def table_and_board(*, slug: str, table_id: int, number: int) -> tuple[Table, Board]:
    """Table `table_id` and board `number` of event `slug` (Http404 when either is absent).
    Whether the board is played at that table (Board.is_played_at) is the caller's answer."""
    table = get_object_or_404(
        Table.objects.select_related("round__event"), pk=table_id, round__event__slug=slug
    )
    board = get_object_or_404(
        Board.objects.select_related("event"), event__slug=slug, number=number
    )
    return table, board


def status_board(*, event: Event, tables: QuerySet[Table]) -> list[Row]:
    """One row per table, one cell per board of its round, in four queries. A board of no round
    (an imported deal, played at any table: Board.is_played_at) has a cell at the tables where it
    was played or is being entered, not at every table."""
    table_list = list(tables)
    boards = list(Board.objects.filter(event=event).order_by("number"))
    ids = [t.pk for t in table_list]
    games = {
        (g.table_id, g.board_id): g
        for g in Game.objects.filter(table_id__in=ids, replaced_at__isnull=True).defer(
            "record", "error"
        )
    }
    drafts = set(EntryDraft.objects.filter(table_id__in=ids).values_list("table_id", "board_id"))
    adjusted = adjusted_seats(ids).everywhere()
    rows = []
    for table in table_list:
        cells = []
        for board in boards:
            key = (table.pk, board.pk)
            if board.round_id is None:
                if key not in games and key not in drafts:
                    continue
            elif board.round_id != table.round_id:
                continue
            game = games.get(key)
            state = entry_state(game, drafting=key in drafts, adjusted=key in adjusted)
            cells.append(Cell(board=board, state=state, game=game))
        rows.append(Row(table=table, cells=cells))
    return rows


def flagged_queue(*, event: Event) -> QuerySet[Game]:
    """Current games of `event` the engine flagged and no chief referee has ruled on yet,
    oldest first: the organizers' queue."""
    return (
        Game.objects.filter(
            board__event=event,
            replaced_at__isnull=True,
            status__in=FLAGGED_STATUSES,
            resolved_at__isnull=True,
        )
        .select_related("board", "table__round", "entered_by")
        .defer("record")
        .order_by("submitted_at", "pk")
    )


@dataclass(frozen=True)
class FieldWarning:
    """A counted result far from the field on the same hand (tournaments.scoring.outliers): `game`,
    the `seat` whose hand it is, its raw `score`, the field's `median` and `distance` from it
    in units of the field's spread (> 3)."""

    game: Game
    seat: str
    score: int
    median: Fraction
    distance: Fraction


def field_warnings(*, event: Event) -> list[FieldWarning]:
    """The results of `event`'s open boards far from their field (tournaments.scoring.outliers),
    board
    by board, for the chief referee's queue. Boards still under embargo are left out: until
    every table has played a board its field is not complete (docs/DESIGN.md, "Field
    outliers"). Two queries."""
    games = (
        Game.objects.filter(
            board_id__in=open_board_ids(event), replaced_at__isnull=True, score__isnull=False
        )
        .filter(counted_q())
        .select_related("board", "table__round")
        .defer("record")
        .order_by("board__number", "table__number")
    )
    fields: dict[tuple[int, str], dict[Game, int]] = {}
    for game in games:
        for seat, score in (game.score or {}).items():
            fields.setdefault((game.board_id, seat), {})[game] = score
    warnings = []
    for (_board, seat), field in fields.items():
        for game, distance in field_outliers(field).items():
            middle = Fraction(median(Fraction(s) for s in field.values()))
            warnings.append(FieldWarning(game, seat, field[game], middle, distance))
    return warnings


def confirm_queue(*, event: Event, actor: Actor, round_: Round | None = None) -> QuerySet[Game]:
    """The current games of `event` that `actor` may confirm now
    (tournaments.tables.review.may_confirm:
    they count and no one confirmed them; not entered by `actor`, the second-person rule), by
    round, table and board; those of tables of `round_` only when given."""
    games = Game.objects.filter(counted_q(), board__event=event, replaced_at__isnull=True)
    if round_ is not None:
        games = games.filter(table__round=round_)
    return (
        games.filter(confirmed_at__isnull=True)
        .exclude(entered_by=cast(User, actor))  # a referee's queue: a signed-in user
        .select_related("board", "table__round", "entered_by")
        .defer("record")
        .order_by("table__round__number", "table__number", "board__number")
    )


def current_game(*, table: Table, board: Board) -> Game | None:
    """The current version of one table's game of one board, None before any is entered."""
    return Game.objects.filter(table=table, board=board, replaced_at__isnull=True).first()


def game_versions(*, table: Table, board: Board) -> QuerySet[Game]:
    """Every version of one table's game of one board, newest first."""
    return (
        Game.objects.filter(table=table, board=board)
        .select_related("entered_by", "confirmed_by", "resolved_by", "board__event", "table")
        .prefetch_related("table__seats__player")
        .order_by("-version")
    )


def audit_log(*, event: Event, games: Sequence[Game] | None = None) -> QuerySet[AuditEntry]:
    """The audit entries of `event`, newest first; with `games`, those of these games only."""
    entries = AuditEntry.objects.filter(event=event)
    if games is not None:
        entries = entries.filter(object_type="game", object_id__in=[str(g.pk) for g in games])
    return entries.select_related("actor").order_by("-at", "-id")
