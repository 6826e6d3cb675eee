"""The duplicate-aware rating on the Django side: inputs, the stored rows, the coalesced
recomputation, and the selectors of the pages, API and CSV.

Vocabulary (tournaments.models.ratings): a *rated event* is finished (its organizer closed it,
tournaments.people.life: an event still in play moves no rating) and has at least one published
round; its rated boards are those of its published rounds. The *rating order* of events is
(date, created, id), the date being the event's start or, without one, its opening: fixed by
the data, the same on any machine. A
rated board's *groups* are its (board, seat) pairs: the raw scores (the engine's score of the
current counted game, tournaments.tables.review.counted_q) of the players who held that seat's hand
at
its tables; a seat given an adjusted score (tournaments.models.Adjustment, a ruling that
replaced the result) is left out (tournaments.ratings.model).

Writes: `ratings_recompute` rates, in the rating order, the first event whose inputs changed
and every event after it (from the stored ratings before it; `full`: every event from
nothing), and stores what differs under an advisory lock (two workers never interleave), so
the stored rows always equal a recompute from scratch (`ratings_compute`) and a late
correction to an old event moves that event's rows and those of every event after it. It is
run by the Celery task tournaments.tasks.ratings_recompute, requested (`ratings_request`,
coalesced as the standings are: one run for a burst) when an event is finished or reopened
(tournaments.people.life) and after each standings recompute of a rated event (a corrected
game, a ruling).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterable
from contextlib import suppress
from dataclasses import dataclass
from datetime import date, tzinfo
from fractions import Fraction
from typing import cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import connection, transaction
from django.db.models import F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from ddz_site.kernel.spreadsheet import spreadsheet_cell
from games.models import Board
from tournaments.core.rating_requests import STATE_PK, send
from tournaments.models import (
    SEAT_CHOICES,
    Event,
    EventStatus,
    Player,
    RatedEvent,
    RatingEntry,
    RatingState,
    Round,
    RoundState,
)
from tournaments.ratings import model as rating
from tournaments.standings.results import event_results

SEAT_ORDER = [value for value, _label in SEAT_CHOICES]
# The first key of the advisory lock of the rating's writers: "DDZR".
_LOCK_CLASS = 0x44445A52


def rated_events() -> list[Event]:
    """The rated events (finished, with a published round) in the rating order (date,
    created, id)."""
    published = Round.objects.filter(event=OuterRef("pk"), state=RoundState.PUBLISHED)
    return list(
        Event.objects.filter(
            pk__in=Subquery(published.values("event_id")), status=EventStatus.FINISHED
        )
        .order_by(Coalesce("starts_at", "created_at"), "created_at", "pk")
        .only("pk", "name", "slug", "created_at", "starts_at", "time_zone")
    )


def event_day(event: Event) -> date:
    """The day an event is dated by: its start's (else its opening's) in the event's time zone
    (the site's when it has none); tournaments.people.life shows the same."""
    zone: tzinfo = timezone.get_default_timezone()
    if event.time_zone:
        with suppress(ZoneInfoNotFoundError, ValueError):
            zone = ZoneInfo(event.time_zone)
    return timezone.localtime(event.starts_at or event.created_at, zone).date()


def identities(player_ids: set[int]) -> dict[int, int]:
    """The identity rated for each player id: its person, i.e. the kept record of a merge
    (Player.same_as, tournaments.league.clubs), else the player id itself (a Player row is one
    person
    across events: the CSV import finds players again by external id or name). The one place
    that decides the identity rated; a merge or unmerge asks for the rating again
    (tournaments.league.clubs)."""
    kept = dict(
        Player.objects.filter(pk__in=player_ids, same_as__isnull=False).values_list(
            "pk", "same_as_id"
        )
    )
    return {p: kept.get(p, p) for p in player_ids}


def event_groups(event: Event) -> list[rating.Group[int]]:
    """The (board, seat) groups of `event`'s published rounds: keyed (board number, seat
    index), each player (id) with his raw score and his tablemates (rating.duplicate_groups);
    adjusted seats and an online event's robots left out. A few flat queries
    (tournaments.standings.results.event_results)."""
    numbers = dict(
        Board.objects.filter(event=event, round__state=RoundState.PUBLISHED).values_list(
            "id", "number"
        )
    )
    data = event_results(event=event, boards=set(numbers), with_penalties=False)
    # An online event's robots are no one to rate: left out as holders and as tablemates, as
    # an adjusted seat is (tournaments.online).
    robots = set(
        Player.objects.filter(entries__event=event, robot=True).values_list("pk", flat=True)
    )
    results = [r for r in data.results if r.player not in robots]
    # The standings' identities are player ids and table ids here (ints).
    identity = identities({cast(int, r.player) for r in results})
    return rating.duplicate_groups(
        rating.RatedSeat(
            board=numbers[cast(int, r.board)],
            table=cast(int, r.table),
            seat=SEAT_ORDER.index(r.seat),
            player=identity[cast(int, r.player)],
            score=r.score,
            # A weighted score is a ruling too, not a result the seat played.
            adjusted=bool(r.adjusted or r.weighted),
        )
        for r in results
    )


def fingerprint(groups: list[rating.Group[int]]) -> str:
    """SHA-256 of an event's groups (keys, identities, exact scores, tablemates): equal when
    the rating of the event would be computed from the same input. (A change of the model
    itself is not in it: after one, `manage.py ddz_ratings --full` re-rates every event.)"""
    text = json.dumps(
        [
            [
                list(g.key),
                sorted(
                    [i, str(Fraction(s)), [list(p) for p in mates]]
                    for (i, s), mates in zip(
                        g.results, g.tablemates or [((), ())] * len(g.results), strict=True
                    )
                ),
            ]
            for g in groups
        ]
    )
    return hashlib.sha256(text.encode()).hexdigest()


Rows = dict[tuple[int, int], tuple[int, float, float, float]]


def _rows(events: list[Event], after: list[dict[int, rating.Rating]], first: int) -> Rows:
    return {
        (player_id, event.pk): (position, r.mu, r.sigma, r.ordinal)
        for position, (event, ratings) in enumerate(zip(events, after, strict=True), start=first)
        for player_id, r in ratings.items()
    }


def ratings_compute() -> Rows:
    """The rows a recompute from scratch stores: (player id, event id) → (position, mu,
    sigma, ordinal)."""
    events = rated_events()
    return _rows(events, rating.rate_events(event_groups(e) for e in events), 1)


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_CLASS, 0])


