"""Celery tasks of games: thin callers of games.services, enqueued after commit by id.

A stored game is pending until its verification ran: the pending games are the outbox of
verification. `enqueue` sends a task after commit and never fails the request that stored the
game (a broker that is down is logged); `sweep_pending_games`, sent by beat every
DDZ_SWEEP_SECONDS (settings.CELERY_BEAT_SCHEDULE), sends again the verification of games
pending too long, whose message a broker outage or a dead worker lost.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.db import DatabaseError
from kombu.exceptions import OperationalError as BrokerUnavailable

from games.services import VERIFY_BATCH, games_verify, verification_sweep

logger = logging.getLogger(__name__)

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


def enqueue(task: Task, *args: Any, countdown: float | None = None) -> bool:
    """Send `task` with `args` (to run `countdown` seconds from now, default at once); False,
    logged, when the broker cannot be reached.

    Celery retries the publication a few times (task_publish_retry_policy, about a second)
    before it raises; what is lost then is found again by `sweep_pending_games`.
    """
    try:
        task.apply_async(args, countdown=countdown)
    except BrokerUnavailable as exc:
        logger.warning(
            "broker unavailable, %s%r not sent (the sweep sends it): %s", task.name, args, exc
        )
        return False
    return True


@shared_task(**DB_TASK_OPTIONS)
def verify_game(game_id: int) -> bool:
    """Replay game `game_id` through the engine and store the result (idempotent), with up to
    VERIFY_BATCH - 1 other pending games when the queue is deep (games.services.games_verify),
    then the standings they move (at once, unless a recomputation is queued or running); True
    when this task stored game `game_id`."""
    return game_id in games_verify(game_ids=[game_id], fill=VERIFY_BATCH, standings_inline=True)


@shared_task(**DB_TASK_OPTIONS)
def sweep_pending_games(older_than: float = 120) -> int:
    """Send again the verification of games pending for more than `older_than` seconds, and
    the standings of events whose games were verified meanwhile; the number of games sent."""
    return verification_sweep(older_than=older_than)
