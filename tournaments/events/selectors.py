"""Read-side queries of tournaments: the event list, an event's players and its stored or
freshly computed standings, the repeats and club clashes of its rounds' seating and of each
stage's movement beside their proved bounds, the dashboard's audit log with labels. The seat
results and points behind travellers and scorecards are
tournaments.standings.results.event_results and tournaments.results.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Board, Game, Status
from tournaments.core import embargo
from tournaments.events.fields import round_field
from tournaments.models import (
    AuditEntry,
    Event,
    Player,
    PublishedStandings,
    Round,
    RoundState,
    Seat,
    Stage,
    StageEntry,
    Standing,
    StandingsState,
    Substitution,
)
from tournaments.scoring import ranking
from tournaments.seating import schedule
from tournaments.standings.results import compute, event_results

logger = logging.getLogger(__name__)

if TYPE_CHECKING:  # django-stubs-ext is a development dependency
    from django_stubs_ext import WithAnnotations


def _count(queryset: QuerySet[Any], of: str = "event") -> Subquery:
    # A subquery per count, since joining boards and standings at once would multiply rows
    # (and, joined with the games, a board's open-board subqueries ran once per game).
    return Subquery(
        queryset.filter(**{of: OuterRef("pk")})
        .order_by()
        .values(of)
        .annotate(n=Count("pk"))
        .values("n"),
        output_field=IntegerField(),
    )


def event_boards(event: Event) -> QuerySet[WithAnnotations[Board, embargo.OpenAnnotation]]:
    """The boards of `event` in number order, each with `is_open` (tournaments.core.embargo),
    `game_count` (its current games) and `verified_count` (those verified): one query, each
    count a subquery of its own (a 600-player event after 12 rounds: 0.04 s; joined and
    grouped, the games made it 4.2 s)."""
    current = Game.objects.filter(replaced_at__isnull=True)
    return (
        embargo.with_open(Board.objects.filter(event=event))
        .select_related("round", "event")
        .annotate(
            game_count=Coalesce(_count(current, of="board"), 0),
            verified_count=Coalesce(_count(current.filter(status=Status.VERIFIED), of="board"), 0),
        )
        .order_by("number")
    )


def event_list() -> QuerySet[Event]:
    """Every event, newest first, with its numbers of boards and players ranked."""
    return Event.objects.annotate(
        board_count=Coalesce(_count(Board.objects.all()), 0),
        player_count=Coalesce(_count(Standing.objects.filter(stage__isnull=True)), 0),
    ).order_by("-created_at", "name")


def event_named(text: str) -> Event | None:
    """The event `text` names, for the command line: the event whose address (slug) it is,
    else the one of that name; None. The slug first: names and slugs are each unique, but an
    event may be named as another's slug ("demo-duplicate", slug demo-duplicate-2), and the
    slug alone always finds one event."""
    return Event.objects.filter(slug=text).first() or Event.objects.filter(name=text).first()


def event_players(*, event: Event) -> QuerySet[Player]:
    """The players who hold a seat at some table of `event`, or played in one as a substitute
    (its scorecards exist for them only; an archive of imported games seats nobody)."""
    return Player.objects.filter(
        Q(pk__in=Seat.objects.filter(table__round__event=event).values("player_id"))
        | Q(pk__in=Substitution.objects.filter(round__event=event).values("substitute_id"))
    )


def event_standings(*, event: Event, stage: Stage | None = None) -> list[Standing]:
    """The standings of the whole of `event` (or of one of its stages), best first, each
    row's player with it: the published rows when the scope has them (a large scope is
    published before its Standing rows are written behind it: PublishedStandings; unsaved
    Standing instances then), else its stored Standing rows. One query, two for a published
    scope (its players apart)."""
    rows = _published_rows(event, stage)
    if rows is None:
        return list(
            Standing.objects.filter(event=event, stage=stage)
            .select_related("player")
            .order_by("position")
        )
    players = Player.objects.in_bulk([row["player_id"] for row in rows])
    # A player deleted since is gone from the Standing rows (cascade): from these too.
    return [
        Standing(event=event, stage=stage, player=players[row["player_id"]], **row)
        for row in rows
        if row["player_id"] in players
    ]


def player_standing(*, event: Event, player: Player) -> Standing | None:
    """The whole event's standing of `player` in `event`, as event_standings has it: while the
    event's published rows are newer than its Standing rows (these being written behind
    them, or lost with a worker until the sweep stores them again), the published one; else
    the stored row. One query, two for an event with published standings, three while its
    rows are behind."""
    if event.standings_published:
        state = StandingsState.objects.filter(pk=event.pk).values_list("done", "published")
        done, published = state.first() or (0, 0)
        rows = _published_rows(event, None) if published > done else None
        if rows is not None:
            found = [row for row in rows if row["player_id"] == player.pk]
            return Standing(event=event, stage=None, player=player, **found[0]) if found else None
    return event.standings.filter(player=player, stage__isnull=True).first()


def _published_rows(event: Event, stage: Stage | None) -> list[dict[str, Any]] | None:
    """The published rows of a scope of `event` (PublishedStandings.rows), or None: the event
    has none (Event.standings_published: no query then), or this scope has none, or they are
    unreadable (logged)."""
    if not event.standings_published:
        return None
    published = (
        PublishedStandings.objects.filter(event=event, stage=stage)
        .only("columns", "count", "event_id", "stage_id", "generation")
        .first()
    )
    if published is None:
        return None
    try:
        return published.rows()
    except ValueError:
        # Never expected (the store writes both forms from the same rows): the rows are read.
        logger.exception("the published standings of event %s are unreadable", event.pk)
        return None


def cut_through(*, stage: Stage) -> list[int]:
    """The ids of the players `stage`'s cut sent through to the next stage, in their order
    at the cut (tournaments.events.stages.stage_cut); none before the cut is made. One query
    (none for a stage without a cut)."""
    if not stage.cut:
        return []
    following = Stage.objects.filter(event_id=stage.event_id, number__gt=stage.number)
    first = following.order_by("number").values("pk")[:1]
    return list(
        StageEntry.objects.filter(stage_id__in=first)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def entry_counts(*, event: Event) -> EntryCounts:
    """How many players `event`'s field has and how many reserves (entered to substitute:
    tournaments.events.substitutions); the robots of an online event, entered to fill seats,
    are neither. One query."""
    counts = event.entries.filter(player__robot=False).aggregate(
        field=Count("pk", filter=Q(reserve=False)), reserves=Count("pk", filter=Q(reserve=True))
    )
    return EntryCounts(counts["field"], counts["reserves"])


class EntryCounts(NamedTuple):
    """An event's players in the field and its reserves (entry_counts)."""

    field: int
    reserves: int


