"""Settings for the test suite: the production settings on the project's test services.

Only what tests need changes: the suite runs on PostgreSQL and a Redis broker (the services of
`make test`, started by scripts/services.sh) unless DATABASE_URL / CELERY_BROKER_URL say
otherwise, and the test database and the Celery queue are private to this test run
(tests/conftest.py starts a worker process on them), so another run on the same machine never
drops our database nor takes our tasks.
"""

from __future__ import annotations

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/ddz")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
os.environ.setdefault("CELERY_TASK_DEFAULT_QUEUE", f"ddz-test-{os.getpid()}")
# The live tables' channel layer on the test Redis, its groups private to this run.
os.environ.setdefault("DDZ_CHANNEL_LAYER_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("DDZ_CHANNEL_LAYER_PREFIX", f"ddz-test-{os.getpid()}")
# Per run, so that two test runs on one machine (a developer's and CI's) never drop each
# other's database.
os.environ.setdefault("DDZ_TEST_DATABASE_NAME", f"test_ddz_{os.getpid()}")
os.environ.setdefault("DJANGO_DEBUG", "true")
# Every event's standings kept in arrays too, whatever its size: each test that changes a
# game then checks the arrays' way against the objects' (tournaments.standings.arrays).
os.environ.setdefault("DDZ_STANDINGS_ARRAYS_FROM", "0")
# Every scope published first and its rows written behind: each test that reads standings
# then reads the published form, checked against the rows (tournaments.standings.store).
os.environ.setdefault("DDZ_STANDINGS_PUBLISH_FROM", "0")
# Each of pytest-xdist's processes (`make test` runs two) inherits the names its controller
# chose above: each takes its own, or one process's worker would take the other's tasks and
# read them in the wrong test database.
_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "")
if _PROCESS:
    for _name in (
        "CELERY_TASK_DEFAULT_QUEUE",
        "DDZ_CHANNEL_LAYER_PREFIX",
        "DDZ_TEST_DATABASE_NAME",
    ):
        if not os.environ[_name].endswith(f"_{_PROCESS}"):
            os.environ[_name] = f"{os.environ[_name]}_{_PROCESS}"

from ddz_site.settings import *  # noqa: E402, F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
