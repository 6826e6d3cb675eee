"""`GET /healthz`: whether this site can do its work, for a load balancer or a monitor.

Answer: ``{"status": "ok" | "failing", "checks": {"database": S, "broker": S, "workers": S}}``
with HTTP 200 when every check passes and 503 when one fails, never cached. S is ``"ok"``,
``"unavailable"``, or ``"eager"`` for the broker and the workers of a site without a broker
(the embedded default: tasks run in the web process). Nothing else is said (no host, URL,
version or error text; the reasons go to the log), so the endpoint can be public.

The checks are django-health-check's: the database answers ``SELECT 1``; the broker (the
Redis of CELERY_BROKER_URL) answers a PING; at least one Celery worker answers a ping within
a second and consumes the site's queue (CELERY_TASK_DEFAULT_QUEUE). The database and the
broker are asked at once; the workers only when the broker answered (a ping through a broker
that is down would only wait). An answer takes about a second, the workers' ping window.
"""

from __future__ import annotations

import asyncio
import datetime

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from health_check.base import HealthCheck, HealthCheckResult
from health_check.checks import Database
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from redis.asyncio import Redis as RedisClient

from ddz_site.celery import app

OK, UNAVAILABLE, EAGER = "ok", "unavailable", "eager"


def _broker() -> HealthCheck:
    url = settings.CELERY_BROKER_URL
    return Redis(
        client_factory=lambda: RedisClient.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    )


def _workers() -> HealthCheck:
    return Ping(app=app, timeout=datetime.timedelta(seconds=1))


def _state(result: HealthCheckResult) -> str:
    return UNAVAILABLE if result.error else OK


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """The site's health (see the module): 200 when every check passes, else 503."""
    checks: dict[str, str] = {}
    if settings.CELERY_TASK_ALWAYS_EAGER:
        database = await Database().get_result()
        checks = {"database": _state(database), "broker": EAGER, "workers": EAGER}
    else:
        database, broker = await asyncio.gather(Database().get_result(), _broker().get_result())
        checks = {"database": _state(database), "broker": _state(broker)}
        checks["workers"] = (
            _state(await _workers().get_result()) if not broker.error else UNAVAILABLE
        )
    healthy = all(state != UNAVAILABLE for state in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "failing", "checks": checks},
        status=200 if healthy else 503,
    )
