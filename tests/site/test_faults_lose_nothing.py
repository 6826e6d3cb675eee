"""Faults lose nothing.

On real PostgreSQL, Redis and Celery worker processes:

- the database lost in the middle of an entry (its backend terminated, as a PostgreSQL restart
  does): the referee gets 503 "try again", no half-written version is left, and the next
  request works with no one doing anything; the database unreachable (a closed port): the
  same; the database lost just after the commit: the stored game is answered (201);
- the broker down at commit: the game is stored and answered, and beat's sweep has it verified
  once the broker is back;
- a worker killed with SIGKILL while it holds a verification (its batch held before commit
  on a row lock, so the kill never lands after the commit): beat's sweep has it verified by
  the next worker, each game is verified, and the standings equal a full recompute;
- 200 concurrent submissions over HTTP, with retries under one idempotency key and a race of
  many referees on one table and board: one current game per table and board, retries answered
  with the first game, the losers of the race 409, and no 5xx.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game, Status
from tests.conftest import Worker, _database_url, wait_for
from tests.entry_personas import build_world
from tests.factories import bot_record, duplicate_round
from tournaments.models import AuditEntry, EventRole, Role, Standing, StandingsState

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CSRF = "reliabilitycsrftoken0123456789ab"  # any 32 letters and digits (Django's format)


def _terminate(pid: int) -> None:
    """End one backend of the test database as a PostgreSQL restart does, from another
    connection, and wait until it is gone."""
    with psycopg.connect(_database_url(), autocommit=True) as side:
        side.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):
            row = side.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
            if row is None:
                return
            time.sleep(0.02)


def _terminate_this_connection() -> None:
    _terminate(connection.connection.info.backend_pid)


def _session(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _http(
    base: str,
    path: str,
    *,
    session: str | None = None,
    body: Any = None,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One request to the live server: status, headers, body (no exception for 4xx/5xx)."""
    data = None
    sent = {"Accept": "application/json", **(headers or {})}
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent["Accept"] = "text/html"
    if session is not None:
        sent["Cookie"] = f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={CSRF}"
        sent["X-CSRFToken"] = CSRF
    request = urllib.request.Request(base + path, data=data, headers=sent)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def _games_path(world: Any, table: int = 0, board: int = 0) -> str:
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[table].pk,
        "number": world.boards[board].number,
    }
    return reverse("api:games", kwargs=kw)


def _enter_path(world: Any, table: int = 0, board: int = 0) -> str:
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[table].pk,
        "number": world.boards[board].number,
    }
    return reverse("referee:enter", kwargs=kw)


