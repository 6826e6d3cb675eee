"""Standings wanted and overdue are sent again by the sweep; standings a worker is about to
compute are left to it.

A worker keeps up with the room by recomputing 0.25 s after the last store; one draining a
queue leaves the standings for DRAIN_FRESH_TIMES times as long as their last recomputation
took (tournaments.standings.requests). Standings wanted (requested > done) and older than that
by OVERDUE_SECONDS have lost their recomputation: a worker killed in the middle of it (its flag
`queued` still up, so no later request sends one) or its message lost with the broker. The
sweep, every few seconds (settings.DDZ_SWEEP_SECONDS), sends those again, and only those: the
others are coming, and sending them every few seconds would recompute a large event in the
middle of a drain.
"""

from __future__ import annotations

from datetime import timedelta
from unittest.mock import patch

import pytest
from django.utils import timezone

from ddz_site.kernel.dispatch import RECOMPUTE_STANDINGS
from tests.factories import EventFactory
from tournaments.models import StandingsState
from tournaments.standings.requests import DRAIN_FRESH_TIMES, OVERDUE_SECONDS, standings_overdue
from tournaments.tables.verification import verification_sweep

pytestmark = pytest.mark.django_db


def _state(*, wanted: bool, stored_ago: float | None, took: float = 0.1, queued: bool = False):
    """An event whose standings were stored `stored_ago` seconds ago (None: never), their
    recomputation having taken `took` seconds, and more wanted since (`wanted`)."""
    event = EventFactory()
    now = timezone.now()
    stored_at = None if stored_ago is None else now - timedelta(seconds=stored_ago)
    StandingsState.objects.create(
        event=event,
        requested=3 if wanted else 2,
        done=2,
        queued=queued,
        read_at=None if stored_at is None else stored_at - timedelta(seconds=took),
        stored_at=stored_at,
    )
    return event.pk


def test_the_sweep_sends_only_the_overdue_standings() -> None:
    # A worker killed in the middle of a recomputation a minute ago: its flag is still up.
    killed = _state(wanted=True, stored_ago=60, queued=True)
    # Wanted and never stored (the first recomputation's message lost).
    never = _state(wanted=True, stored_ago=None)
    # Just stored, more wanted: the worker verifying the event's games recomputes them next.
    coming = _state(wanted=True, stored_ago=1, queued=True)
    # A large event drained: stored 8 s ago after 2 s of recomputation, left for 3 × 2 s.
    draining = _state(wanted=True, stored_ago=2 + DRAIN_FRESH_TIMES * 2, took=2, queued=True)
    # Nothing wanted, however old.
    _state(wanted=False, stored_ago=3600)
    with patch("tournaments.tables.verification.enqueue", return_value=True) as sent:
        verification_sweep(older_than=60)
    events = [c.args[1] for c in sent.call_args_list if c.args[0] == RECOMPUTE_STANDINGS]
    assert sorted(events) == sorted([killed, never])
    assert coming not in events and draining not in events


def test_standings_become_overdue_after_what_a_worker_leaves_them_and_a_few_seconds() -> None:
    assert 1 <= OVERDUE_SECONDS <= 10
    took = 0.5
    now = timezone.now()
    left = DRAIN_FRESH_TIMES * took  # the longest a draining worker leaves them
    before = _state(wanted=True, stored_ago=left + OVERDUE_SECONDS - 1, took=took)
    after = _state(wanted=True, stored_ago=left + OVERDUE_SECONDS + 1, took=took)
    overdue = standings_overdue(now=now)
    assert after in overdue and before not in overdue
