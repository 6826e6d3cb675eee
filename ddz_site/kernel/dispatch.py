"""Sending a Celery task by its name: how services start work in the background without
importing the task modules, which import the services (docs/DESIGN.md, "Layers").

Vocabulary: a *task* is a thin door (games/tasks.py, tournaments/tasks.py) that calls one
idempotent service; services name the task they want run (the constants below) and `enqueue`
finds it in the Celery app's registry. The task modules are imported when the apps are ready
(games.apps, tournaments.apps), so the registry holds them in the web process, the worker and
every management command alike. `DB_TASK_OPTIONS` is the retry policy of every task that writes
the database.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task
from django.db import DatabaseError
from kombu.exceptions import OperationalError as BrokerUnavailable

from ddz_site.celery import app

logger = logging.getLogger(__name__)

# The tasks the services send, by name (the module and function of each task).
VERIFY_GAME = "games.tasks.verify_game"
RECOMPUTE_STANDINGS = "tournaments.tasks.recompute_standings"
RECOMPUTE_RATINGS = "tournaments.tasks.ratings_recompute"

# The retry policy of every task that writes the database (games.tasks and tournaments.tasks):
# a database error is retried with backoff; a task is acknowledged once done, so a lost
# worker's task runs again (each one is idempotent).
DB_TASK_OPTIONS: dict[str, Any] = {
    "autoretry_for": (DatabaseError,),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "max_retries": 8,
    "acks_late": True,
}


def task(name: str) -> Task:
    """The registered task called `name` (KeyError, from Celery's registry, when none is)."""
    found: Task = app.tasks[name]
    return found


def enqueue(name: str, *args: Any, countdown: float | None = None) -> bool:
    """Send the task called `name` with `args` (to run `countdown` seconds from now, default
    at once); False, logged, when the broker cannot be reached.

    Celery retries the publication a few times (task_publish_retry_policy, about a second)
    before it raises; what is lost then is found again by games.tasks.sweep_pending_games.
    """
    try:
        task(name).apply_async(args, countdown=countdown)
    except BrokerUnavailable as exc:
        logger.warning(
            "broker unavailable, %s%r not sent (the sweep sends it): %s", name, args, exc
        )
        return False
    return True
