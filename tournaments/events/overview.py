"""The organizer's overview of an event (selectors, reads only): its rounds, each table's
players in seat order and entry progress, and what keeps a round in play from closing.

Vocabulary: *seat order* is the order of the event's rules (R-SEAT: S E W for three players);
a table's *progress* is its current games entered and verified out of the round's boards;
*unsettled* (tournaments.events.round_states.rounds_unsettled) lists the (table, board, reason) not
settled yet. A *stop* is where a player sits in one round (round, table, seat): her *guide
card* lists her stops in every round seated so far, and a table card says where each of its
seats goes next round. On the dashboard the *current round* (the round the room plays,
tournaments.events.clock.current_round) comes first; a *past round* is any other round closed
or published, folded there; an online robot duplicate's rounds are listed by number. The
*change log* is tournaments.events.audit_lines.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field

from django.db.models import Count, Prefetch, Q

from games.models import Status
from tournaments.core.rules import rules_of
from tournaments.events.round_states import TRANSITIONS, rounds_unsettled, unsettled_text
from tournaments.models import (
    Event,
    Player,
    Round,
    RoundState,
    Seat,
    Table,
)


def in_seat_order(seats: Iterable[Seat], names: Sequence[str]) -> list[Seat]:
    """A table's seats in the turn order `names` of the event's rules (R-SEAT); a seat the
    rules do not name goes last."""
    order = {s: i for i, s in enumerate(names)}
    return sorted(seats, key=lambda s: order.get(s.seat, 9))


def round_tables(round_: Round) -> list[tuple[Table, list[tuple[str, Player]]]]:
    """The tables of a round by number, each with (seat, player) in seat order (two queries)."""
    names = rules_of(round_.event).seats
    tables = round_.tables.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    ).order_by("number")
    return [(t, [(s.seat, s.player) for s in in_seat_order(t.seats.all(), names)]) for t in tables]


@dataclass
class TableProgress:
    table: Table
    players: list[tuple[str, Player]]
    entered: int
    verified: int
    boards: int


@dataclass(frozen=True)
class OnlinePlays:
    """The plays of an online event's round (its one board): tables ``started``, those
    ``finished`` (a current game stored), ``verified``, and ``robot`` (the robot played at
    least one of an entrant's moves: a timeout, the window's close or, at online tables, a
    seat taken over: Seat.robot_from)."""

    started: int
    finished: int
    verified: int
    robot: int


@dataclass
class RoundOverview:
    """A round on the dashboard; ``unsettled`` lists the (table, board, reason) not settled
    yet (rounds_unsettled), filled for rounds in play, which cannot be closed until it is
    empty. An online event's round has its ``plays`` counted instead of its tables listed
    (thousands of entrants each start a table of their own)."""

    round: Round
    boards: int
    tables: list[TableProgress]
    unsettled: list[tuple[int, int, str]] = dc_field(default_factory=list)
    plays: OnlinePlays | None = None

    @property
    def actions(self) -> list[str]:
        return [a for a, (before, _after) in TRANSITIONS.items() if before == self.round.state]

    @property
    def unsettled_text(self) -> str:
        return unsettled_text(self.unsettled)


def dashboard_order(
    rounds: Sequence[RoundOverview], current: Round | None, *, online: bool = False
) -> list[tuple[RoundOverview, bool]]:
    """The dashboard's order of `rounds`, each with whether it is folded (a past round, see
    the module docstring): the current round first, then the other rounds that are not past
    in number order, then the past rounds, the latest first; an online robot duplicate's
    (`online`: its rounds, one a board, are all in play at once, none the room's) by number."""
    past_states = (RoundState.CLOSED, RoundState.PUBLISHED)
    if online:
        return [
            (r, r.round.state in past_states) for r in sorted(rounds, key=lambda r: r.round.number)
        ]
    # The room's round leads unless it is a draft: with nothing seated or in play,
    # current_round names the last round, a draft among drafts, which goes in number order.
    leads = current is not None and current.state != RoundState.DRAFT
    now = current.pk if leads and current is not None else None
    first = [r for r in rounds if r.round.pk == now]
    ahead = [r for r in rounds if r.round.pk != now and r.round.state not in past_states]
    past = [r for r in rounds if r.round.pk != now and r.round.state in past_states]
    latest_first = sorted(past, key=lambda r: r.round.number, reverse=True)
    return [(r, False) for r in first + ahead] + [(r, True) for r in latest_first]


def event_overview(*, event: Event, online: bool = False) -> list[RoundOverview]:
    """Each round of ``event`` with its boards and each table's entry progress (current games
    entered and verified out of the round's boards); a fixed number of queries. With
    `online` (an online event played on the site) each round's plays are counted instead
    (OnlinePlays, one query), and nothing is listed as unsettled: every round stays in play
    until the window's close finishes it."""
    rounds = list(
        event.rounds.select_related("stage").annotate(n_boards=Count("boards")).order_by("number")
    )
    if online:
        plays = online_plays(event)
        return [
            RoundOverview(r, r.n_boards, [], plays=plays.get(r.pk, OnlinePlays(0, 0, 0, 0)))
            for r in rounds
        ]
    tables = (
        Table.objects.filter(round__event=event)
        .prefetch_related("seats__player")
        .annotate(
            entered=Count("games", filter=Q(games__replaced_at__isnull=True)),
            verified=Count(
                "games", filter=Q(games__replaced_at__isnull=True, games__status=Status.VERIFIED)
            ),
        )
        .order_by("number")
    )
    seat_names = rules_of(event).seats
    by_round: dict[int, list[TableProgress]] = defaultdict(list)
    n_boards = {r.pk: r.n_boards for r in rounds}
    for t in tables:
        seats = [(s.seat, s.player) for s in in_seat_order(t.seats.all(), seat_names)]
        by_round[t.round_id].append(
            TableProgress(t, seats, t.entered, t.verified, n_boards.get(t.round_id, 0))
        )
    unsettled = rounds_unsettled(r.pk for r in rounds if r.state == RoundState.IN_PLAY)
    return [
        RoundOverview(r, r.n_boards, by_round.get(r.pk, []), unsettled.get(r.pk, []))
        for r in rounds
    ]


def online_plays(event: Event) -> dict[int, OnlinePlays]:
    """Round id → the plays of that round of the online `event` (OnlinePlays). One query."""
    current = Q(games__replaced_at__isnull=True)
    rows = (
        Table.objects.filter(round__event=event)
        .order_by()
        .values("round_id")
        .annotate(
            started=Count("pk", distinct=True),
            finished=Count("games", filter=current, distinct=True),
            verified=Count(
                "games", filter=current & Q(games__status=Status.VERIFIED), distinct=True
            ),
            # A timeout against robots counts its moves on the table; at online tables the
            # robot takes a seat over for the rest of the board, marked on the seat.
            robot=Count(
                "pk",
                filter=Q(robot_moves__gt=0) | Q(seats__robot_from__isnull=False),
                distinct=True,
            ),
        )
        .values_list("round_id", "started", "finished", "verified", "robot")
    )
    return {round_id: OnlinePlays(*counts) for round_id, *counts in rows}


@dataclass(frozen=True)
class Stop:
    """Where a player sits in one round: its number, the table's number and the seat."""

    round: int
    table: int
    seat: str


@dataclass
class GuideCard:
    """A player's guide card: her stops, round by round."""

    player: Player
    stops: list[Stop]


def guide_cards(event: Event) -> list[GuideCard]:
    """Every seated player's guide card (her stops in every round of `event` seated so far,
    by round), players by name; one query."""
    by_player: dict[int, GuideCard] = {}
    for seat in (
        Seat.objects.filter(table__round__event=event)
        .select_related("player", "table__round")
        .order_by("table__round__number", "table__number")
    ):
        card = by_player.setdefault(seat.player_id, GuideCard(seat.player, []))
        card.stops.append(Stop(seat.table.round.number, seat.table.number, seat.seat))
    return sorted(by_player.values(), key=lambda c: (c.player.name.casefold(), c.player.pk))


def next_stops(round_: Round) -> dict[int, Stop]:
    """Player id → her stop in the round after `round_`, for the players seated there ({}
    while that round is not seated, or for the last round); one query."""
    return {
        player_id: Stop(round_.number + 1, table, seat)
        for player_id, table, seat in Seat.objects.filter(
            table__round__event_id=round_.event_id, table__round__number=round_.number + 1
        ).values_list("player_id", "table__number", "seat")
    }
