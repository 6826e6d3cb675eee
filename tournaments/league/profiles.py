"""Selectors of clubs, series standings and player profiles (the reads behind the league pages,
the API and the CSV exports); the arithmetic is tournaments.league.series'.

Vocabulary: a *person* is a kept player record and the records merged into it
(tournaments.league.clubs); her *profile* lists the events she played with her finishing place and
total (from each event's stored standings), links to her scorecards, her *results over time*
(her percentage of the tops, or datum total, event by event), her *rating over time* (from the
rating, when the site has one: see rating_points), and her best and worst boards (over the
boards the viewer may see, tournaments.core.embargo). A *hidden* profile is shown to no one but
staff
and organizers of her events (tournaments.league.clubs.may_manage_people); event and series pages
keep
her name, without a link to the profile.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from django.db.models import Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce

from tournaments.core import embargo
from tournaments.league import series as pure
from tournaments.league.clubs import (
    may_manage_people,
    person_of,
    person_players,
    profile_is_hidden,
    series_master_scale,
    series_scale,
)
from tournaments.models import Club, Event, EventStatus, MasterTitle, Player, Series, Standing
from tournaments.models.standings import compared_with_no_one
from tournaments.people import life
from tournaments.ratings import service as ratings
from tournaments.results import pages as results_pages
from tournaments.results.pages import Chart, ScorecardRow

# Events in the order they were played: by date (the start, else the opening), then opening.
OLDEST_FIRST = (Coalesce("starts_at", "created_at"), "created_at", "pk")


def home_clubs() -> list[Club]:
    """Every club with its current series (``current``: a list, newest first)."""
    current = Series.objects.filter(finished=False).order_by("-created_at", "name")
    return list(
        Club.objects.order_by("name").prefetch_related(
            Prefetch("series", queryset=current, to_attr="current")
        )
    )


def club_series(club: Club) -> QuerySet[Series]:
    """The club's series, current first, newest first."""
    return club.series.order_by("finished", "-created_at", "name")


def club_events(club: Club) -> QuerySet[Event]:
    """The club's events, newest first (tournaments.people.life.newest_first), each with its
    series (one query)."""
    return life.newest_first(club.events.select_related("series"))


def series_events(series: Series) -> list[Event]:
    """The events of a series that count in it: the finished ones (an event in play moves no
    series, tournaments.people.life), oldest first (by date, then opening)."""
    return list(series.events.filter(status=EventStatus.FINISHED).order_by(*OLDEST_FIRST))


def series_coming(series: Series) -> list[Event]:
    """The events of a series not finished yet (announced, open for registration, in play),
    newest first: the series page lists them apart, as they do not count yet."""
    return list(life.newest_first(series.events.exclude(status=EventStatus.FINISHED)))


def _place(rank: str) -> int:
    return int(rank.rstrip("=") or 0)


@dataclass
class SeriesLine:
    """A row of a series' standings with the person (kept record) and her points per event."""

    rank: str
    position: int
    person: Player
    total: Fraction
    points: list[tuple[Fraction | None, bool]]
    played: int
    decided_by: str
    hidden: bool
    master_points: Fraction | None = None


@dataclass
class SeriesTable:
    series: Series
    events: list[Event]
    lines: list[SeriesLine]
    scale: tuple[Fraction, ...]
    # The master points the series awards by final place: its table, and whether they are
    # awarded (the series is finished); () when it awards none.
    master_scale: tuple[Fraction, ...] = ()
    awarded: bool = False
    # The series' events that do not count yet (not finished), newest first.
    coming: list[Event] = field(default_factory=list)


