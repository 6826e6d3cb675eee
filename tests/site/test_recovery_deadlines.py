"""Faults heal within seconds, with the site's own schedule (no test setting shortens it).

- A game stored while the broker was down, with no traffic after: beat's sweep (every
  DDZ_SWEEP_SECONDS, 5 by default) sends it again once it is two sweeps old, so it is sent at
  most three sweeps after it was stored or after the broker came back: 15 s (it was 60 s +
  120 s, about 180 s at worst).
- A worker killed in the middle of the standings it recomputes after its chunk: its flag stays
  up and no later verification sends them; the sweep sends standings overdue by
  OVERDUE_SECONDS (tournaments.standings.requests), so they are sent again within ten
  seconds, not at the next sweep a minute later.

On real PostgreSQL, Redis, a Celery worker process and beat.
"""

from __future__ import annotations

import json
import subprocess
import sys

import psycopg
import pytest
from django.conf import settings

from games.models import Game, Status
from tests.conftest import Worker, _database_url, wait_for
from tests.factories import bot_record, duplicate_round
from tests.paths import ROOT_DIR, site_env
from tests.site.test_faults_lose_nothing import _forget_unacked, _waiting_on_a_lock, broker_down
from tournaments.models import StandingsState
from tournaments.standings import store
from tournaments.standings.requests import OVERDUE_SECONDS
from tournaments.tables.submission import game_submit

# The longest a lost game or lost standings may wait for the sweep after the fault is over,
# by the site's schedule, and in these tests (which add beat's start and a busy machine).
GAME_WORST, STANDINGS_WORST = 15, 10
DEADLINE = 30.0


def _site_schedule() -> dict:
    """The sweep's entry of the beat schedule under the site's defaults (a production
    environment with a broker and nothing else set)."""
    env = site_env()
    env.update(
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="true",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
    )
    code = (
        "import django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.CELERY_BEAT_SCHEDULE['sweep-pending-games']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_sites_sweep_sends_what_a_fault_lost_within_seconds() -> None:
    entry = _site_schedule()
    assert entry["task"] == "games.tasks.sweep_pending_games"
    every, older_than = entry["schedule"], entry["kwargs"]["older_than"]
    # A game lost at the broker's return is sent at the first sweep after it is old enough.
    assert older_than + every <= GAME_WORST
    # Standings overdue are sent at the first sweep after they are overdue.
    assert OVERDUE_SECONDS + every <= STANDINGS_WORST
    # A sweep that waited behind a queue longer than an interval is superseded by the next.
    assert entry["options"]["expires"] <= every


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_game_stored_while_the_broker_was_down_is_verified_within_seconds_without_traffic(
    celery_worker: Worker, celery_beat
) -> None:
    _event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="outage-quiet")
    with broker_down():
        game = game_submit(
            table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0])
        )
    assert Game.objects.get(pk=game.pk).status == Status.PENDING
    # The broker is back and nobody submits anything: only beat, on the site's schedule.
    celery_beat(sweep_seconds=None)
    wait_for(
        lambda: Game.objects.get(pk=game.pk).status != Status.PENDING,
        timeout=DEADLINE,
        what="the site's sweep to have the game verified",
    )
    assert Game.objects.get(pk=game.pk).status == Status.VERIFIED


def _standings_stored(event_id: int) -> bool:
    state = StandingsState.objects.filter(pk=event_id).first()
    return state is not None and state.stored_at is not None and state.done >= state.requested


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_standings_a_killed_worker_left_are_stored_again_within_seconds(
    celery_worker: Worker, celery_beat
) -> None:
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="killed-standings")
    first, second = tables
    game_submit(table=first, board=boards[0], record=bot_record(boards[0], first))
    wait_for(lambda: _standings_stored(event.pk), what="the first standings to be stored")
    try:
        # The writers' lock of the event held from outside: the worker verifies the next game,
        # commits, and waits on the lock in the middle of the standings it recomputes; SIGKILL
        # leaves its flag up (not a race on timing: the worker is certainly inside).
        with psycopg.connect(_database_url(), autocommit=True) as holder:
            holder.execute("SELECT pg_advisory_lock(%s, %s)", [store._LOCK_CLASS, event.pk])
            game = game_submit(table=second, board=boards[0], record=bot_record(boards[0], second))
            wait_for(
                lambda: (
                    Game.objects.get(pk=game.pk).status == Status.VERIFIED and _waiting_on_a_lock()
                ),
                what="the worker to wait on the standings' lock after its chunk",
            )
            celery_worker.kill()
        state = StandingsState.objects.get(pk=event.pk)
        assert state.queued and state.done < state.requested
        celery_worker.restart()
        celery_beat(sweep_seconds=None)
        wait_for(
            lambda: _standings_stored(event.pk),
            timeout=DEADLINE,
            what="the site's sweep to send the standings the killed worker left",
        )
        celery_worker.drain()
    finally:
        if celery_worker.process.poll() is not None:
            celery_worker.restart()
        _forget_unacked(queue)
    assert not StandingsState.objects.get(pk=event.pk).queued
    # The stored rows are those of a recomputation from nothing.
    assert store.standings_recompute(event_id=event.pk) is False
