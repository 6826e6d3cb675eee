"""A broker that is down costs a submission nothing.

With Redis unreachable, a game is stored, answered and left pending (the outbox of
verification, which the sweep sends once the broker is back). The first message that cannot be
sent gives up at once (no publish retries: a second of retries made every submission wait about
a second, so two web workers took about 3 submissions a second), and the process remembers the
failure for a few seconds (ddz_site.kernel.dispatch.PAUSE_SECONDS): the submissions after it
do not try the broker at all. Once the pause has passed, the next message tries again, and a
broker that is back takes it.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import pytest
from celery import Task
from django.conf import settings
from django.test import Client

from ddz_site.kernel import dispatch
from games.models import Game, Status
from tests.entry_personas import build_world
from tests.factories import bot_record
from tests.site.test_faults_lose_nothing import _games_path, broker_down

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_pause_before_or_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts without a pause of this process, and leaves none to the next test."""
    monkeypatch.setattr(dispatch, "_paused_until", 0.0)


@pytest.fixture
def publications(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every attempt to publish a task from this process, with its options (the publication
    itself still runs)."""
    seen: list[dict[str, Any]] = []
    real = Task.apply_async

    def apply_async(self: Task, *args: Any, **kwargs: Any) -> Any:
        seen.append({"task": self.name, **kwargs})
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Task, "apply_async", apply_async)
    return seen


def test_submissions_with_the_broker_down_are_stored_and_answered_at_once(
    publications: list[dict[str, Any]],
) -> None:
    world = build_world(seed="broker-outage", tables=1, boards=6)
    client = Client(raise_request_exception=False)
    client.force_login(world.users["chief"])
    took = []
    with broker_down():
        for board in range(6):
            record = bot_record(world.boards[board], world.tables[0])
            started = time.perf_counter()
            response = client.post(
                _games_path(world, board=board), {"record": record}, content_type="application/json"
            )
            took.append(time.perf_counter() - started)
            assert response.status_code == 201, response.content[:500]
    # Every game is stored and waits in the outbox of verification.
    assert Game.objects.filter(status=Status.PENDING).count() == 6
    # One attempt to reach the broker, and it gave up without retrying; the five submissions
    # after it went straight to the outbox.
    assert [p["task"] for p in publications] == [dispatch.VERIFY_GAME]
    assert publications[0]["retry"] is False
    # Before, each submission waited about a second for the publication's retries.
    assert statistics.median(took[1:]) < 0.2, took


def test_the_first_message_that_cannot_be_sent_gives_up_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with broker_down():
        # Once, for what a process loads the first time it sends anything.
        dispatch.enqueue(dispatch.VERIFY_GAME, 1)
        monkeypatch.setattr(dispatch, "_paused_until", 0.0)
        started = time.perf_counter()
        sent = dispatch.enqueue(dispatch.VERIFY_GAME, 1)
        took = time.perf_counter() - started
    assert sent is False
    # A refused connection is known at once; the publication's retries took about a second.
    assert took < 0.3, took


def test_one_failure_pauses_the_broker_then_a_broker_back_takes_the_next_message(
    monkeypatch: pytest.MonkeyPatch, publications: list[dict[str, Any]]
) -> None:
    from ddz_site.celery import app

    monkeypatch.setattr(dispatch, "PAUSE_SECONDS", 0.5)
    no_event = 0  # a recomputation of no event: a worker that takes it does nothing
    with broker_down():
        assert dispatch.enqueue(dispatch.RECOMPUTE_STANDINGS, no_event) is False
        # Paused: the next messages do not try the broker.
        assert dispatch.enqueue(dispatch.RECOMPUTE_STANDINGS, no_event) is False
        assert dispatch.enqueue(dispatch.VERIFY_GAME, no_event) is False
        assert len(publications) == 1
        time.sleep(0.6)
        # The pause over, the next message tries again, fails, and pauses again.
        assert dispatch.enqueue(dispatch.RECOMPUTE_STANDINGS, no_event) is False
        assert dispatch.enqueue(dispatch.RECOMPUTE_STANDINGS, no_event) is False
        assert len(publications) == 2
    # The broker is back (broker_down lifts the pause): the next messages are sent.
    try:
        assert dispatch.enqueue(dispatch.RECOMPUTE_STANDINGS, no_event) is True
        assert dispatch.enqueue(dispatch.RECOMPUTE_STANDINGS, no_event) is True
        assert len(publications) == 4
    finally:
        app.control.purge()  # this run's queue


def test_the_pause_is_a_few_seconds_and_a_connection_gives_up_within_a_second() -> None:
    # Long enough that a burst of submissions meets the broker once, short enough that
    # messages flow again within seconds of the broker's return (the sweep sends what the
    # pause left in the outbox).
    assert 1 <= dispatch.PAUSE_SECONDS <= 10
    # A broker that does not answer at all (a lost machine, a firewall): the first message
    # waits at most this long to connect, where the operating system waited minutes.
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    assert 0 < options["socket_connect_timeout"] <= 1
    assert 0 < options["socket_timeout"] <= 10
