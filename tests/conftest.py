"""Fixtures of the Django side: model factories, a real Celery worker process, helpers.

The suite runs on PostgreSQL with a Redis broker (ddz_site.settings_test). Tests that exercise
Celery use `celery_worker`: a real `celery -A ddz_site worker` subprocess on the test database
and on a queue private to this test run. Such tests must be `django_db(transaction=True)` so
that what they write is committed and visible to the worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache, caches

from tests.entry_personas import build_world
from tests.factories import EventFactory, PlayerFactory
from tests.smtp_server import SmtpSink
from tournaments.events import round_states, rounds, stages
from tournaments.links import tokens as link_tokens
from tournaments.models import Entry, EventRole, Role

ROOT = Path(__file__).resolve().parent.parent


def wait_for(predicate: Callable[[], Any], *, timeout: float = 60.0, what: str = "") -> Any:
    """Poll `predicate` until it returns something truthy; fail the test after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what or predicate}")
        time.sleep(0.1)


def race(n: int, action: Callable[[], Any]) -> list[object]:
    """Run `action` in `n` threads released at once (each on its own database connection);
    the results, or the DomainError each raised, in the order they finished."""
    import threading

    from django.db import connection

    from ddz_site.kernel.errors import DomainError

    barrier = threading.Barrier(n)
    outcomes: list[object] = []

    def run() -> None:
        barrier.wait()
        try:
            outcomes.append(action())
        except DomainError as exc:
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


