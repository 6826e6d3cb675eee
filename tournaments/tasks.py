"""Celery tasks of tournaments: thin callers of tournaments.services."""

from __future__ import annotations

from celery import shared_task

from games.tasks import DB_TASK_OPTIONS
from tournaments.services import standings_recompute


@shared_task(**DB_TASK_OPTIONS)
def recompute_standings(event_id: int) -> bool:
    """Recompute and store the standings of event `event_id` (idempotent)."""
    return standings_recompute(event_id=event_id)
