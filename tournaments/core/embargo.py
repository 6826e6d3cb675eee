"""The embargo: who may see a board's results, traveller and hands, and when.

Vocabulary (DESIGN.md, "Privacy"): a board is *open* once every table of its round has
*finished* it, that is has a current game of it (whatever its verification status) or an
adjusted score for it at every seat of the table (tournaments.models.Adjustment, a table that
could not play it: the round's close rule, tournaments.events.round_states; some seats only
leave the others to be ruled on or played); a board of no round (an archive of records) is
always open. Until then the board is *embargoed*: its
hands, its traveller, its scores and points are shown only to the event's organizers and chief
referees (tournaments.core.access.is_chief_referee), and each of its *games* also to a referee
assigned to that game's table (tournaments.core.access.can_enter_table: a referee sees only his own
tables, never another table's result of a board still in play). Once the board is open,
everyone sees everything (public).

An online robot duplicate (tournaments.online) is *sealed* while its window is not closed
(`results_sealed`): every table there is one entrant's play of one board, and a board is played
by new tables until the window closes, so no board is open before then, whatever its tables
finished (`with_open`, `board_is_open`). An entrant sees his own games once he played them
(`game_visible_to`), and the public leaderboard its totals only. Its stored standings count
every game played so far, each board compared among the tables that finished it
(`played_games_count`): entrants come at different times, so some board is always being played,
and waiting for all its tables would leave the leaderboard empty until the close.

Every page and endpoint that shows a board's results or hands asks `visible_to(user, board)`
(or, for a list, `visible_board_ids` once, `public_board_ids` for one who is no user); one that
shows a game asks `game_visible_to(user, game)`; the stored standings count open boards only
(finished ones in a sealed event), so that a total moving can never tell the public a result
still under embargo.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from django.db.models import (
    BooleanField,
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from games.models import Board, Game
from tournaments.core.access import Actor, can_enter_table, is_chief_referee, signed_in
from tournaments.models import Adjustment, Event, Player, Round, Seat, Table

if TYPE_CHECKING:  # django-stubs-ext is a development dependency
    from django_stubs_ext import WithAnnotations


# The boards of a sealed event (`results_sealed`), as a filter on Board.
SEALED_Q = Q(event__online=True, event__online_robots=True, event__online_closed_at__isnull=True)


# The boards of an online robot duplicate, sealed or not (`played_games_count`).
ONLINE_Q = Q(event__online=True, event__online_robots=True)


def played_games_count(event: Event) -> bool:
    """Whether the standings of `event` count each board's games as they are played, N being
    the tables that finished it (an online robot duplicate; module docstring), rather than
    once every table of its round finished it."""
    return bool(event.online and event.online_robots)


def results_sealed(event: Event) -> bool:
    """Whether `event` is an online robot duplicate whose window is not closed yet (module
    docstring): no board of it is open, whatever its tables finished."""
    return bool(event.online and event.online_robots and event.online_closed_at is None)


def scorecard_sealed(user: Actor, event: Event, player: Player) -> bool:
    """Whether `user` sees nothing of `player`'s boards in `event`: its online window is open
    (`results_sealed`) and `user` is neither the player's account (Player.user) nor an
    organizer or chief referee of `event`."""
    if not results_sealed(event) or is_chief_referee(user, event):
        return False
    account = signed_in(user)
    return account is None or player.user_id != account.pk


def board_is_open(board: Board) -> bool:
    """Whether every table of `board`'s round has finished it (see the module docstring).

    One query (`with_open`, where *finished* is written); `open_board_ids` for many boards.
    """
    if board.round_id is None:
        return True
    return bool(
        with_open(Board.objects.filter(pk=board.pk)).values_list("is_open", flat=True).get()
    )


def visible_to(user: Actor, board: Board) -> bool:
    """Whether `user` (anonymous included) may see `board`'s results and hands at every table
    (its traveller): organizers and chief referees of its event always, everyone else (a
    referee included) once the board is open."""
    return is_chief_referee(user, board.event) or board_is_open(board)


def game_visible_to(user: Actor, game: Game) -> bool:
    """Whether `user` may see `game` (its record, result, hands and replay): organizers and
    chief referees always, a referee of the game's table always, in a sealed event its entrant
    (the account of a player seated at its table, never a robot's: his own game, once played),
    everyone else once the game's board is open."""
    if can_enter_table(user, game.table) or board_is_open(game.board):
        return True
    user_row = signed_in(user)
    # A robot sits at every entrant's table: an account tied to one (a tie the site refuses,
    # tournaments.people.accounts) would see them all.
    return (
        user_row is not None
        and results_sealed(game.board.event)
        and Seat.objects.filter(
            table_id=game.table_id, player__user=user_row, player__robot=False
        ).exists()
    )


def open_board_ids(event: Event) -> set[int]:
    """The ids of the boards of `event` the stored standings count, in one query whatever its
    size: the open boards; in an online robot duplicate, every board (`played_games_count`;
    while sealed its leaderboard shows totals only: `public_board_ids` says what anyone may
    see)."""
    return set(
        with_open(Board.objects.filter(event=event), seal=False)
        .filter(is_open=True)
        .values_list("id", flat=True)
    )


def public_board_ids(event: Event) -> set[int]:
    """The ids of the boards of `event` whose results the public sees: the open boards (none
    in a sealed event). One query at most."""
    if results_sealed(event):
        return set()
    return open_board_ids(event)


def visible_board_ids(user: Actor, event: Event) -> set[int] | None:
    """The boards of `event` whose results `user` may see at every table: None means all (an
    organizer or chief referee); a referee, like the public, sees the open boards."""
    if is_chief_referee(user, event):
        return None
    return public_board_ids(event)


class OpenAnnotation(TypedDict):
    """What `with_open` adds to each board."""

    is_open: bool


def with_open(
    boards: QuerySet[Board], *, seal: bool = True
) -> QuerySet[WithAnnotations[Board, OpenAnnotation]]:
    """`boards` annotated with `is_open` (see the module docstring), computed in the same SQL
    query, for list pages that must not spend a query per board. Without `seal`, what the
    standings count: every board of an online robot duplicate (`played_games_count`)."""
    finished = (
        Table.objects.filter(round_id=OuterRef("round_id"))
        .filter(
            Exists(
                Game.objects.filter(
                    table=OuterRef("pk"), board=OuterRef(OuterRef("pk")), replaced_at__isnull=True
                )
            )
            | (
                Exists(
                    Adjustment.objects.filter(table=OuterRef("pk"), board=OuterRef(OuterRef("pk")))
                )
                & ~Exists(
                    # A seat of the table with no adjusted score for the board.
                    Seat.objects.filter(table=OuterRef("pk")).exclude(
                        Exists(
                            Adjustment.objects.filter(
                                table=OuterRef("table_id"),
                                board=OuterRef(OuterRef(OuterRef("pk"))),
                                seat=OuterRef("seat"),
                            )
                        )
                    )
                )
            )
        )
        .order_by()
        .values("round_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    tables = (
        Table.objects.filter(round_id=OuterRef("round_id"))
        .order_by()
        .values("round_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return boards.annotate(
        finished_tables=Coalesce(Subquery(finished, output_field=IntegerField()), 0),
        round_tables=Coalesce(Subquery(tables, output_field=IntegerField()), 0),
    ).annotate(
        is_open=Case(
            *([When(SEALED_Q, then=Value(False))] if seal else []),
            # Every board of an online robot duplicate once its window closed (sealed before:
            # above), one that no entrant started too (no result, nothing left to play); for
            # the standings, every board at any time (`played_games_count`).
            When(ONLINE_Q, then=Value(True)),
            When(round__isnull=True, then=Value(True)),
            When(
                Q(round_tables__gt=0) & Q(finished_tables__gte=F("round_tables")),
                then=Value(True),
            ),
            default=Value(False),
            output_field=BooleanField(),
        )
    )


def finished_boards(round_: Round) -> dict[int, set[int]]:
    """Table id → the ids of the boards of `round_` that table *finished* (a current game of
    it or an adjusted score for it at every seat of the table: the rule of `with_open`, table
    by table); a table that finished none is absent. Three queries."""
    # Unordered parts: SQLite (the embedded default) refuses an ORDER BY inside a UNION, and
    # the models' default orderings would add one.
    games = (
        Game.objects.filter(table__round=round_, board__round=round_, replaced_at__isnull=True)
        .order_by()
        .values_list("table_id", "board_id")
    )
    finished: dict[int, set[int]] = {}
    for table_id, board_id in games:
        finished.setdefault(table_id, set()).add(board_id)
    tables = Table.objects.filter(round=round_).values("pk")
    adjusted = adjusted_seats(tables, boards=Board.objects.filter(round=round_).values("pk"))
    for table_id, board_id in adjusted.everywhere():
        finished.setdefault(table_id, set()).add(board_id)
    return finished


class AdjustedSeats(NamedTuple):
    """The seats of some tables and which of them have an adjusted score for each board."""

    seats: dict[int, set[str]]
    """Table id → the seats of the table."""
    adjusted: dict[tuple[int, Any], set[str]]
    """(table id, board) → the seats of the table with an adjusted score for the board."""

    def all_seats(self, table_id: int, board: Any) -> bool:
        """Whether every seat of the table has an adjusted score for the board: the table
        finished the board without a game (the module docstring)."""
        return self.seats.get(table_id, set()) <= self.adjusted.get((table_id, board), set())

    def everywhere(self) -> set[tuple[int, Any]]:
        """The (table id, board) with an adjusted score at every seat (`all_seats`)."""
        return {key for key in self.adjusted if self.all_seats(*key)}


def adjusted_seats(
    table_ids: Iterable[int] | QuerySet[Any, Any],
    board: str = "board_id",
    boards: Iterable[int] | QuerySet[Any, Any] | None = None,
) -> AdjustedSeats:
    """The seats of `table_ids` (ids, or a query of them) and their adjusted scores, each
    board named by `board` ("board_id", or "board__number": its number), the boards limited
    to `boards` (ids, or a query of them) when given. Two queries."""
    seats: dict[int, set[str]] = {}
    for table_id, seat in Seat.objects.filter(table_id__in=table_ids).values_list(
        "table_id", "seat"
    ):
        seats.setdefault(table_id, set()).add(seat)
    given = Adjustment.objects.filter(table_id__in=table_ids)
    if boards is not None:
        given = given.filter(board_id__in=boards)
    adjusted: dict[tuple[int, Any], set[str]] = {}
    for table_id, board_id, seat in given.values_list("table_id", board, "seat"):
        adjusted.setdefault((table_id, board_id), set()).add(seat)
    return AdjustedSeats(seats, adjusted)