def event_seats_anyone(*, event: Event) -> bool:
    """Whether a round of `event` seats a player (an archive of imported games seats nobody).
    One query."""
    return Seat.objects.filter(table__round__event=event).exists()


def event_is_planned(*, event: Event) -> bool:
    """Whether `event` has rounds and no board yet: an event before its day, which will have
    standings (an archive of imported games has boards and no rounds). Two queries."""
    return (
        Round.objects.filter(event=event).exists()
        and not Board.objects.filter(event=event).exists()
    )


def event_computed_standings(*, event: Event) -> list[ranking.RankedRow]:
    """Standings of the whole event computed now (what standings_recompute stores)."""
    return compute(event_results(event=event))[None]


@dataclass(frozen=True)
class SeatingCheck:
    """One seated round's ``repeats`` (pairs of player names who met at a table of an earlier
    round of the same stage) and ``clashes`` (pairs of one club at a table: name, name,
    club), each pair and each list in name order."""

    repeats: list[tuple[str, str]]
    clashes: list[tuple[str, str, str]]


def round_seating_checks(*, event: Event) -> dict[int, SeatingCheck]:
    """Round id → SeatingCheck for every seated round of ``event`` (schedule.round_checks
    over the rounds of each stage in number order; rounds outside a stage count together).
    One query."""
    rows = Seat.objects.filter(table__round__event=event).values_list(
        "table__round_id",
        "table__round__stage_id",
        "table__round__number",
        "table_id",
        "player_id",
        "player__name",
        "player__club",
    )
    # stage id → (round number, round id) → table id → its players.
    stages: dict[Any, dict[tuple[int, int], dict[int, list[int]]]] = defaultdict(dict)
    names: dict[int, str] = {}
    clubs: dict[int, str] = {}
    for round_id, stage_id, number, table_id, player_id, name, club in rows:
        stages[stage_id].setdefault((number, round_id), {}).setdefault(table_id, []).append(
            player_id
        )
        names[player_id] = name
        if club:
            clubs[player_id] = club
    out: dict[int, SeatingCheck] = {}
    for seated in stages.values():
        order = sorted(seated)
        movement = [list(seated[key].values()) for key in order]
        for (_number, round_id), check in zip(
            order, schedule.round_checks(movement, clubs), strict=True
        ):
            out[round_id] = SeatingCheck(
                repeats=sorted(_named(names, a, b) for a, b in check.repeats),
                clashes=sorted((*_named(names, a, b), clubs[a]) for a, b in check.clashes),
            )
    return out


