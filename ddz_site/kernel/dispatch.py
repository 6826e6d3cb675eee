"""Sending a Celery task by its name: how services start work in the background without
importing the task modules, which import the services (docs/DESIGN.md, "Layers").

Vocabulary: a *task* is a thin door (games/tasks.py, tournaments/tasks.py) that calls one
idempotent service; services name the task they want run (the constants below) and `enqueue`
finds it in the Celery app's registry. The task modules are imported when the apps are ready
(games.apps, tournaments.apps), so the registry holds them in the web process, the worker and
every management command alike. `DB_TASK_OPTIONS` is the retry policy of every task that writes
the database.

A broker that cannot be reached costs a request nothing: `enqueue` publishes without retrying,
and after one failure the process sends nothing for PAUSE_SECONDS (the broker is *paused*),
so the requests meanwhile do not try it. What was not sent is in an outbox the sweep reads
(a pending game; standings or a rating wanted and not stored).

A message that stands for all the work of its kind (a verification takes the oldest pending
games, whichever game its message names) is sent with `enqueue_once`: one waits at a time,
and the worker that takes it says so (`taken`), so a burst of 1,200 submissions sends a
handful of messages, not 1,200 that each find their game verified already.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import Task
from django.conf import settings
from django.core.cache import caches
from django.db import DatabaseError
from kombu.exceptions import OperationalError as BrokerUnavailable

from ddz_site.celery import app

logger = logging.getLogger(__name__)

# The tasks the services send, by name (the module and function of each task).
VERIFY_GAME = "games.tasks.verify_game"
RECOMPUTE_STANDINGS = "tournaments.tasks.recompute_standings"
RECOMPUTE_RATINGS = "tournaments.tasks.ratings_recompute"
MAIL_SEND = "tournaments.tasks.mail_send"
ONLINE_CLOSE = "tournaments.tasks.online_close"
ONLINE_FINISH = "tournaments.tasks.online_finish"

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


def tasks_run_at_once() -> bool:
    """Whether a task sent runs at once in the sender's process (no broker: the embedded
    default), so that work split among the workers would only be done one part after the
    other by the sender."""
    return bool(app.conf.task_always_eager)


def task(name: str) -> Task:
    """The registered task called `name` (KeyError, from Celery's registry, when none is)."""
    found: Task = app.tasks[name]
    return found


# How long a process sends nothing after a message could not be sent (seconds): a burst of
# submissions meets a broker that is down once, and messages flow again within seconds of its
# return. Kept per process (a web process's threads share it).
PAUSE_SECONDS = 5.0
_paused_until = 0.0  # time.monotonic() until which this process sends nothing


def enqueue(name: str, *args: Any, countdown: float | None = None) -> bool:
    """Send the task called `name` with `args` (to run `countdown` seconds from now, default
    at once); False, logged, when the broker cannot be reached or is paused.

    The publication is not retried (Celery's retries made every request wait about a second
    while the broker was down); the first failure pauses the broker for PAUSE_SECONDS in this
    process, during which nothing tries it. What is not sent is found again by the sweep
    (games.tasks.sweep_pending_games).
    """
    global _paused_until
    if time.monotonic() < _paused_until:
        logger.info("broker paused, %s%r not sent (the sweep sends it)", name, args)
        return False
    try:
        task(name).apply_async(args, countdown=countdown, retry=False)
    except BrokerUnavailable as exc:
        _paused_until = time.monotonic() + PAUSE_SECONDS
        logger.warning(
            "broker unavailable, %s%r not sent (the sweep sends it); nothing is sent for %ss: %s",
            name,
            args,
            PAUSE_SECONDS,
            exc,
        )
        return False
    return True


def _shared_cache() -> bool:
    """Whether the "shared" cache is one every process of the site sees (Redis): a flag in
    one process's memory would hold back the messages of a work another process took."""
    return str(settings.CACHES["shared"]["BACKEND"]).endswith("RedisCache")


def enqueue_once(name: str, *args: Any, key: str, seconds: float) -> bool:
    """Send the task called `name` with `args` unless a message sent under `key` still waits
    for a worker (one that has not called `taken(key)`); True when one waits, sent now or
    before. The flag lives in the shared cache for `seconds` at most, so a message lost
    with its worker holds back the next ones no longer than that (the sweep sends its work
    meanwhile). Without a shared cache, when tasks run at once (the embedded default), or
    when the cache does not answer, it sends every time, as `enqueue`."""
    if app.conf.task_always_eager or not _shared_cache():
        return enqueue(name, *args)
    cache = caches["shared"]
    try:
        if not cache.add(key, 1, timeout=seconds):
            return True
    except Exception:  # a cache that does not answer (Redis down): send, as without one
        logger.warning("shared cache unavailable: %s%r sent without coalescing", name, args)
        return enqueue(name, *args)
    if enqueue(name, *args):
        return True
    taken(key)  # not sent: the next change tries again
    return False


def taken(key: str) -> None:
    """A worker took the message waiting under `key` (enqueue_once): the next change sends
    another. Taken before the work is read, so a change committed after the read sends one."""
    if not _shared_cache():
        return
    try:
        caches["shared"].delete(key)
    except Exception:  # the flag expires by itself
        logger.warning("shared cache unavailable: the flag %s expires by itself", key)
