"""Celery tasks of tournaments: thin callers of the standings service, sent by name
(ddz_site.dispatch), never imported by a service; and a worker's start, which reads ahead
the boards of the events in play (tournaments.standings.standings_warm)."""

from __future__ import annotations

import threading
from typing import Any

from celery import shared_task, signals
from celery.concurrency.thread import TaskPool as ThreadPool
from django.db import connections

from ddz_site.dispatch import DB_TASK_OPTIONS
from tournaments.ratings import ratings_refresh
from tournaments.standings import standings_refresh, standings_warm


def _read_ahead() -> None:
    try:
        standings_warm()
    finally:
        connections.close_all()  # this thread's own connection


def read_ahead_in_background() -> threading.Thread:
    """Start reading ahead the boards of the events in play (standings_warm) in a thread of
    this process, on a database connection of its own, and return the thread: the process
    takes tasks meanwhile (a prefork process that is not up within 4 s is killed), and its
    first recomputation of an event in play then reads only what changed."""
    thread = threading.Thread(target=_read_ahead, name="ddz-standings-read-ahead", daemon=True)
    thread.start()
    return thread


@signals.worker_process_init.connect
def warm_pool_process(**_kwargs: Any) -> None:
    """A process that runs tasks reads ahead when it starts: each process of the prefork pool,
    and the main process of a `--pool=solo` worker (its pool sends this signal too)."""
    read_ahead_in_background()


@signals.worker_ready.connect
def warm_worker(sender: Any = None, **_kwargs: Any) -> None:
    """The same for a `--pool=threads` worker, whose pool sends no process signal."""
    if isinstance(getattr(sender, "pool", None), ThreadPool):
        read_ahead_in_background()


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