def ratings_recompute(*, generation: int | None = None, full: bool = False) -> int:
    """Store the rating: the number of rows created, changed or removed (0: the stored rows
    were already those of a recompute from scratch).

    The first event (in the rating order) whose inputs may have changed — asked for since it
    was rated (RatedEvent.requested > done), moved in the order, or new — is read again; when
    its groups' fingerprint is the one stored it is skipped, else it and every event after it
    are rated again, from the stored ratings before it (`full`: every event, from nothing).
    The stored floats are those a recompute from scratch computes (IEEE-754 doubles stored
    exactly), so either way the rows equal ratings_compute() (a test holds it). Under the
    writers' lock: two workers never interleave. `generation`: the RatingState request it
    answers (the coalesced task).
    """
    with transaction.atomic():
        _lock()
        events = rated_events()
        stored = {r.pk: r for r in RatedEvent.objects.all()}
        gone = [pk for pk in stored if pk not in {e.pk for e in events}]
        start = 0 if (full or gone) else len(events)
        for i, event in enumerate(events):
            r = stored.get(event.pk)
            if start > i and (r is None or r.position != i + 1 or r.requested > r.done):
                start = i
                break
        groups: dict[int, list[rating.Group[int]]] = {}
        answered: dict[int, int] = {}  # event id -> the request its stored rows now answer
        # Skip the events whose input is unchanged (a request moved nothing rated: a game of
        # a round not yet published, a ruling on a result already left out).
        while start < len(events) and not full and not gone:
            event, r = events[start], stored.get(events[start].pk)
            groups[event.pk] = event_groups(event)
            if (
                r is None
                or r.position != start + 1
                or r.fingerprint != fingerprint(groups[event.pk])
            ):
                break
            answered[event.pk] = r.requested
            start += 1
            while start < len(events):
                r = stored.get(events[start].pk)
                if r is None or r.position != start + 1 or r.requested > r.done:
                    break
                start += 1
        before: dict[int, rating.Rating] = {}
        for player_id, mu, sigma in (
            RatingEntry.objects.filter(position__lte=start)
            .exclude(event_id__in=gone)
            .order_by("position")
            .values_list("player_id", "mu", "sigma")
        ):
            before[player_id] = rating.Rating(mu, sigma)
        todo = events[start:]
        for event in todo:
            if event.pk not in groups:
                groups[event.pk] = event_groups(event)
        new = _rows(todo, rating.rate_events([groups[e.pk] for e in todo], start=before), start + 1)
        count = _store(new, [e.pk for e in todo] + gone)
        RatedEvent.objects.filter(pk__in=gone).delete()
        for position, event in enumerate(todo, start=start + 1):
            r = stored.get(event.pk)
            requested = r.requested if r is not None else 0
            RatedEvent.objects.update_or_create(
                pk=event.pk,
                defaults={
                    "position": position,
                    "fingerprint": fingerprint(groups[event.pk]),
                    "done": requested,
                },
            )
        for event_id, requested in answered.items():
            RatedEvent.objects.filter(pk=event_id).update(done=requested)
        state, _created = RatingState.objects.get_or_create(pk=STATE_PK)
        RatingState.objects.filter(pk=STATE_PK).update(
            done=max(state.done, generation or 0),
            runs=F("runs") + 1,
            changed=count,
            stored_at=timezone.now(),
        )
    return count


