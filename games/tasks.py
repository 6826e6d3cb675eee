"""Celery tasks of games: thin callers of games.services, enqueued after commit by id."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from games.services import game_verify

# The retry policy of every task that writes the database (these and tournaments.tasks): a
# database error is retried with backoff; a task is acknowledged once done, so a lost worker's
# task runs again (each one is idempotent).
DB_TASK_OPTIONS: dict[str, Any] = {
    "autoretry_for": (DatabaseError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
    "acks_late": True,
}


@shared_task(**DB_TASK_OPTIONS)
def verify_game(game_id: int) -> bool:
    """Replay game `game_id` through the engine and store the result (idempotent)."""
    return game_verify(game_id=game_id)
