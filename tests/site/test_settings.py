"""The settings module: embedded defaults, strict parsing, production checks."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from ddz_site.env import env_bool, env_int, env_list, env_url
from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
_VARS = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DDZ_TEST_DATABASE_NAME",
    "CELERY_TASK_DEFAULT_QUEUE",
    "DATABASE_POOLER",
    "DATABASE_POOL_SIZE",
    "DATABASE_CONN_MAX_AGE",
    "DDZ_CHANNEL_LAYER_URL",
    "DDZ_CHANNEL_LAYER_PREFIX",
)


def _settings(env: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in _VARS}
    clean.update(DJANGO_SETTINGS_MODULE="ddz_site.settings", **env)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from django.conf import settings; {code}",
        ],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_parsers_refuse_malformed_values() -> None:
    assert env_bool("X", False, environ={"X": "Yes"}) is True
    with pytest.raises(ImproperlyConfigured, match="X='maybe' is not a boolean"):
        env_bool("X", False, environ={"X": "maybe"})
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("X", 0, environ={"X": "1.5"})
    with pytest.raises(ImproperlyConfigured, match="empty item"):
        env_list("X", [], environ={"X": "a,,b"})
    with pytest.raises(ImproperlyConfigured, match="postgres://"):
        env_url("X", ("postgres",), environ={"X": "mysql://u:secret@h/db"})
    assert env_url("X", ("postgres",), environ={}) is None


def test_embedded_default_is_sqlite_and_eager() -> None:
    done = _settings(
        {}, "print(settings.DATABASES['default']['ENGINE'], settings.CELERY_TASK_ALWAYS_EAGER)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["django.db.backends.sqlite3", "True"]


def test_environment_selects_postgresql_and_redis() -> None:
    done = _settings(
        {
            "DATABASE_URL": "postgres://u@db.example:5432/ddz",
            "CELERY_BROKER_URL": "redis://r:6379/1",
        },
        "print(settings.DATABASES['default']['ENGINE'], settings.CELERY_TASK_ALWAYS_EAGER)",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["django.db.backends.postgresql", "False"]


def test_behind_pgbouncer_in_transaction_mode() -> None:
    """DATABASE_POOLER=transaction (PgBouncer's transaction pooling, for many worker machines):
    no server-side cursors and no prepared statements, which live in one server session that
    the next transaction may not get (Django's and psycopg's documented settings)."""
    code = (
        "d = settings.DATABASES['default']; "
        "print(d.get('DISABLE_SERVER_SIDE_CURSORS'), "
        "d.get('OPTIONS', {}).get('prepare_threshold', 'unset'))"
    )
    url = {"DATABASE_URL": "postgres://u@db.example:6432/ddz"}
    pooled = _settings({**url, "DATABASE_POOLER": "transaction"}, code)
    assert pooled.returncode == 0, pooled.stderr
    assert pooled.stdout.split() == ["True", "None"]
    direct = _settings(url, code)
    assert direct.returncode == 0, direct.stderr
    assert direct.stdout.split() == ["False", "unset"]
    wrong = _settings({**url, "DATABASE_POOLER": "statement"}, "pass")
    assert wrong.returncode != 0 and "DATABASE_POOLER" in wrong.stderr


@pytest.mark.parametrize(
    "env, message",
    [
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG='maybe' is not a boolean"),
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must be a URL starting with"),
        ({"CELERY_BROKER_URL": "amqp://x"}, "CELERY_BROKER_URL must be a URL"),
        ({"DJANGO_DEBUG": "false"}, "DJANGO_SECRET_KEY must be set"),
    ],
)
def test_malformed_value_stops_start_up_with_a_clear_message(env, message) -> None:
    done = _settings(env, "pass")
    assert done.returncode != 0
    assert message in done.stderr


def test_check_deploy_is_clean_with_production_settings() -> None:
    clean = {k: v for k, v in os.environ.items() if k not in _VARS}
    clean.update(
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="a-production-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG",
        DJANGO_ALLOWED_HOSTS="ddz.example.org",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/ddz",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_env_example_lists_every_variable() -> None:
    names = set()
    for path in (ROOT / "ddz_site").glob("settings*.py"):
        import re

        names |= set(re.findall(r'env_\w+\(\s*"([A-Z_]+)"', path.read_text()))
    example = (ROOT / ".env.example").read_text()
    assert names and all(f"{name}=" in example for name in names), names


@pytest.mark.django_db
def test_postgresql_sessions_run_without_jit() -> None:
    """The site's queries are short, so its sessions run with jit off: a query estimated above
    PostgreSQL's jit_above_cost (the open boards' query of a recomputation in a 600-player
    burst) would spend 32 ms of its 52 compiling. (PgBouncer's transaction pooling takes no
    session options: the README has it set on the database.)"""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"


def test_the_live_tables_channel_layer_is_memory_embedded_and_redis_when_given() -> None:
    """One process needs no Redis (the demo's server); several share the groups in Redis,
    whose client must not time out a quiet socket's blocking read (redis-py 8: 5 s)."""
    code = "print(settings.CHANNEL_LAYERS['default'])"
    embedded = _settings({}, code)
    assert embedded.returncode == 0, embedded.stderr
    assert "InMemoryChannelLayer" in embedded.stdout
    shared = _settings({"DDZ_CHANNEL_LAYER_URL": "redis://redis.internal:6379/3"}, code)
    assert "RedisChannelLayer" in shared.stdout and "'socket_timeout': None" in shared.stdout
    wrong = _settings({"DDZ_CHANNEL_LAYER_URL": "amqp://x"}, code)
    assert wrong.returncode != 0 and "DDZ_CHANNEL_LAYER_URL" in wrong.stderr


def test_a_pool_of_connections_for_the_asgi_servers_threads() -> None:
    url = {"DATABASE_URL": "postgres://u@db.internal:5432/ddz"}
    code = "print(settings.DATABASES['default']['OPTIONS'].get('pool'))"
    pooled = _settings({**url, "DATABASE_POOL_SIZE": "8"}, code)
    assert pooled.returncode == 0, pooled.stderr
    assert "'max_size': 8" in pooled.stdout
    assert _settings(url, code).stdout.strip() == "None"
    both = _settings({**url, "DATABASE_POOL_SIZE": "8", "DATABASE_CONN_MAX_AGE": "60"}, code)
    assert both.returncode != 0 and "DATABASE_POOL_SIZE" in both.stderr


def test_sessions_are_kept_in_the_shared_cache_when_there_is_one() -> None:
    """With a shared cache (DDZ_CACHE_URL) a signed-in request reads its session there, the
    database holding it for a cache that lost it; without one, the database alone: a cache in
    each process's memory would keep serving a session another process ended (sign-out)."""
    code = "print(settings.SESSION_ENGINE, getattr(settings, 'SESSION_CACHE_ALIAS', '-'))"
    shared = _settings({"DDZ_CACHE_URL": "redis://redis.internal:6379/2"}, code)
    assert shared.returncode == 0, shared.stderr
    assert shared.stdout.split() == ["django.contrib.sessions.backends.cached_db", "shared"]
    alone = _settings({}, code)
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.split()[0] == "django.contrib.sessions.backends.db"