def _store(new: Rows, event_ids: list[int]) -> int:
    """Make the stored rows of `event_ids` those of `new`; the number of rows written."""
    old = {
        (p, e): (pk, (pos, mu, sigma, o))
        for pk, p, e, pos, mu, sigma, o in RatingEntry.objects.filter(
            event_id__in=event_ids
        ).values_list("pk", "player_id", "event_id", "position", "mu", "sigma", "ordinal")
    }
    stale = [pk for key, (pk, _row) in old.items() if key not in new]
    changed = [
        RatingEntry(pk=old[key][0], position=row[0], mu=row[1], sigma=row[2], ordinal=row[3])
        for key, row in new.items()
        if key in old and old[key][1] != row
    ]
    created = [
        RatingEntry(
            player_id=key[0],
            event_id=key[1],
            position=row[0],
            mu=row[1],
            sigma=row[2],
            ordinal=row[3],
        )
        for key, row in new.items()
        if key not in old
    ]
    RatingEntry.objects.filter(pk__in=stale).delete()
    RatingEntry.objects.bulk_update(changed, ["position", "mu", "sigma", "ordinal"])
    RatingEntry.objects.bulk_create(created)
    return len(stale) + len(changed) + len(created)


def ratings_refresh() -> int:
    """The coalesced recomputation (the task): recompute when the generation wanted is not
    stored yet, then release the flag unless more was requested meanwhile (then run again);
    the number of rows written."""
    count = 0
    for _attempt in range(3):
        state = RatingState.objects.filter(pk=STATE_PK).values_list("requested", "done").first()
        if state is None:
            return count
        generation, done = state
        if done < generation:
            count += ratings_recompute(generation=generation)
        if RatingState.objects.filter(pk=STATE_PK, requested=generation).update(queued=False):
            return count
    send(again=True)
    return count


# --- Selectors -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating after one event: the event, its date, mu, sigma and ordinal."""

    event: Event
    date: date
    mu: float
    sigma: float
    ordinal: float


def history(player: Player | int) -> list[HistoryPoint]:
    """The rating of `player` after each rated event he played, in the rating order (the
    profile's chart). One query."""
    player_id = player if isinstance(player, int) else player.pk
    rows = (
        RatingEntry.objects.filter(player_id=player_id).select_related("event").order_by("position")
    )
    return [HistoryPoint(r.event, event_day(r.event), r.mu, r.sigma, r.ordinal) for r in rows]


@dataclass(frozen=True)
class CurrentRating:
    """A player's latest rating: after `events` rated events, the last being `event`."""

    player: Player
    mu: float
    sigma: float
    ordinal: float
    events: int
    event: Event


def current_ratings() -> list[CurrentRating]:
    """Every rated player's latest rating, best ordinal first (then name, id). One query."""
    last: dict[int, RatingEntry] = {}
    count: dict[int, int] = {}
    for row in RatingEntry.objects.select_related("player", "event").order_by("position"):
        last[row.player_id] = row
        count[row.player_id] = count.get(row.player_id, 0) + 1
    out = [
        CurrentRating(r.player, r.mu, r.sigma, r.ordinal, count[p], r.event)
        for p, r in last.items()
    ]
    return sorted(out, key=lambda c: (-c.ordinal, c.player.name, c.player.pk))


def public_ratings() -> list[CurrentRating]:
    """current_ratings without the people whose profile is hidden (tournaments.league.clubs: a
    hidden profile keeps her rating out of the public lists). One query."""
    return [r for r in current_ratings() if not r.player.profile_hidden]


CSV_COLUMNS = (
    "rank",
    "player_id",
    "name",
    "club",
    "external_id",
    "rating",
    "mu",
    "sigma",
    "events",
)


def ratings_csv(rows: Iterable[CurrentRating]) -> str:
    """The current ratings as CSV (CSV_COLUMNS); figures to 3 decimals; text that a
    spreadsheet would run as a formula is written as text (exports.spreadsheet_cell)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for rank, row in enumerate(rows, start=1):
        writer.writerow(
            spreadsheet_cell(cell)
            for cell in [
                rank,
                row.player.pk,
                row.player.name,
                row.player.club,
                row.player.external_id,
                f"{row.ordinal:.3f}",
                f"{row.mu:.3f}",
                f"{row.sigma:.3f}",
                row.events,
            ]
        )
    return out.getvalue()
