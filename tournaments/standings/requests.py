"""Asking for a recomputation of an event's standings: a request is committed with the change
that needs it (StandingsState.requested), and one recomputation serves a burst of requests
(standings_request, then standings_refresh in a worker). While games of the event wait to be
verified, a worker verifies first and recomputes only when the stored standings are stale.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from ddz_site.kernel.dispatch import RECOMPUTE_STANDINGS, enqueue
from games.models import Game, Status
from tournaments.models import StandingsChange, StandingsState
from tournaments.standings.store import GATHER_SECONDS, standings_store_generation


def standings_request(
    *,
    event_id: int,
    boards: Iterable[int] | None = None,
    games: Iterable[tuple[int, int]] | None = None,
    inline: bool = False,
    more: bool = False,
) -> None:
    """Ask for the standings of an event: bump its generation in the caller's transaction
    (so the request commits with the change that moves the standings, or not at all) and log
    what the change touched (StandingsChange: the ids of `boards` whose games moved, or the
    very `games` that moved, as (board id, table id) pairs, so that only they are read
    again; when both are None, anything else the standings read), and after commit have one
    recomputation
    run, unless one is queued or running already: sent as a task, or with `inline` (a worker
    that has just verified games) run at once in this process, so that it never waits behind
    the queue of verifications; `more`: the caller's batch came full, so more games likely
    wait (see _backlog)."""
    with transaction.atomic():
        if not StandingsState.objects.filter(pk=event_id).update(requested=F("requested") + 1):
            StandingsState.objects.get_or_create(event_id=event_id)
            StandingsState.objects.filter(pk=event_id).update(requested=F("requested") + 1)
        # The bump holds the state row until commit: the generation read back is this one's.
        generation = StandingsState.objects.values_list("requested", flat=True).get(pk=event_id)
        pairs = None if games is None else sorted({(int(b), int(t)) for b, t in games})
        if pairs is not None:
            boards = {b for b, _t in pairs} | set(boards or ())
        StandingsChange.objects.create(
            event_id=event_id,
            generation=generation,
            boards=None if boards is None else sorted(set(boards)),
            # The games alone when they are all the change moved.
            tables=[list(p) for p in pairs]
            if pairs is not None and boards is not None and {b for b, _t in pairs} == set(boards)
            else None,
        )
    transaction.on_commit(partial(_send, event_id, inline=inline, more=more))


# While games of an event wait to be verified, a worker that has verified a chunk leaves the
# recomputation to the worker that verifies the event's last pending game (a recomputation that
# reads much of the event, one per chunk, would hold verification back), unless the stored
# standings are stale. For a worker that keeps up with the room (its batch was not full) they
# are stale once as old as their recomputation took, FRESH_SECONDS at most: it spends at most
# about half its time recomputing, and a recomputation of a few changed boards (milliseconds,
# tournaments.standings.changes) follows every batch. For one draining a queue (its batch came
# full) they stay fresh for as long as their recomputation took, so that it verifies at least
# half its time, and while DEEP_QUEUE games of the event or more wait, DRAIN_FRESH_TIMES as
# long, so that it verifies three quarters of its time at least, whatever the event's size (a
# recompute of a large event costs about a second; the README's benchmarks give the figures).
# The longer wait is kept for a drain only: in a burst it would delay every standing. A game
# pending longer than BACKLOG_SECONDS (one the verifier cannot judge stays pending) holds
# nothing back, unless the worker's batch came full (its games may have waited for minutes); the
# sweep sends such a game again.
FRESH_SECONDS = 0.25
DRAIN_FRESH_TIMES = 3
DEEP_QUEUE = 2000
BACKLOG_SECONDS = 60.0


# Standings wanted and not stored for longer than a worker leaves them (DRAIN_FRESH_TIMES times
# as long as their last recomputation took, in a drain) and OVERDUE_SECONDS more have lost
# their recomputation: a worker killed in the middle of it left the flag `queued` up, so no
# later request sends one, or the broker lost its message. The sweep, every few seconds, sends
# them again (tournaments.tables.verification.verification_sweep). The age is the stored rows'
# (no row records when a recomputation began): one that starts after a quiet spell may be sent
# once more while it runs, which costs a computation (its store is skipped when the first
# one's is newer).
OVERDUE_SECONDS = 5.0


# How long the change log keeps a generation (StandingsChange): well past the age at which a
# process stops moving its snapshot (tournaments.standings.changes.SNAPSHOT_SECONDS).
CHANGES_KEPT_SECONDS = 900.0


def standings_changes_prune(*, now: datetime | None = None) -> int:
    """Delete the change log's rows older than CHANGES_KEPT_SECONDS; how many."""
    now = now or timezone.now()
    since = now - timedelta(seconds=CHANGES_KEPT_SECONDS)
    deleted, _kinds = StandingsChange.objects.filter(created_at__lt=since).delete()
    return deleted


def standings_overdue(*, now: datetime | None = None) -> list[int]:
    """The ids of the events whose standings are wanted (StandingsState.requested above
    `done`) and overdue at `now` (default: the present), in order: never stored, or stored
    more than OVERDUE_SECONDS plus DRAIN_FRESH_TIMES times their last recomputation's
    duration ago. One query."""
    now = now or timezone.now()
    rows = StandingsState.objects.filter(requested__gt=F("done")).values_list(
        "event_id", "read_at", "stored_at"
    )
    overdue = []
    for event_id, read_at, stored_at in rows:
        took = (stored_at - read_at).total_seconds() if stored_at and read_at else 0.0
        left = timedelta(seconds=OVERDUE_SECONDS + DRAIN_FRESH_TIMES * took)
        if stored_at is None or stored_at < now - left:
            overdue.append(event_id)
    return sorted(overdue)


