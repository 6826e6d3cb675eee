"""Celery tasks of games: thin callers of games.services, enqueued after commit by id."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from games.services import game_verify


@shared_task(
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
    acks_late=True,
)
def verify_game(game_id: int) -> bool:
    """Replay game `game_id` through the engine and store the result (idempotent)."""
    return game_verify(game_id=game_id)
