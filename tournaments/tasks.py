"""Celery tasks of tournaments: thin callers of the standings service, sent by name
(ddz_site.dispatch), never imported by a service."""

from __future__ import annotations

from celery import shared_task

from ddz_site.dispatch import DB_TASK_OPTIONS
from tournaments.ratings import ratings_refresh
from tournaments.standings import standings_refresh


@shared_task(**DB_TASK_OPTIONS)
def recompute_standings(event_id: int) -> bool:
    """Store the standings wanted now of event `event_id`, once for a burst of requests
    (tournaments.standings.standings_refresh; idempotent)."""
    return standings_refresh(event_id=event_id)


@shared_task(**DB_TASK_OPTIONS)
def ratings_recompute() -> int:
    """Recompute the duplicate-aware rating from scratch once for a burst of requests
    (tournaments.ratings.ratings_refresh; idempotent); the number of rows written."""

    return ratings_refresh()