class Worker:
    """A running Celery worker subprocess; `log()` is its output so far (of every process that
    served as this worker: `kill` and `restart` replace the process, as a crash and a
    supervisor would)."""

    def __init__(
        self, process: subprocess.Popen[bytes], log_path: Path, name: str, env: dict[str, str]
    ) -> None:
        self.process = process
        self.log_path = log_path
        self.name = name
        self.env = env

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL the worker process: it acknowledges nothing and restores nothing."""
        self.process.kill()
        self.process.wait(timeout=20)

    def restart(self) -> None:
        """Start a new worker process of the same name on the same queue (after `kill`)."""
        if self.process.poll() is None:
            raise RuntimeError("the worker is still running; kill it first")
        self.process = _start_worker(self.env, self.name, self.log_path)

    def idle(self) -> bool:
        """True when its queue is empty and it runs or holds no task."""
        from django.conf import settings

        from ddz_site.celery import app

        with app.connection_for_write() as conn:
            queued = conn.default_channel.client.llen(settings.CELERY_TASK_DEFAULT_QUEUE)
        # limit=1: return as soon as this one worker answers instead of waiting out the timeout.
        inspect = app.control.inspect(destination=[self.name], timeout=1.0, limit=1)
        busy = (inspect.active() or {}).get(self.name) or (inspect.reserved() or {}).get(self.name)
        return queued == 0 and not busy

    def drain(self, timeout: float = 60.0) -> None:
        """Wait until the worker has finished everything a test enqueued, including the tasks
        those tasks enqueue on commit, so that nothing writes while the test database is
        flushed (a flush racing a worker's write deadlocks or leaves rows behind)."""
        deadline = time.monotonic() + timeout
        quiet = 0
        while quiet < 3 and time.monotonic() < deadline:
            quiet = quiet + 1 if self.idle() else 0
            time.sleep(0.2)


def _start_worker(env: dict[str, str], name: str, log_path: Path) -> subprocess.Popen[bytes]:
    """A `celery worker` subprocess (solo pool) on the run's queue, once it answers a ping."""
    from ddz_site.celery import app

    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "ddz_site",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "-Q",
                env["CELERY_TASK_DEFAULT_QUEUE"],
                "-n",
                name,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + 60
    while not app.control.ping(destination=[name], timeout=0.5):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            log_text = log_path.read_text(errors="replace")[-3000:]
            pytest.fail(f"the Celery worker did not start:\n{log_text}")
    return process


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return (
        f"postgres://{user}{password}@{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}/"
        f"{s['NAME']}"
    )


@pytest.fixture(autouse=True)
def _default_language_after_each_test() -> Iterator[None]:
    """A request in another language (Accept-Language: zh-hans) leaves it active in the test
    thread; each test starts from the default language, whatever ran before it."""
    from django.utils import translation

    yield
    translation.deactivate()


_STARTED: list[Worker] = []  # the session's worker, once a test has started it


@pytest.fixture(autouse=True)
def _worker_idle_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Once the session's worker runs, every test ends by waiting until it is idle: a test
    that commits may enqueue tasks (verification, standings) even without asking for the
    worker, and the worker must not write while the test database is flushed. Set up after
    pytest-django's database fixtures, so torn down before their flush."""
    yield
    marker = request.node.get_closest_marker("django_db")
    commits = (marker is not None and marker.kwargs.get("transaction")) or (
        "transactional_db" in request.fixturenames or "live_server" in request.fixturenames
    )
    if commits:  # only a test that commits can have enqueued anything
        for worker in _STARTED:
            worker.drain()


@pytest.fixture
def fresh_cache() -> None:
    """Empty caches for the test: pages are cached by event slug and standings version (and
    factories reuse slugs per run); the API's throttles count requests in the shared cache
    (the process's memory in the tests, unless DDZ_CACHE_URL says otherwise)."""
    cache.clear()
    caches["shared"].clear()


@pytest.fixture
def celery_worker(celery_worker_process: Worker) -> Iterator[Worker]:
    """The session's real Celery worker; after the test, waits until it is idle (and is
    started again first if the test killed it)."""
    yield celery_worker_process
    if celery_worker_process.process.poll() is not None:
        celery_worker_process.restart()
    celery_worker_process.drain()


@pytest.fixture
def celery_beat(celery_worker: Worker, tmp_path: Path) -> Iterator[Callable[..., None]]:
    """A function that starts `celery -A ddz_site beat` on the worker's queue with the site's
    schedule every second (DDZ_SWEEP_SECONDS=1), or every `sweep_seconds` (None: the site's
    default); stopped after the test."""
    started: list[subprocess.Popen[bytes]] = []

    def start(sweep_seconds: int | None = 1) -> None:
        env = dict(celery_worker.env)
        env.pop("DDZ_SWEEP_SECONDS", None)
        if sweep_seconds is not None:
            env["DDZ_SWEEP_SECONDS"] = str(sweep_seconds)
        with (tmp_path / "beat.log").open("ab") as log:
            started.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "ddz_site",
                        "beat",
                        "--loglevel=INFO",
                        f"--schedule={tmp_path / 'beat-schedule'}",
                        f"--pidfile={tmp_path / 'beat.pid'}",
                    ],
                    cwd=ROOT,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )

    yield start
    for process in started:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def smtp_server() -> Iterator[SmtpSink]:
    """A real SMTP server in the test process (aiosmtpd, tests/smtp_server.py) for the whole
    session: the session's worker sends the site's mails to it (EMAIL_HOST, EMAIL_PORT)."""
    sink = SmtpSink()
    sink.start()
    try:
        yield sink
    finally:
        sink.stop()


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None,
    django_db_blocker: Any,
    tmp_path_factory: pytest.TempPathFactory,
    smtp_server: SmtpSink,
) -> Iterator[Worker]:
    """A real Celery worker process on the test database (PostgreSQL) and Redis, sending its
    mails to the session's SMTP server (`smtp_server`), a failed attempt retried after 1 s."""
    from django.conf import settings

    from ddz_site.celery import app

    if settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.fail("the worker tests need CELERY_BROKER_URL (Redis); eager mode is not allowed")
    with django_db_blocker.unblock():
        database_url = _database_url()
    name = f"ddz-test-{os.getpid()}@localhost"
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="ddz_site.settings_test",
        DATABASE_URL=database_url,
        CELERY_TASK_DEFAULT_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        PYTHONUNBUFFERED="1",
        EMAIL_HOST=smtp_server.host,
        EMAIL_PORT=str(smtp_server.port),
        DDZ_MAIL_RETRY_SECONDS="1",
    )
    app.control.purge()
    worker = Worker(_start_worker(env, name, log_path), log_path, name, env)
    try:
        _STARTED.append(worker)
        yield worker
    finally:
        _STARTED.clear()
        worker.process.terminate()
        try:
            worker.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.process.kill()
            worker.process.wait()
        app.control.purge()


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