@pytest.fixture
def dying_audit(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The next game_submit loses its database in the middle of its transaction (after the
    game row is written, before the audit entry); returns the list of terminations."""
    import tournaments.tables.submission as audit  # game_submit's audit_record

    real = audit.audit_record
    done: list[int] = []

    def audit_record(**kwargs: Any) -> Any:
        if not done:
            done.append(connection.connection.info.backend_pid)
            _terminate_this_connection()
        return real(**kwargs)

    monkeypatch.setattr(audit, "audit_record", audit_record)
    return done


def test_database_lost_in_the_middle_of_entry_answers_try_again_and_recovers(
    live_server, dying_audit
) -> None:
    world = build_world(seed="db-lost")
    session = _session(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])

    status, headers, body = _http(
        live_server.url, _games_path(world), session=session, body={"record": record}
    )
    assert dying_audit, "the database was not lost in the middle of the entry"
    assert status == 503, body[:500]
    error = json.loads(body)["error"]
    assert error["code"] == "unavailable" and "Try again" in error["message"]
    assert int(headers["Retry-After"]) > 0
    assert Game.objects.count() == 0  # no half-written version
    assert not AuditEntry.objects.filter(action__startswith="game.").exists()

    # Nobody restarts anything: the referee sends it again and it is stored, version 1.
    status, _headers, body = _http(
        live_server.url, _games_path(world), session=session, body={"record": record}
    )
    assert status == 201, body[:500]
    game = Game.objects.get()
    assert game.pk == json.loads(body)["id"] and game.version == 1

    # The page door: the same "try again", on a page, and nothing stored.
    dying_audit.clear()
    record = bot_record(world.boards[1], world.tables[0])
    form = {"record": json.dumps(record)}
    status, headers, body = _http(
        live_server.url, _enter_path(world, board=1), session=session, form=form
    )
    assert status == 503 and "Retry-After" in headers
    page = body.decode()
    assert "Try again" in page and "send it again" in page
    assert Game.objects.filter(board=world.boards[1]).count() == 0
    status, _headers, _body = _http(
        live_server.url, _enter_path(world, board=1), session=session, form=form
    )
    assert status == 302
    assert Game.objects.filter(board=world.boards[1], version=1).count() == 1


def test_database_unreachable_answers_try_again_and_the_site_recovers(live_server) -> None:
    world = build_world(seed="db-down")
    session = _session(world.users["referee1"])
    event_page = reverse("public:event", kwargs={"slug": world.event.slug})
    assert _http(live_server.url, event_page)[0] == 200
    record = bot_record(world.boards[0], world.tables[0])
    port = connection.settings_dict["PORT"]
    # Every new connection (each request of the live server opens one) goes to a closed port.
    connection.settings_dict["PORT"] = "9"
    try:
        status, headers, body = _http(live_server.url, event_page)
        assert status == 503 and "Try again" in body.decode()
        assert "Retry-After" in headers
        status, _headers, body = _http(
            live_server.url, _games_path(world), session=session, body={"record": record}
        )
        assert status == 503 and json.loads(body)["error"]["code"] == "unavailable"
    finally:
        connection.settings_dict["PORT"] = port
    assert _http(live_server.url, event_page)[0] == 200
    status, _headers, body = _http(
        live_server.url, _games_path(world), session=session, body={"record": record}
    )
    assert status == 201, body[:500]
    assert Game.objects.count() == 1


def test_database_lost_after_the_commit_still_answers_the_stored_game(monkeypatch) -> None:
    from tournaments.api import views

    world = build_world(seed="db-after")
    real = views.game_submit

    def submit_then_lose_the_database(**kwargs: Any) -> Game:
        game = real(**kwargs)
        _terminate_this_connection()
        return game

    monkeypatch.setattr(views, "game_submit", submit_then_lose_the_database)
    client = Client(raise_request_exception=False)
    client.force_login(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    response = client.post(_games_path(world), {"record": record}, content_type="application/json")
    connection.close()  # the test's connection was the request's: open a new one
    assert response.status_code == 201, response.content[:500]
    game = Game.objects.get()
    assert response.json()["id"] == game.pk and response.json()["version"] == 1


@contextmanager
def broker_down() -> Any:
    """Publishing fails as with Redis stopped: the app's connections go to a closed port. The
    broker is back on exit, and this process's pause (ddz_site.kernel.dispatch) is lifted, so
    that the tests after it send their tasks at once."""
    from ddz_site.celery import app
    from ddz_site.kernel import dispatch

    saved = (app.conf.broker_url, app.conf.broker_write_url, app._pool, app.amqp._producer_pool)
    app.conf.broker_url = app.conf.broker_write_url = "redis://127.0.0.1:9/15"
    app._pool = None
    app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.broker_write_url = saved[0], saved[1]
        app._pool, app.amqp._producer_pool = saved[2], saved[3]
        dispatch._paused_until = 0.0


def test_broker_down_at_commit_stores_answers_and_beat_has_it_verified(
    celery_worker: Worker, celery_beat
) -> None:
    world = build_world(seed="broker-down")
    client = Client(raise_request_exception=False)
    client.force_login(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    with broker_down():
        response = client.post(
            _games_path(world), {"record": record}, content_type="application/json"
        )
    assert response.status_code == 201, response.content[:500]
    game = Game.objects.get()
    assert game.status == Status.PENDING
    # Nothing is sent again by hand: beat's sweep finds the pending game once it is old enough.
    celery_beat()
    wait_for(
        lambda: Game.objects.get(pk=game.pk).status != Status.PENDING,
        timeout=60,
        what="beat's sweep and the worker to verify the game",
    )
    assert Game.objects.get(pk=game.pk).status == Status.VERIFIED


def _held_verifications(queue: str) -> list[bytes]:
    """The delivery tags of verify_game messages of `queue` that a worker took and has not
    acknowledged (kombu's Redis transport keeps them in the hash "unacked")."""
    from ddz_site.celery import app

    tags = []
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        for tag, raw in client.hgetall("unacked").items():
            message, _exchange, routing_key = json.loads(raw)
            task = message.get("headers", {}).get("task")
            if routing_key == queue and task == "games.tasks.verify_game":
                tags.append(tag)
    return tags


def _forget_unacked(queue: str) -> None:
    """Remove the killed worker's unacknowledged messages of this run's queue from Redis, so
    that no later run restores them into a queue nobody reads."""
    from ddz_site.celery import app

    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        for tag, raw in client.hgetall("unacked").items():
            if json.loads(raw)[2] == queue:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)


@contextmanager
def _standings_row_locked(event_id: int) -> Any:
    """Hold the row lock of an event's StandingsState from another connection: a worker that
    verified games of the event waits on it inside its batch, before the commit, holding its
    message unacknowledged (games_verify requests the standings in the batch's transaction)."""
    StandingsState.objects.get_or_create(event_id=event_id)
    with psycopg.connect(_database_url()) as other, other.transaction():
        other.execute(
            f"SELECT 1 FROM {StandingsState._meta.db_table} WHERE event_id = %s FOR UPDATE",
            [event_id],
        )
        yield


def _waiting_on_a_lock() -> bool:
    """Whether a backend of the test database waits for a lock (the worker's batch)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def test_a_worker_killed_in_the_middle_of_a_batch_loses_no_verification(
    celery_worker: Worker, celery_beat
) -> None:
    from tournaments.standings.store import standings_recompute
    from tournaments.tables.submission import game_submit

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    event, _round, tables, boards = duplicate_round(tables=20, boards=2, seed="sigkill")
    try:
        # The worker's first batch waits on the standings row before its commit, holding its
        # message; SIGKILL then acknowledges nothing and gives nothing back to the queue. (Not
        # a race on timing: a kill after the commit and before the acknowledgement would find
        # nothing lost and prove nothing.)
        with _standings_row_locked(event.pk):
            games = [
                game_submit(table=t, board=b, record=bot_record(b, t))
                for t in tables
                for b in boards
            ]
            wait_for(
                lambda: bool(_held_verifications(queue)) and _waiting_on_a_lock(),
                what="the worker to hold a batch, waiting for the standings row",
            )
            celery_worker.kill()
        assert Game.objects.filter(status=Status.PENDING).count() == len(games)
        celery_worker.restart()
        celery_beat()
        wait_for(
            lambda: not Game.objects.filter(status=Status.PENDING).exists(),
            timeout=90,
            what="beat's sweep and the new worker to verify the lost games",
        )
        celery_worker.drain()
    finally:
        if celery_worker.process.poll() is not None:
            celery_worker.restart()
        _forget_unacked(queue)
    stored = Game.objects.filter(pk__in=[g.pk for g in games])
    assert set(stored.values_list("status", flat=True)) == {Status.VERIFIED}
    assert not stored.filter(verified_at__isnull=True).exists()
    # The standings equal a full recompute: recomputing them changes nothing. A worker killed
    # while it recomputed leaves the standings wanted; the sweep sends them again.
    wait_for(
        lambda: Standing.objects.filter(event=event).count() == 3 * len(tables),
        timeout=30,
        what="the sweep to send the standings the killed worker left wanted",
    )
    celery_worker.drain()
    assert standings_recompute(event_id=event.pk) is False


def test_the_sweep_runs_on_beat_and_a_dead_workers_task_returns_within_minutes() -> None:
    schedule = settings.CELERY_BEAT_SCHEDULE
    sweep = [e for e in schedule.values() if e["task"] == "games.tasks.sweep_pending_games"]
    assert len(sweep) == 1 and sweep[0]["schedule"] <= 300
    # Kombu's default is an hour; a task of a dead worker must come back well before.
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert 60 < timeout <= 600


@pytest.mark.slow
def test_two_hundred_concurrent_submissions_over_http_store_one_game_per_table_and_board(
    live_server,
) -> None:
    event, _round, tables, boards = duplicate_round(tables=16, boards=5, seed="http-load")
    from django.contrib.auth.models import User

    officials = []
    for i in range(4):
        user = User.objects.create_user(f"load-chief-{i}", password="x")
        EventRole.objects.create(event=event, user=user, role=Role.CHIEF_REFEREE)
        officials.append(_session(user))

    def path(t: Any, b: Any) -> str:
        kw = {"slug": event.slug, "table_id": t.pk, "number": b.number}
        return reverse("api:games", kwargs=kw)

    pairs = [(t, b) for t in tables for b in boards]  # 80 table × board pairs
    retried, raced = pairs[:70], pairs[70]
    jobs: list[tuple[str, tuple[int, int], dict[str, Any], str | None]] = []
    for t, b in retried:  # 140 requests: each pair twice at once with one key
        for _ in range(2):
            jobs.append((path(t, b), (t.pk, b.pk), bot_record(b, t), f"retry-{t.pk}-{b.pk}"))
    t, b = raced  # 30 referees race on one pair, each with his own key
    for i in range(30):
        jobs.append((path(t, b), (t.pk, b.pk), bot_record(b, t, seed=f"r{i}"), f"race-{i}"))
    for t, b in pairs[71:]:  # 9 pairs, once each without a key: 179 requests so far
        jobs.append((path(t, b), (t.pk, b.pk), bot_record(b, t), None))
    for t, b in pairs[:21]:  # 21 more retries of the first pairs, after the fact: 200
        jobs.append((path(t, b), (t.pk, b.pk), bot_record(b, t), f"retry-{t.pk}-{b.pk}"))
    assert len(jobs) == 200
    # Interleave so that the two calls of a retried pair run at once in different threads.
    first, rest = jobs[:140], jobs[140:]
    jobs = first[0::2] + rest[:30] + first[1::2] + rest[30:]

    results: list[tuple[int, tuple[int, int], str | None, Any]] = [None] * len(jobs)  # type: ignore[list-item]
    lock = threading.Lock()
    queue = list(enumerate(jobs))
    barrier = threading.Barrier(20)

    def run() -> None:
        barrier.wait()
        while True:
            with lock:
                if not queue:
                    return
                i, (url, pair, record, key) = queue.pop(0)
            headers = {"Idempotency-Key": key} if key else {}
            status, _headers, body = _http(
                live_server.url,
                url,
                session=officials[i % len(officials)],
                body={"record": record},
                headers=headers,
            )
            try:
                answer = json.loads(body)
            except ValueError:
                answer = body[:300]
            results[i] = (status, pair, key, answer)

    threads = [threading.Thread(target=run) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)

    statuses = Counter(r[0] for r in results)
    assert not [r for r in results if r[0] >= 500], statuses
    assert set(statuses) <= {200, 201, 409}, statuses
    # One current game per table and board, each version 1, one audit entry each.
    current = Game.objects.filter(board__event=event, replaced_at__isnull=True)
    assert Counter((g.table_id, g.board_id) for g in current) == Counter(
        (t.pk, b.pk) for t, b in pairs
    )
    assert set(current.values_list("version", flat=True)) == {1}
    assert Game.objects.filter(board__event=event).count() == len(pairs)
    assert AuditEntry.objects.filter(event=event, action="game.submit").count() == len(pairs)
    # Every request of a retried key is answered with the same game; one of them stored it.
    by_key: dict[str, set[int]] = {}
    for status, _pair, key, answer in results:
        if key and key.startswith("retry-"):
            assert status in (200, 201), (status, answer)
            by_key.setdefault(key, set()).add(answer["id"])
    assert all(len(ids) == 1 for ids in by_key.values())
    # The race on one pair: one stored (201), every other referee told of the conflict (409).
    race = [r for r in results if r[2] and r[2].startswith("race-")]
    assert sorted(r[0] for r in race) == [201] + [409] * 29
    assert all(r[3]["error"]["code"] == "conflict" for r in race if r[0] == 409)
