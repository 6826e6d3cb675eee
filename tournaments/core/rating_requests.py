"""Asking for the rating again: the generation wanted, bumped in the caller's transaction,
and one coalesced recomputation sent after commit (tournaments.ratings.service recomputes; its task
is
tournaments.tasks.ratings_recompute, sent by name through ddz_site.kernel.dispatch).

Apart from tournaments.ratings.service so that the modules whose changes move the rating (the
standings, round transitions, merging people) ask for it without importing the rating, which
reads them.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from ddz_site.kernel.dispatch import RECOMPUTE_RATINGS, enqueue
from tournaments.models import Event, EventStatus, RatedEvent, RatingState, RoundState

# The one row of tournaments.models.RatingState.
STATE_PK = 1
# How long a recomputation waits after it is sent, so that a burst of requests is gathered.
GATHER_SECONDS = 0.5


def ratings_request(event_id: int) -> None:
    """Ask for the rating of event `event_id` (and so of every event after it) to be
    recomputed: mark the event and bump the generation in the caller's transaction and,
    after commit, have one recomputation run unless one is queued or running (coalesced as
    the standings are). Nothing when the event is neither rated (finished, with a published
    round: tournaments.ratings.service.rated_events) nor was rated (a reopened event is asked
    for once more, so that the recomputation takes its rows out)."""
    # One query: it runs after every store of the standings, rated or not.
    if not Event.objects.filter(
        Q(status=EventStatus.FINISHED, rounds__state=RoundState.PUBLISHED)
        | Q(pk__in=RatedEvent.objects.filter(pk=event_id).values("pk")),
        pk=event_id,
    ).exists():
        return
    if not RatedEvent.objects.filter(pk=event_id).update(requested=F("requested") + 1):
        RatedEvent.objects.get_or_create(pk=event_id)
        RatedEvent.objects.filter(pk=event_id).update(requested=F("requested") + 1)
    if not RatingState.objects.filter(pk=STATE_PK).update(requested=F("requested") + 1):
        RatingState.objects.get_or_create(pk=STATE_PK)
        RatingState.objects.filter(pk=STATE_PK).update(requested=F("requested") + 1)
    transaction.on_commit(partial(send))


def send(*, again: bool = False) -> None:
    if not again and not RatingState.objects.filter(pk=STATE_PK, queued=False).update(queued=True):
        return
    if not enqueue(RECOMPUTE_RATINGS, countdown=GATHER_SECONDS):
        RatingState.objects.filter(pk=STATE_PK).update(queued=False)


# The rating wanted and not stored for this long has lost its recomputation (its message lost
# to a broker outage, or a worker killed in the middle of it left the flag up). A minute, as
# often as the sweep sent it when it ran every minute: it now runs every few seconds, and a
# recomputation from scratch over every rated event can take seconds, while the stored rating
# of a round in play is renewed with each of its standings.
OVERDUE_SECONDS = 60.0


def ratings_sweep() -> bool:
    """Send the recomputation again when the generation wanted is not stored and was never
    stored or not for OVERDUE_SECONDS (tournaments.tables.verification.verification_sweep calls
    it); True when sent. A recomputation run twice stores nothing the second time."""
    since = timezone.now() - timedelta(seconds=OVERDUE_SECONDS)
    wanted = RatingState.objects.filter(pk=STATE_PK, requested__gt=F("done"))
    if not wanted.filter(Q(stored_at__isnull=True) | Q(stored_at__lt=since)).exists():
        return False
    return enqueue(RECOMPUTE_RATINGS)
