"""The token door's limit holds across web processes, and a throttled client is refused until
its window passes.

`POST /api/auth/token/` answers 429 to more than DDZ_TOKEN_REQUESTS_PER_MINUTE requests from
one address in a minute. The requests are counted in the cache the web processes share
(DDZ_CACHE_URL, Redis): behind a balancer, two processes count together. Counted in each
process's memory, a client had about ten requests per process (the first 429 at the 17th
request of 10 allowed, then 400 and 429 by turns as the balancer chose a process). A client
over the limit gets 429 for every request until the minute it is counted in is over, with
``Retry-After`` saying how long that is, then is counted again.
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.urls import reverse
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.conftest import _database_url, daphne_serving
from tests.paths import ROOT_DIR, site_env

HERE = "203.0.113.7"  # a documentation address (RFC 5737)
SHARED_CACHE = "redis://127.0.0.1:6379/13"


def _limit() -> int:
    count, per = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["token"].split("/")
    assert per == "minute"
    return int(count)


@pytest.fixture(scope="module")
def two_web_processes(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[str]]:
    """Two Daphne processes of the site on the test database, sharing a Redis cache under a
    prefix of their own (as two web machines behind a balancer): their base URLs."""
    with django_db_blocker.unblock():
        database_url = _database_url()
    log_path = tmp_path_factory.mktemp("throttle") / "daphne.log"
    shared = {"DDZ_CACHE_URL": SHARED_CACHE, "DDZ_CACHE_PREFIX": f"ddz-test-{uuid.uuid4().hex}"}
    with ExitStack() as servers:
        yield [
            servers.enter_context(daphne_serving(database_url, log_path, **shared)) for _ in "ab"
        ]


def _ask_token(base: str, username: str) -> tuple[int, dict[str, str], dict[str, Any]]:
    request = urllib.request.Request(
        base + reverse("api:token"),
        data=json.dumps({"username": username, "password": "wrong"}).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_web_processes_count_one_clients_requests_together(two_web_processes) -> None:
    limit = _limit()
    answers = []
    # Each request names a new account (no sign-in lockout is reached) and goes to the other
    # process than the one before, as a balancer would send them.
    for i in range(2 * limit + 4):
        answers.append(_ask_token(two_web_processes[i % 2], f"nobody-{uuid.uuid4().hex[:8]}"))
    statuses = [status for status, _headers, _body in answers]
    assert statuses == [400] * limit + [429] * (limit + 4)
    for _status, headers, body in answers[limit:]:
        assert body["error"]["code"] == "throttled"
        assert 1 <= int(headers["Retry-After"]) <= 60


MINUTE = 60.0 * 29_000_000  # the start of a minute, in seconds since the epoch


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The throttles' clock (seconds since the epoch), set by the test."""
    now = [MINUTE]
    monkeypatch.setattr(SimpleRateThrottle, "timer", lambda _self: now[0])
    return now


def _token(username: str):
    return APIClient().post(
        reverse("api:token"),
        {"username": username, "password": "wrong"},
        format="json",
        REMOTE_ADDR=HERE,
    )


@pytest.mark.django_db
@pytest.mark.usefixtures("fresh_cache")
def test_a_throttled_client_is_refused_until_its_minute_is_over(clock: list[float]) -> None:
    limit = _limit()
    clock[0] = MINUTE + 5
    for i in range(limit):
        assert _token(f"early-{i}").status_code == 400
    refused = _token("one-too-many")
    assert refused.status_code == 429 and refused["Retry-After"] == "55"
    # Every request until the minute is over is refused, whatever the account, and told how
    # long is left.
    for second, left in ((20, "40"), (50, "10"), (59.5, "1")):
        clock[0] = MINUTE + second
        refused = _token(f"later-{second}")
        assert refused.status_code == 429 and refused["Retry-After"] == left, second
    # The next minute counts from nothing.
    clock[0] = MINUTE + 60
    for i in range(limit):
        assert _token(f"next-{i}").status_code == 400
    assert _token("next-too-many").status_code == 429


def test_the_shared_cache_is_redis_when_a_cache_url_is_set() -> None:
    code = (
        "import django, json; django.setup(); from django.conf import settings; "
        "print(json.dumps(settings.CACHES))"
    )
    base = site_env()
    base.update(DJANGO_SETTINGS_MODULE="ddz_site.settings", DJANGO_DEBUG="true")

    def caches(**env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT_DIR,
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=60,
        )

    shared = json.loads(caches(DDZ_CACHE_URL="redis://cache.internal:6379/2").stdout)["shared"]
    assert shared["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert shared["LOCATION"] == "redis://cache.internal:6379/2"
    # Unset (the embedded default, one server): the process's memory.
    alone = json.loads(caches().stdout)["shared"]
    assert alone["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    refused = caches(DDZ_CACHE_URL="memcached://cache.internal:11211")
    assert refused.returncode != 0 and "DDZ_CACHE_URL" in refused.stderr


def test_the_token_door_counts_in_the_shared_cache() -> None:
    from ddz_site.api.auth import TokenView

    (throttle,) = (t() for t in TokenView.throttle_classes)
    assert throttle.cache is caches["shared"]


@pytest.mark.django_db
def test_a_shared_cache_that_cannot_be_reached_lets_the_door_answer(settings, caplog) -> None:
    # Redis gone: the request is not counted (the sign-in lockouts, in the database, still
    # hold), and the door answers as it would, never a server error.
    settings.CACHES = {
        **settings.CACHES,
        "shared": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/13",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    answer = _token("while-the-cache-is-down")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid"
    assert "shared cache cannot be reached" in caplog.text
