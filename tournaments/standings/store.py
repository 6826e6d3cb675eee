"""Storing the standings: standings_recompute computes an event's standings afresh and replaces
a scope's rows (the whole event, or one stage) only where they differ, under the writers' lock
of the event (a PostgreSQL advisory lock), with COPY on PostgreSQL. Idempotent: a second run
changes nothing. standings_warm reads ahead the boards of the events in play when a worker
starts.

A scope of settings.DDZ_STANDINGS_PUBLISH_FROM rows or more is also published, in one row
(PublishedStandings) that the live pages read. A coalesced recomputation commits that row
first and writes the scope's Standing rows behind it, in a second transaction (_store_behind):
at 100,000 players the publication takes milliseconds where the rows take a second, and one
changed game on each of 10 boards moves 99 % of them. The generation is marked done with the
rows; a worker lost between the two leaves it wanted, and the next recomputation stores it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from ddz_site.kernel.sql import copy_rows, copy_text
from tournaments.core.rating_requests import ratings_request
from tournaments.models import (
    Event,
    PublishedStandings,
    RoundState,
    Standing,
    StandingsState,
)
from tournaments.standings import snapshots
from tournaments.standings.cache import FIELDS, keep_stored, standings_version, stored_rows_of
from tournaments.standings.results import computed_rows

logger = logging.getLogger(__name__)


# Held while this process reads ahead (standings_warm): a recomputation waits for it instead
# of reading the same boards from nothing at the same time (a 10,000-player event: seconds
# of CPU twice over, on one interpreter lock).
_READING_AHEAD = threading.Lock()


def standings_warm(*, limit: int = 1) -> int:
    """Read the boards of the events in play whose standings were stored last (at most
    `limit`) into this process's kept results (BOARD_RESULTS and their points), storing
    nothing; the number of events read.

    For a worker that starts in the middle of an event (tournaments.tasks): its first
    recomputation would otherwise read every board of the event (a 600-player event after
    12 rounds: 0.49 s against 0.14 s with the boards kept) while the room's results wait
    behind it; in the benchmark's burst that took the p95 lag from 1.1 s to 2.1 s. One event
    by default, the live one: reading ahead another in play, idle or large (10,000 players:
    seconds), competes with the tasks of the live one. An event that cannot be read is logged.
    """
    events = (
        Event.objects.filter(
            rounds__state=RoundState.IN_PLAY, standings_state__stored_at__isnull=False
        )
        .distinct()
        .order_by("-standings_state__stored_at")[:limit]
    )
    warmed = 0
    with _READING_AHEAD:
        for event in events:
            try:
                requested = StandingsState.objects.values_list("requested", flat=True)
                computed_rows(event=event, generation=requested.get(pk=event.pk))
            except Exception:
                logger.exception("the standings of event %s could not be read ahead", event.pk)
                continue
            warmed += 1
    return warmed


# The first key of the PostgreSQL advisory lock that orders the writers of one event's standings
# (the second is the event id): "DDZS".
_LOCK_CLASS = 0x44445A53
# How long a recomputation waits after it is sent, so that a burst of verified games is
# gathered into one (seconds).
GATHER_SECONDS = 0.2


def _writers_lock(event_id: int) -> None:
    """Order the standings writers of one event, until the transaction ends, without
    blocking on one another's event row: submissions and rulings that reference the event
    never wait on it.

    Lock order: the event row, then the writers' (advisory) lock. A transition (the cut,
    Swiss seating) holds the event row FOR UPDATE before it asks for the standings; a writer
    stores rows that reference the event and moves its standings version. So a writer first
    takes the event row FOR KEY SHARE (shared with every other writer and with submissions,
    exclusive only of a transition's FOR UPDATE): it waits for a transition before it holds
    the writers' lock, never while holding it, and the two never deadlock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # One statement, in that order: the count of the locked event rows is taken
            # (the event row held FOR KEY SHARE) before the outer SELECT asks for the advisory
            # lock, and it gives one row even for an event deleted meanwhile. The rows are
            # derived, and `done` commits with them: a crash that loses this commit leaves the
            # generation wanted, and it is computed again. So the commit need not wait for the
            # disk (a 600-row store: about 10 ms of the commit); set_config(…, true) is SET
            # LOCAL.
            cursor.execute(_WRITERS_LOCK, [_LOCK_CLASS, event_id, event_id])


_WRITERS_LOCK = (
    "SELECT pg_advisory_xact_lock(%s, %s), set_config('synchronous_commit', 'off', true) "
    "FROM (SELECT count(*) FROM "
    f"(SELECT id FROM {Event._meta.db_table} WHERE id = %s FOR KEY SHARE) AS event) AS held"
)


@dataclass(frozen=True)
class Stored:
    """What a coalesced recomputation's store did (`standings_store_generation`)."""

    changed: bool  # the stored rows changed
    released: bool  # the flag StandingsState.queued released with the generation's mark


def standings_store_generation(*, event_id: int, generation: int) -> Stored:
    """The coalesced recomputation's store (tournaments.standings.requests.standings_refresh):
    `standings_recompute` of `generation`, releasing the flag `queued` in the transaction
    that marks the generation done when it is still the one requested (the release
    standings_refresh would otherwise write after, in a commit of its own)."""
    return _recompute(event_id, generation, release=True)


def standings_recompute(*, event_id: int, generation: int | None = None) -> bool:
    """Recompute and store the standings of every scope of an event; True when they changed.

    Idempotent: the rows of a scope are replaced only when they differ from the stored ones.
    Reads everything committed before it starts (the generation it read: `generation`, or the
    event's current StandingsState.requested) and stores under the standings writers' lock
    of the event (an advisory lock, never the event row). With a `generation` (the coalesced
    recomputation) it computes before taking the lock and stores only when no newer generation
    is stored already; without one (a caller that needs the rows now: the cut, Swiss seating)
    it computes under the lock and always stores what differs. So two workers never
    interleave and never store older rows over newer. The stored rows always equal a full
    recompute of the committed games of some moment no earlier than the generation's.
    """
    return _recompute(event_id, generation, release=False).changed


def _recompute(event_id: int, generation: int | None, *, release: bool) -> Stored:
    """standings_recompute; with `release`, the flag released as standings_store_generation
    says."""
    # Called without a generation (a caller that needs the rows up to date now, such as the
    # cut), it always compares and stores, whatever was requested.
    coalesced = generation is not None
    if generation is None:
        state = StandingsState.objects.filter(pk=event_id).values_list("requested", flat=True)
        generation = state.first() or 0
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return Stored(False, False)
    # No check of `done` here: the caller (standings_refresh) has just read it; the check
    # that counts is the one under the writers' lock.
    with _READING_AHEAD:
        pass  # a read-ahead of this process is done (standings_warm)
    read_at = timezone.now()
    new = computed_rows(event=event, generation=generation) if coalesced else None
    if new is not None:
        unchanged = _unchanged_here(event_id, generation, new, read_at, release=release)
        if unchanged is not None:
            return Stored(False, unchanged)
    with transaction.atomic():
        _writers_lock(event_id)
        if new is None:
            # Computed under the lock: rows older than a coalesced store never replace them.
            read_at = timezone.now()
            # A caller that needs the rows now reads everything: what it changed itself (a
            # stage, a seating) may not be in the change log.
            new = computed_rows(event=event, generation=generation, incremental=False)
        done, published, any_published = _generations(event_id)
        # Stored already, or a newer generation published (its rows being written behind).
        if coalesced and (done >= generation or published > generation):
            return Stored(False, False)
        mine = snapshots.stored_here(event_id) if coalesced else None
        if mine is not None and mine[0] == done:
            # No one stored since this process did: the stored rows are the ones it kept.
            version, old = None, mine[1]
        else:
            version = standings_version(event_id)
            old = stored_rows_of(event, version)
        now = timezone.now()
        changed, behind, any_published = _store_scopes(
            event_id,
            new,
            old,
            (generation, now),
            pending=published > done,
            behind=coalesced,
            look=any_published,
        )
        if changed:
            Event.objects.filter(pk=event_id).update(
                standings_updated_at=now, standings_published=any_published
            )
        if behind:
            # The published rows are what the live pages read; the rows behind, the mark
            # and the kept rows follow in _store_behind.
            StandingsState.objects.filter(pk=event_id).update(
                published=Greatest(F("published"), generation)
            )
        else:
            if changed and version is not None:
                version = standings_version(event_id)  # this transaction's rows now
            # What is stored now, scope by scope: the new rows (a stale scope has none left).
            keep_stored(event_id, version, new)
            # Last, so that the state row is held for an instant only (a verification bumps
            # it).
            released = _mark_done(event_id, generation, read_at, now, release=release)
            snapshots.stored_set(event_id, max(done, generation), new)
    if behind:
        # The rows' version is kept only where this process read it (see keep_stored).
        released = _store_behind(
            event_id, generation, new, behind, (read_at, now), release=release, track=version
        )
    # A correction to a rated event moves the rating of that event and of every one after it.
    ratings_request(event_id)
    return Stored(changed, released)


def _store_scopes(
    event_id: int,
    new: dict[int | None, list[dict[str, Any]]],
    old: dict[int | None, list[dict[str, Any]]],
    stamp: tuple[int, Any],
    *,
    pending: bool,
    behind: bool,
    look: bool,
) -> tuple[bool, dict[int | None, list[dict[str, Any]]], bool]:
    """Store the scopes of `new` that differ from `old` (the stored rows), in the caller's
    transaction; whether any did, the scopes whose Standing rows are left to be written
    behind (_store_behind), and whether a scope of the event is published now. A scope of
    DDZ_STANDINGS_PUBLISH_FROM rows or more is published (PublishedStandings, with the
    `stamp`'s generation and time);
    with `behind` (a coalesced recomputation), its rows are left for the second transaction,
    else written here too. A smaller scope loses its published row, if any. `pending`: a
    publication is newer than the stored rows (its rows were being written behind, or lost
    with a worker), so every published scope is stored again whatever `old` says (the live
    pages read the published rows, not `old`). `look`: whether the event may have published
    scopes (Event.standings_published; a small event's store asks nothing more)."""
    found = PublishedStandings.objects.filter(event_id=event_id).values_list("stage_id", flat=True)
    published: set[int | None] = set(found) if look else set()
    generation, now = stamp
    threshold = settings.DDZ_STANDINGS_PUBLISH_FROM
    # Published rows of a scope gone, or now below the threshold (a smaller scope, or the
    # threshold moved): the pages read its Standing rows again.
    stale = [scope for scope in old.keys() | published if scope not in new]
    dropped = [s for s in published if s in new and len(new[s]) < threshold]
    if stale or dropped:
        _unpublish(event_id, stale + dropped)
        published -= {*stale, *dropped}
    changed = bool(stale or dropped)
    later: dict[int | None, list[dict[str, Any]]] = {}
    for scope, rows in new.items():
        if old.get(scope, []) == rows and not (pending and scope in published):
            continue
        changed = True
        if len(rows) >= threshold:
            _publish(event_id, scope, rows, generation, now)
            published.add(scope)
            if behind:
                later[scope] = rows
                continue
        _replace_rows(event_id, scope, rows)
    if stale:
        # django-stubs is wrong here: a nullable foreign key's _id lookup takes None.
        Standing.objects.filter(event_id=event_id, stage_id__in=stale).delete()  # type: ignore[misc]
    return changed, later, bool(published)


def _store_behind(
    event_id: int,
    generation: int,
    new: dict[int | None, list[dict[str, Any]]],
    behind: dict[int | None, list[dict[str, Any]]],
    times: tuple[Any, Any],
    *,
    release: bool,
    track: str | None,
) -> bool:
    """The second transaction of a coalesced store that published (see _store_scopes): the
    Standing rows of the `behind` scopes, written while their publication of `times[1]` is
    still the one published and `generation` not stored yet (another store since published
    again or stored newer rows: it writes its own); then `generation` marked done, as
    _mark_done says, and whether the flag was released. `times`: when the rows were read and
    when published; `track`: the rows' version the first transaction read (None: this process
    keeps its rows by the snapshot instead, and reads no version: keep_stored)."""
    read_at, published_at = times
    with transaction.atomic():
        _writers_lock(event_id)
        done, _published, _any = _generations(event_id)
        ours = PublishedStandings.objects.filter(event_id=event_id, stored_at=published_at)
        if done >= generation or set(ours.values_list("stage_id", flat=True)) != set(behind):
            return False
        for scope, rows in behind.items():
            _replace_rows(event_id, scope, rows)
        keep_stored(event_id, None if track is None else standings_version(event_id), new)
        released = _mark_done(event_id, generation, read_at, published_at, release=release)
        snapshots.stored_set(event_id, max(done, generation), new)
    return released


def _publish(
    event_id: int, scope: int | None, rows: list[dict[str, Any]], generation: int, now: Any
) -> None:
    """Publish the rows of one scope (PublishedStandings), in the caller's transaction."""
    PublishedStandings.objects.update_or_create(
        event_id=event_id,
        # django-stubs is wrong here: a nullable foreign key's _id lookup takes None.
        stage_id=scope,  # type: ignore[misc]
        defaults={
            "generation": generation,
            "count": len(rows),
            "columns": PublishedStandings.encoded(rows),
            "stored_at": now,
        },
    )


def _unpublish(event_id: int, scopes: list[int | None]) -> None:
    """Delete the published rows of `scopes` of an event (the whole event is None)."""
    found = PublishedStandings.objects.filter(event_id=event_id)
    whole = found.filter(stage__isnull=True) if None in scopes else found.none()
    stages = found.filter(stage_id__in=[s for s in scopes if s is not None])
    (whole | stages).delete()


def _replace_rows(event_id: int, scope: int | None, rows: list[dict[str, Any]]) -> None:
    """Replace the Standing rows of one scope of an event, in the caller's transaction."""
    # django-stubs is wrong here: a nullable foreign key's _id lookup takes None.
    Standing.objects.filter(event_id=event_id, stage_id=scope).delete()  # type: ignore[misc]
    _store_rows(event_id, scope, rows)


def _unchanged_here(
    event_id: int, generation: int, new: Any, read_at: Any, *, release: bool
) -> bool | None:
    """When `new` are the very rows this process stored last and no one stored since, mark
    `generation` done (with `release`, and the flag released as standings_store_generation
    says) and answer whether the flag was released; None (nothing written) otherwise: a
    recomputation that found nothing changed (tournaments.standings.changes) reads nothing
    more and takes no lock. One statement: the condition on `done` makes the check and the
    mark one atomic step. Like the store's, its commit does not wait for the disk (derived
    rows: a mark lost in a crash is computed again; a release lost, sent again by the
    sweep). PostgreSQL only, like the snapshots that lead here."""
    mine = snapshots.stored_here(event_id)
    if mine is None or mine[1] is not new or connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute(
            _MARK_UNCHANGED,
            [
                generation,
                read_at,
                timezone.now(),
                release,
                generation,
                event_id,
                mine[0],
                generation,
            ],
        )
        row = cursor.fetchone()
    if row is None:
        return None
    snapshots.stored_set(event_id, max(mine[0], generation), new)
    return bool(release and row[0])


# _unchanged_here's statement. set_config(…, true) is SET LOCAL as a function: it holds for
# the statement's own transaction (autocommit), whose commit then does not wait for the disk,
# with no BEGIN, SET or COMMIT of its own.
_MARK_UNCHANGED = (
    "WITH asynchronous AS (SELECT set_config('synchronous_commit', 'off', true)) "
    f"UPDATE {StandingsState._meta.db_table} SET done = GREATEST(done, %s), runs = runs + 1, "
    "read_at = %s, stored_at = %s, "
    "queued = CASE WHEN %s AND requested = %s THEN false ELSE queued END "
    "FROM asynchronous WHERE event_id = %s AND done = %s "
    "RETURNING requested = %s"
)


def _generations(event_id: int) -> tuple[int, int, bool]:
    """The generation of the stored standings of `event_id`, that of its newest publication,
    and whether a scope of it may be published (Event.standings_published); (-1, -1, True)
    when it has no state row. One query."""
    found = (
        StandingsState.objects.filter(pk=event_id)
        .values_list("done", "published", "event__standings_published")
        .first()
    )
    return (-1, -1, True) if found is None else found


def _mark_done(
    event_id: int, generation: int, read_at: Any, stored_at: Any, *, release: bool
) -> bool:
    """Mark `generation` done (stored) in the caller's transaction and, with `release`,
    release the flag `queued` if `generation` is still the one requested (a request that
    bumps after finds it down and has a new recomputation run; one before it keeps it up);
    whether it released it. One statement on PostgreSQL."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                _MARK_DONE,
                [generation, read_at, stored_at, release, generation, event_id, generation],
            )
            row = cursor.fetchone()
        return bool(release and row and row[0])
    StandingsState.objects.filter(pk=event_id).update(
        done=Greatest(F("done"), generation),
        runs=F("runs") + 1,
        read_at=read_at,
        stored_at=stored_at,
    )
    return release and bool(
        StandingsState.objects.filter(pk=event_id, requested=generation).update(queued=False)
    )


_MARK_DONE = (
    f"UPDATE {StandingsState._meta.db_table} SET done = GREATEST(done, %s), runs = runs + 1, "
    "read_at = %s, stored_at = %s, "
    "queued = CASE WHEN %s AND requested = %s THEN false ELSE queued END "
    "WHERE event_id = %s RETURNING requested = %s"
)


def _store_rows(event_id: int, scope: int | None, rows: list[dict[str, Any]]) -> None:
    """Insert the standing rows of one scope (plain dicts of FIELDS), in the caller's
    transaction: on PostgreSQL with one COPY of lines formatted here (copy_text; 20,000 rows
    of a 10,000-player event took 1.9 s of CPU through bulk_create, most of it building model
    instances, and 100,000 rows 0.6 s through copy_rows), elsewhere bulk_create."""
    if connection.vendor != "postgresql":
        Standing.objects.bulk_create(
            Standing(event_id=event_id, stage_id=scope, **row) for row in rows
        )
        return
    lead = f"{event_id}\t" if scope is None else f"{event_id}\t{scope}\t"
    names = ("event_id", *(() if scope is None else ("stage_id",)), *FIELDS)
    text = "\n".join(
        f"{lead}{r['player_id']}\t{r['method']}\t{r['position']}\t{r['rank']}\t{r['total']}"
        f"\t{r['top']}\t{r['percentage']}\t{r['boards']}\t{r['penalty']}\t{r['decided_by']}"
        for r in rows
    )
    if rows and not copy_text(Standing, names, text, len(rows)):
        values = itemgetter(*FIELDS)
        rows_in = [(event_id, scope, *values(r)) for r in rows]
        copy_rows(Standing, ("event_id", "stage_id", *FIELDS), rows_in)
