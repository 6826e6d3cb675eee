"""Celery tasks of tournaments: thin callers of tournaments.services."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from tournaments.services import standings_recompute


@shared_task(
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
)
def recompute_standings(event_id: int) -> bool:
    """Recompute and store the standings of event `event_id` (idempotent)."""
    return standings_recompute(event_id=event_id)