@pytest.fixture
def event_in_play():
    """Nine players, one stage, one round of three tables, three boards dealt from the
    committed seed, the round started; an organizer, a chief referee and a referee."""
    event = EventFactory(name="Autumn Cup", slug="autumn-cup")
    users = {"td": _user("td"), "chief": _user("chief"), "ref": _user("ref")}
    for key, role in (("td", Role.ORGANIZER), ("chief", Role.CHIEF_REFEREE), ("ref", Role.REFEREE)):
        EventRole.objects.create(event=event, user=users[key], role=role)
    for _ in range(9):
        Entry.objects.create(event=event, player=PlayerFactory())
    stage = stages.stage_create(event=event, actor=users["td"])
    round_ = rounds.round_create(event=event, stage=stage, actor=users["td"])
    stages.stage_seat(stage=stage, actor=users["td"])
    rounds.event_seed_commit(event=event, actor=users["td"])
    rounds.round_deal(round_=round_, boards=3, actor=users["td"])
    round_states.round_start(round_=round_, actor=users["td"])
    event.refresh_from_db()
    round_.refresh_from_db()
    return event, round_, users


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


@pytest.fixture
def table_token(world) -> str:
    """The private link's token of table 1 of the test module's own `world` fixture (a world
    of tests/entry_personas.py), made by its organizer."""
    made = link_tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return _token(made[0].url)


@pytest.fixture
def linked():
    """The personas' world of tests/entry_personas.py with a link made for each table of its
    round: the world and the links' tokens."""
    world = build_world(seed="trial-links")
    made = link_tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return world, [_token(m.url) for m in made]


def wait_listening(
    process: subprocess.Popen[bytes], host: str, port: int, log_path: Path, *, timeout: float = 60
) -> None:
    """Wait until the server `process` accepts connections on `host`:`port`; fail the test
    with its log (`log_path`) if it exits or does not listen within `timeout` seconds."""
    import socket

    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the server did not start:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)


@contextmanager
def daphne_serving(database_url: str, log_path: Path, **env_extra: str) -> Iterator[str]:
    """A Daphne process of the site (as in production) on `database_url` with the test
    settings and `env_extra`, its output in `log_path`: its base URL (``http://127.0.0.1:PORT``)
    once it accepts connections; stopped on leaving the block."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="ddz_site.settings_test",
        DATABASE_URL=database_url,
        PYTHONUNBUFFERED="1",
        **env_extra,
    )
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
            + ["ddz_site.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_listening(process, "127.0.0.1", port, log_path)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def asgi_server(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A real ASGI server (Daphne, as in production) on the test database and the test run's
    Redis channel layer: its base URL (``http://127.0.0.1:PORT``). What the test process writes
    and tells the channel layer reaches the sockets this server holds, as between two web
    machines of a site. Tests using it must be `django_db(transaction=True)`."""
    from django.conf import settings

    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if "Redis" not in layer:
        pytest.fail("the socket tests need DDZ_CHANNEL_LAYER_URL (Redis); memory is per process")
    with django_db_blocker.unblock():
        database_url = _database_url()
    log_path = tmp_path_factory.mktemp("asgi") / "daphne.log"
    with daphne_serving(database_url, log_path) as base:
        yield base
