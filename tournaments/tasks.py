"""Celery tasks: thin callers of one idempotent service each, sent by name
(ddz_site.kernel.dispatch) after commit, never imported by a service; and a worker's start, which
reads ahead the boards of the events in play (tournaments.standings.store.standings_warm).

The verification of games (verify_game, sweep_pending_games) keeps the names it had when the
task lived in the games app (`name=` pins them): messages already in a broker, the beat
schedule (settings.CELERY_BEAT_SCHEDULE) and ddz_site.kernel.dispatch use those names. A stored game
is pending until its verification ran: the pending games are the outbox of verification, and
`sweep_pending_games`, sent by beat every DDZ_SWEEP_SECONDS, sends again the verification of
games pending too long, whose message a broker outage or a dead worker lost, and the standings
whose recomputation was lost; and the mails waiting or left by a killed worker (mail_send,
tournaments.core.outbox).
"""

from __future__ import annotations

import threading
from typing import Any

from celery import shared_task, signals
from celery.concurrency.thread import TaskPool as ThreadPool
from django.db import connections

from ddz_site.kernel.dispatch import DB_TASK_OPTIONS
from tournaments.core.access import sweep_for
from tournaments.core.outbox import mail_deliver, mail_sweep
from tournaments.models import Event
from tournaments.online.close import (
    NOT_DUE,
    online_boards_finish,
    online_sweep,
    online_window_close,
)
from tournaments.ratings.service import ratings_refresh
from tournaments.standings.requests import standings_refresh
from tournaments.standings.store import standings_warm
from tournaments.tables.verification import verification_run, verification_sweep


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
    (tournaments.standings.requests.standings_refresh; idempotent)."""
    return standings_refresh(event_id=event_id)


@shared_task(**DB_TASK_OPTIONS)
def ratings_recompute() -> int:
    """Recompute the duplicate-aware rating from scratch once for a burst of requests
    (tournaments.ratings.service.ratings_refresh; idempotent); the number of rows written."""

    return ratings_refresh()


@shared_task(name="games.tasks.verify_game", **DB_TASK_OPTIONS)
def verify_game(game_id: int) -> bool:
    """Replay game `game_id` through the engine and store the result (idempotent), with up to
    VERIFY_BATCH - 1 other pending games, the oldest first, then the standings they move (at
    once, unless a recomputation is queued or running); the next message sent when the batch
    came full (tournaments.tables.verification.verification_run). True when this task stored
    game `game_id`."""
    return verification_run(game_id=game_id)


@shared_task(name="games.tasks.sweep_pending_games", **DB_TASK_OPTIONS)
def sweep_pending_games(older_than: float = 120) -> int:
    """Send again the verification of games pending for more than `older_than` seconds (a
    message a chunk), the overdue standings and the rating wanted
    (tournaments.tables.verification.verification_sweep); the number of games sent. The mails
    waiting, or whose claim's lease expired, are sent again too
    (tournaments.core.outbox.mail_sweep). Online play's tables whose wait is over are filled by
    robots, the moves whose time ran out are played by the robots, and the online windows that
    ended are closed (tournaments.online.close)."""
    mail_sweep(older_than=older_than)
    sent = verification_sweep(older_than=older_than)
    online_sweep()  # last: the pipeline's own sweeps never wait on it
    return sent


@shared_task(**DB_TASK_OPTIONS)
def online_close(event_id: int, asked_by: str = "") -> str:
    """Close the window of the online event `event_id` once its end is past (the organizer
    `asked_by`, a user name, ended it now: tournaments.online.close.online_window_end_now);
    what the close answered."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return NOT_DUE
    return online_window_close(event=event, actor=sweep_for(asked_by))


@shared_task(**DB_TASK_OPTIONS)
def online_finish(event_id: int, table_ids: list[int], asked_by: str = "") -> str:
    """One chunk of an online window's close shared among the workers: the boards of
    `table_ids` still in play finished, then the close asked again
    (tournaments.online.close.online_boards_finish); what the close answered."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return NOT_DUE
    return online_boards_finish(event=event, table_ids=table_ids, actor=sweep_for(asked_by))


@shared_task(**DB_TASK_OPTIONS)
def mail_send(mail_id: int) -> str:
    """One attempt at sending the queued mail `mail_id` (tournaments.core.outbox.mail_deliver:
    claimed, sent, marked sent; an SMTP error puts it back with a due time); its outcome."""
    return mail_deliver(mail_id=mail_id)
