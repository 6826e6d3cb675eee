"""The organizer's overview of an event (selectors, reads only): its rounds, each table's
players in seat order and entry progress, what keeps a round in play from closing, and its
change log.

Vocabulary: *seat order* is the order of the event's rules (R-SEAT: S E W for three players);
a table's *progress* is its current games entered and verified out of the round's boards;
*unsettled* (tournaments.events.round_states.rounds_unsettled) lists the (table, board, reason) not
settled yet. A *stop* is where a player sits in one round (round, table, seat): her *guide
card* lists her stops in every round seated so far, and a table card says where each of its
seats goes next round. On the dashboard the *current round* (the round the room plays,
tournaments.events.clock.current_round) comes first; a *past round* is any other round closed
or published, folded there; an online robot duplicate's rounds are listed by number. The
*change log* is the event's audit entries, newest first, each with its object's *label*
("Round 5", "Board 12" rather than a database id) or, for an action whose one change says it
better, its old → new value.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field

from django.apps import apps
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from games.models import Board, Game, Status
from tournaments.core.rules import rules_of
from tournaments.events.round_states import TRANSITIONS, rounds_unsettled, unsettled_text
from tournaments.models import (
    AuditEntry,
    Event,
    Player,
    Round,
    RoundState,
    Seat,
    Stage,
    Substitution,
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
    least one of the entrant's moves: a timeout, or the window's close)."""

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
    now = current.pk if current is not None else None
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
            robot=Count("pk", filter=Q(robot_moves__gt=0), distinct=True),
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


# --- The change log ----------------------------------------------------------------------------

# The actions whose label is their one change, old → new, by the field of their changes that
# holds [old, new]: a player's public name names him better than "player" would.
OLD_TO_NEW = {"player.name": "name"}


def change_log(*, event: Event, steps: bool = False) -> QuerySet[AuditEntry]:
    """The audit entries of `event`, newest first, their actors selected; without `steps` but
    the steps typed at the tables, one entry each (``entry.step``: the log lists the changes,
    not the typing)."""
    entries = AuditEntry.objects.filter(event=event)
    if not steps:
        entries = entries.exclude(action="entry.step")
    return entries.select_related("actor").order_by("-at", "-id")


def change_log_labelled(entries: Iterable[AuditEntry]) -> list[tuple[AuditEntry, str]]:
    """`entries` (a page of the change log), each with its label (module docstring) in the
    active language; one query per kind of object."""
    entries = list(entries)
    ids: dict[str, set[int]] = {}
    for e in entries:
        if e.object_id.isdigit():
            ids.setdefault(e.object_type, set()).add(int(e.object_id))
    labels = _object_labels(ids)
    return [
        (
            e,
            _old_to_new(e)
            or labels.get(
                (e.object_type, int(e.object_id)) if e.object_id.isdigit() else ("", 0),
                _gone_label(e),
            ),
        )
        for e in entries
    ]


def _object_labels(ids: dict[str, set[int]]) -> dict[tuple[str, int], str]:
    """(object type, id) → its label, for the objects of `ids` (object type → ids) that are
    still there."""
    labels: dict[tuple[str, int], str] = {}
    for pk, number in Round.objects.filter(pk__in=ids.get("round", ())).values_list("pk", "number"):
        labels["round", pk] = _("Round %(n)s") % {"n": number}
    for pk, r, t in Table.objects.filter(pk__in=ids.get("table", ())).values_list(
        "pk", "round__number", "number"
    ):
        labels["table", pk] = _("Round %(r)s, table %(t)s") % {"r": r, "t": t}
    for pk, r, t in Substitution.objects.filter(pk__in=ids.get("substitution", ())).values_list(
        "pk", "round__number", "table__number"
    ):
        labels["substitution", pk] = _("Round %(r)s, table %(t)s") % {"r": r, "t": t}
    for pk, number in Board.objects.filter(pk__in=ids.get("board", ())).values_list("pk", "number"):
        labels["board", pk] = _("Board %(n)s") % {"n": number}
    for pk, number in Stage.objects.filter(pk__in=ids.get("stage", ())).values_list("pk", "number"):
        labels["stage", pk] = _("Stage %(n)s") % {"n": number}
    for pk, b, r, t in Game.objects.filter(pk__in=ids.get("game", ())).values_list(
        "pk", "board__number", "table__round__number", "table__number"
    ):
        labels["game", pk] = _("Board %(b)s at round %(r)s, table %(t)s") % {"b": b, "r": r, "t": t}
    for pk, name in Event.objects.filter(pk__in=ids.get("event", ())).values_list("pk", "name"):
        labels["event", pk] = name
    return labels


def _old_to_new(entry: AuditEntry) -> str:
    """The old → new label of `entry` ("Ann → Annie") for an action of OLD_TO_NEW whose
    changes hold [old, new]; else ""."""
    changes = entry.changes if isinstance(entry.changes, dict) else {}
    pair = changes.get(OLD_TO_NEW.get(entry.action, ""))
    if isinstance(pair, list) and len(pair) == 2:
        return _("%(old)s → %(new)s") % {"old": pair[0], "new": pair[1]}
    return ""


def _gone_label(entry: AuditEntry) -> str:
    """The label of an entry's object that has no label of its own or is gone (a substitution
    removed, a penalty taken back): its round and table, or its player, as the entry's changes
    name them; else the kind of object (its model's name in the reader's language)."""
    changes = entry.changes if isinstance(entry.changes, dict) else {}
    round_, table = changes.get("round"), changes.get("table")
    if isinstance(round_, int) and isinstance(table, int):
        return _("Round %(r)s, table %(t)s") % {"r": round_, "t": table}
    if isinstance(changes.get("player"), str):
        return str(changes["player"])
    for model in apps.get_models():
        if model._meta.model_name == entry.object_type:
            return str(model._meta.verbose_name)
    return ""