def _backlog(event_id: int, *, more: bool = False) -> bool:
    """Whether a worker may leave the recomputation of `event_id` to a later one: fresh
    standings stored, and games of the event still pending (see FRESH_SECONDS). A worker
    whose batch came full (`more`: it drains a queue) counts pending games of any age and
    finds the standings fresh for as long as they took to compute, DRAIN_FRESH_TIMES as
    long when DEEP_QUEUE games of the event wait or more; one that keeps up with the room,
    for FRESH_SECONDS, and games submitted lately."""
    now = timezone.now()
    row = StandingsState.objects.filter(pk=event_id).values_list("read_at", "stored_at").first()
    read_at, stored_at = row if row is not None else (None, None)
    if stored_at is None:
        return False
    took = (stored_at - read_at).total_seconds() if read_at is not None else 0.0
    pending = Game.objects.filter(status=Status.PENDING, board__event_id=event_id)
    if not more:
        # Fresh for as long as they took, FRESH_SECONDS at most: cheap standings (the change
        # log's: milliseconds) follow each verified batch with no window.
        if stored_at < now - timedelta(seconds=min(FRESH_SECONDS, took)):
            return False
        return pending.filter(submitted_at__gte=now - timedelta(seconds=BACKLOG_SECONDS)).exists()
    if stored_at < now - timedelta(seconds=max(FRESH_SECONDS, took)):
        if stored_at < now - timedelta(seconds=DRAIN_FRESH_TIMES * took):
            return False
        # A drain; no ordering (Game's own joins the board, table, round and event, and the
        # count would sort every pending row).
        return pending.order_by()[:DEEP_QUEUE].count() >= DEEP_QUEUE
    return pending.exists()


def _send(event_id: int, *, again: bool = False, inline: bool = False, more: bool = False) -> None:
    """Have the recomputation of an event run when none is queued or running (`again`: the
    running one sends itself again, keeping the flag). A worker (`inline`) with a backlog of
    the event to verify leaves it to the worker that verifies the last pending game (see
    FRESH_SECONDS); the generation stays wanted meanwhile. A broker that is down, or an inline
    recomputation that fails, leaves the generation wanted: the sweep
    (tournaments.tables.verification.verification_sweep) sends it once it is overdue
    (OVERDUE_SECONDS)."""
    if inline and not again and _backlog(event_id, more=more):
        return
    if not again and not StandingsState.objects.filter(pk=event_id, queued=False).update(
        queued=True
    ):
        return
    if inline:
        standings_refresh(event_id=event_id)
    elif not enqueue(RECOMPUTE_STANDINGS, event_id, countdown=GATHER_SECONDS):
        StandingsState.objects.filter(pk=event_id).update(queued=False)


# How many times a recomputation runs again at once when more was requested while it ran,
# before it leaves the next run to the verifier of the event's last pending game (a burst).
AGAIN_INLINE = 2
# How many runs in all before it sends itself to the back of the queue (letting
# verifications through).
AGAIN_LIMIT = 12


def standings_refresh(*, event_id: int) -> bool:
    """The coalesced recomputation (the task recompute_standings): store the standings of the
    generation wanted now, unless a newer one is stored already (then it exits at once); when
    changes were requested meanwhile, run again, else mark none queued. True when the stored
    rows changed.

    After AGAIN_INLINE runs that each found more requested, a burst is going on: the flag is
    released, and if games of the event still wait to be verified, however long, the worker
    that verifies the last of them recomputes (see FRESH_SECONDS); otherwise this one takes
    the flag back and runs again (a task sent to the back of the queue would wait behind the
    burst's messages), and sends itself as a task only after AGAIN_LIMIT runs."""
    changed = False
    attempt = 0
    while True:
        state = StandingsState.objects.filter(pk=event_id).values_list("requested", "done").first()
        if state is None:
            return changed
        generation, done = state
        if done < generation:
            stored = standings_store_generation(event_id=event_id, generation=generation)
            changed |= stored.changed
            if stored.released:  # with the mark: nothing was requested since it read
                return changed
        # Released only when nothing was requested since it read: a request that bumps after
        # this finds the flag down and has a new recomputation run, one before it keeps this.
        if StandingsState.objects.filter(pk=event_id, requested=generation).update(queued=False):
            return changed
        attempt += 1
        if attempt <= AGAIN_INLINE:
            continue
        if attempt > AGAIN_LIMIT:
            _send(event_id, again=True)
            return changed
        # Released first, then the backlog read: a verifier that commits after the release
        # finds the flag down and takes it; one before it is counted in the backlog. Pending
        # games of any age count (`more`): a queue drained for minutes holds games older than
        # BACKLOG_SECONDS, and a run sent to the back of that queue would wait behind every
        # message of a game already verified.
        StandingsState.objects.filter(pk=event_id).update(queued=False)
        if _backlog(event_id, more=True):
            return changed
        if not StandingsState.objects.filter(pk=event_id, queued=False).update(queued=True):
            return changed  # another recomputation has it


def recompute_enqueue(event_id: int) -> None:
    standings_request(event_id=event_id)