@dataclass(frozen=True)
class StageMovement:
    """A movement stage_seat made (tournaments.events.stages), as the dashboard shows it: its
    ``rounds`` (numbers), their ``repeats`` and club ``clashes`` as seated now (repeats among
    these rounds only), and what was proved when it was made (tournaments.seating.exact): no
    movement of the field has fewer than ``lower_bound`` repeats, nor, with as few repeats as
    it had then (``made_with``), fewer than ``club_lower_bound`` club clashes."""

    rounds: list[int]
    repeats: int
    clashes: int
    lower_bound: int
    club_lower_bound: int
    made_with: int

    @property
    def rounds_label(self) -> str:
        """The rounds as "1–5", or "1, 3, 4" when they do not follow each other."""
        if len(self.rounds) > 1 and self.rounds == list(range(self.rounds[0], self.rounds[-1] + 1)):
            return f"{self.rounds[0]}–{self.rounds[-1]}"
        return ", ".join(str(n) for n in self.rounds)

    @property
    def repeats_optimal(self) -> bool:
        return self.repeats == self.lower_bound

    @property
    def club_bound_holds(self) -> bool:
        """Whether the club bound speaks of this movement: it has no more repeats than when
        the bound was proved (a bound among movements with at most that many)."""
        return self.repeats <= self.made_with

    @property
    def clashes_optimal(self) -> bool:
        return self.club_bound_holds and self.clashes == self.club_lower_bound


def stage_movements(*, event: Event) -> dict[int, list[StageMovement]]:
    """Stage id → the movements its seatings made (the audit entries ``stage.seat`` of
    individual events, which keep each movement's measures), newest first, each over rounds
    no newer one seated again and still seated. Two queries."""
    entries = AuditEntry.objects.filter(event=event, action="stage.seat").order_by("-at", "-id")
    rows = Seat.objects.filter(table__round__event=event).values_list(
        "table__round__number", "table_id", "player_id", "player__club"
    )
    tables: dict[int, dict[int, list[int]]] = defaultdict(dict)
    clubs: dict[int, str] = {}
    for number, table_id, player_id, club in rows:
        tables[number].setdefault(table_id, []).append(player_id)
        if club:
            clubs[player_id] = club
    out: dict[int, list[StageMovement]] = defaultdict(list)
    taken: set[int] = set()
    for entry in entries.values_list("object_id", "changes"):
        stage_id, changes = entry
        numbers = changes.get("rounds") if isinstance(changes, dict) else None
        if not numbers or "lower_bound" not in changes or not stage_id.isdigit():
            continue  # a team seating: no movement, no bound
        if taken & set(numbers) or any(n not in tables for n in numbers):
            continue
        taken |= set(numbers)
        movement = [list(tables[n].values()) for n in numbers]
        out[int(stage_id)].append(
            StageMovement(
                rounds=list(numbers),
                repeats=schedule.repeat_pairs(movement),
                clashes=schedule.club_conflicts(movement, clubs),
                lower_bound=changes["lower_bound"],
                club_lower_bound=changes.get("club_lower_bound", 0),
                made_with=changes.get("repeat_pairs", 0),
            )
        )
    return dict(out)


def _named(names: dict[int, str], a: int, b: int) -> tuple[str, str]:
    first, second = sorted((names[a], names[b]))
    return first, second


def round_sitting_out(*, round_: Round) -> list[Player]:
    """Who of the round's field (fields.round_field) sits it out, a field that does not fill
    its tables: the players its seating leaves out, once it is seated; none for an online
    robot duplicate (its entrants start tables of their own). Reads only."""
    if round_.state == RoundState.DRAFT or embargo.played_games_count(round_.event):
        return []
    seated = set(Seat.objects.filter(table__round=round_).values_list("player_id", flat=True))
    return [p for p in round_field(round_=round_) if p.pk not in seated]