def series_table(series: Series) -> SeriesTable:
    """The standings of ``series``: each event's finishing places (the stored overall
    standings of the event, by person) scored on the series' scale, best k of n.

    Raises:
        tournaments.league.series.SeriesError: stored settings the arithmetic refuses (never for a
        series made through tournaments.league.clubs).
    """
    events = series_events(series)
    rows = (
        Standing.objects.filter(event__in=events, stage__isnull=True)
        .select_related("player")
        .order_by("event_id", "position")
    )
    places: dict[int, dict[Hashable, int]] = defaultdict(dict)
    people: dict[int, int] = {}
    for row in rows:
        person = row.player.same_as_id or row.player_id
        places[row.event_id][person] = _place(row.rank)
        people[person] = person
    scale = series_scale(series)
    ranked = pure.series_standings(
        [pure.EventPlaces(e.pk, places.get(e.pk, {})) for e in events],
        scale=scale,
        best_of=series.best_of,
        tiebreaks=list(series.tiebreaks or []),
        seed=series.lot_seed,
    )
    persons = Player.objects.in_bulk(list(people))
    # A person is hidden when any of her records is (clubs.profile_is_hidden): one query.
    hidden = {
        same_as or pk
        for pk, same_as in Player.objects.filter(
            Q(pk__in=list(people)) | Q(same_as_id__in=list(people)), profile_hidden=True
        ).values_list("pk", "same_as_id")
    }
    master_scale = series_master_scale(series)
    awarded = pure.master_points(ranked, master_scale) if series.finished else {}
    lines = [
        SeriesLine(
            rank=r.rank,
            position=r.position,
            person=persons[cast(int, r.player)],
            total=r.total,
            points=list(zip(r.points, r.counted, strict=True)),
            played=r.played,
            decided_by=r.decided_by,
            hidden=cast(int, r.player) in hidden,
            master_points=awarded.get(r.player),
        )
        for r in ranked
    ]
    return SeriesTable(
        series=series,
        events=events,
        lines=lines,
        scale=scale,
        master_scale=master_scale,
        awarded=series.finished and bool(master_scale),
        coming=series_coming(series),
    )


@dataclass(frozen=True)
class MasterAward:
    """What one finished series awarded a person: her final rank and master points."""

    series: Series
    rank: str
    points: Fraction


@dataclass(frozen=True)
class MasterPoints:
    """A person's master points: the awards of every finished series, oldest first, their
    `total`, and the `title` it reaches on the site's ladder (None below every rung)."""

    awards: list[MasterAward]
    total: Fraction
    title: str | None


def person_master_points(person: Player, records: list[Player] | None = None) -> MasterPoints:
    """The master points of ``person`` (a kept record; ``records``: her records when the caller
    has them): the finished series with a table of master points in which she has a final
    place (tournaments.league.series.master_points), and her title
    (tournaments.league.series.title_of over the MasterTitle ladder). One query when no series
    awards her any."""
    ids = [p.pk for p in (person_players(person) if records is None else records)]
    awarding = (
        Series.objects.filter(
            finished=True, events__standings__player_id__in=ids, events__standings__stage=None
        )
        .exclude(master_scale="")
        .distinct()
        .order_by("created_at", "pk")
    )
    awards = []
    for found in awarding:
        line = next((li for li in series_table(found).lines if li.person.pk == person.pk), None)
        if line is not None and line.master_points is not None:
            awards.append(MasterAward(found, line.rank, line.master_points))
    if not awards:
        return MasterPoints([], Fraction(0), None)
    total = sum((a.points for a in awards), Fraction(0))
    ladder = [(Fraction(t.threshold), t.name) for t in MasterTitle.objects.all()]
    return MasterPoints(awards, total, pure.title_of(total, ladder))


# --- Profiles ------------------------------------------------------------------------------


def profile_visible(user: Any, person: Player) -> bool:
    """Whether ``user`` may see the profile: anyone unless hidden, else staff and organizers of
    her events."""
    if not profile_is_hidden(person):
        return True
    ids = list(person_players(person).values_list("pk", flat=True))
    return may_manage_people(user, ids)


def visible_person(user: Any, pk: int) -> Player | None:
    """The person of player record ``pk`` (the kept record when ``pk`` was merged into
    another) if ``user`` may see her profile; None for no such record or a hidden profile
    (the pages and the API answer 404 to both)."""
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        return None
    person = person_of(player)
    return person if profile_visible(user, person) else None


@dataclass
class Played:
    """One event of a person: the record she played under, her overall standing (None while
    unranked) and the event's club and series."""

    event: Event
    player: Player
    standing: Standing | None

    @property
    def place(self) -> int | None:
        return _place(self.standing.rank) if self.standing else None

    @property
    def result(self) -> Fraction | None:
        """Her percentage of the tops (matchpoints) or datum total; None when unranked or
        compared with no one (a top of 0: her 0 % says nothing)."""
        if self.standing is None or compared_with_no_one(self.standing.top):
            return None
        text = self.standing.percentage or self.standing.total
        return Fraction(text) if text else None


@dataclass
class BoardResult:
    event: Event
    player: Player
    row: ScorecardRow

    @property
    def value(self) -> Fraction:
        r = self.row
        if r.percentage is not None:
            return r.percentage
        return r.points if r.points is not None else Fraction(0)


# The rating after one event: mean ``mu``, uncertainty ``sigma`` and the conservative
# ``ordinal`` (what the rating ranks by); floats, as the rating stores them.
RatingPoint = ratings.HistoryPoint


@dataclass
class Profile:
    person: Player
    records: list[Player]
    played: list[Played]
    results_chart: Chart | None
    rating: list[RatingPoint]
    rating_chart: Chart | None
    best: dict[str, list[BoardResult]] = field(default_factory=dict)
    worst: dict[str, list[BoardResult]] = field(default_factory=dict)
    hidden: bool = False


def person_events(person: Player, records: list[Player] | None = None) -> list[Played]:
    """The events the person played (entered or seated), oldest first (by date, then opening:
    the profile's page lists them newest first, numbered from the oldest), with her standing;
    ``records``: her records when the caller has them (else fetched)."""
    if records is None:
        records = list(person_players(person))
    ids = [p.pk for p in records]
    by_pk = {p.pk: p for p in records}
    events = (
        Event.objects.filter(entries__player_id__in=ids)
        | Event.objects.filter(rounds__tables__seats__player_id__in=ids)
    ).distinct()
    standings = {
        (s.event_id, s.player_id): s
        for s in Standing.objects.filter(player_id__in=ids, stage__isnull=True)
    }
    out = []
    for event in events.select_related("club", "series").order_by(*OLDEST_FIRST):
        played_as = next(
            (pk for pk in ids if (event.pk, pk) in standings),
            None,
        )
        if played_as is None:
            played_as = (
                event.entries.filter(player_id__in=ids).values_list("player_id", flat=True).first()
                or event.rounds.filter(tables__seats__player_id__in=ids)
                .values_list("tables__seats__player_id", flat=True)
                .first()
            )
        player = by_pk.get(played_as, person) if played_as is not None else person
        out.append(Played(event, player, standings.get((event.pk, player.pk))))
    return out


def rating_points(person: Player) -> list[RatingPoint]:
    """The person's rating after each rated event she played, oldest first ([] when none):
    tournaments.ratings.service rates the person (its identities map every record of a merge to the
    kept one), so her rows are those of her kept record. One query."""
    return ratings.history(person.same_as_id or person.pk)


def line_chart(
    values: list[tuple[str, Fraction]], *, width: int = 360, height: int = 170
) -> Chart | None:
    """An SVG line chart of labelled values (results_pages.chart's shape; None for no values)."""
    return results_pages.chart(
        [results_pages.RunningPoint(label, value) for label, value in values],  # type: ignore[arg-type]
        width=width,
        height=height,
    )


def _extremes(
    boards: dict[str, list[BoardResult]], extremes: int
) -> tuple[dict[str, list[BoardResult]], dict[str, list[BoardResult]]]:
    """Per scoring method, the best ``extremes`` boards (best first) and the worst (worst
    first), never a board in both lists: with fewer than twice ``extremes`` boards the better
    half (rounded up) is the best and the rest the worst (three boards: two and one; one
    board: no worst list)."""
    best: dict[str, list[BoardResult]] = {}
    worst: dict[str, list[BoardResult]] = {}
    for method, rows in boards.items():
        ordered = sorted(rows, key=lambda b: -b.value)
        top = min(extremes, (len(ordered) + 1) // 2)
        best[method] = ordered[:top]
        if len(ordered) > top:
            worst[method] = ordered[top:][::-1][:extremes]
    return best, worst


def person_profile(person: Player, *, user: Any, extremes: int = 3) -> Profile:
    """The profile of ``person`` (a kept record) as ``user`` may see it: events, results and
    rating over time, and her ``extremes`` best and worst boards per scoring method."""
    records = list(person_players(person))
    played = person_events(person, records)
    rated = rating_points(person)
    boards: dict[str, list[BoardResult]] = defaultdict(list)
    for p in played:
        visible = embargo.visible_board_ids(user, p.event)
        for row in results_pages.player_scorecard(event=p.event, player=p.player, visible=visible):
            # A board compared with no one (a top of 0) is no one's best or worst.
            if row.top == 0:
                continue
            if not row.hidden and row.points is not None and not row.adjusted:
                boards[p.event.scoring_method].append(BoardResult(p.event, p.player, row))
    best, worst = _extremes(boards, extremes)
    over_time = [(str(i), p.result) for i, p in enumerate(played, 1) if p.result is not None]
    number = {p.event.pk: i for i, p in enumerate(played, 1)}
    return Profile(
        person=person,
        records=records,
        played=played,
        results_chart=line_chart(over_time),
        rating=rated,
        # Numbered as the events in the profile's table (an event not rated has no point).
        rating_chart=line_chart(
            [
                (str(number.get(r.event.pk, "")), Fraction(r.ordinal).limit_denominator(1000))
                for r in rated
            ]
        ),
        best=best,
        worst=worst,
        hidden=any(r.profile_hidden for r in records),  # clubs.profile_is_hidden's rule
    )
