"""The API's throttles: requests counted per client address and minute, in the cache every web
process of the site shares.

Vocabulary: a *window* is one period of a rate (a minute of ``10/minute``: from hh:mm:00 to
hh:mm+1:00, the same for every process); a client's *count* is the number of his requests in
the current window of a scope (``token``: the token door). A client whose count is over the
rate is *throttled* (429) for every request until the window is over, and ``Retry-After``
says how long that is; the next window counts from nothing.

DRF's own throttles keep a list of request times in Django's default cache, read and written
back by each request: with each process's memory as that cache, a client was counted once per
process (behind a balancer the first 429 came at the 17th request of 10 allowed, then 400 and
429 by turns), and two processes that read the list at once each lost the other's request.
Here a count is one key of CACHES["shared"] (Redis when DDZ_CACHE_URL is set), raised with
the cache's atomic increment (Redis INCR): every process sees every request.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import BaseCache, caches
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle

logger = logging.getLogger(__name__)

# The alias of the cache the web processes share (settings.CACHES).
SHARED_CACHE = "shared"


class SharedRateThrottle(ScopedRateThrottle):
    """A scope's rate (the view's `throttle_scope`, DEFAULT_THROTTLE_RATES) per client address
    (ddz_site.web.security's rule) and window, counted in the shared cache (see the module).

    A cache that cannot be reached lets the request through, logged: the sign-in lockouts
    (django-axes) are counted in the database and still hold.
    """

    # DRF's is a class attribute, the default cache taken once at import: looked up here per
    # request instead (each thread's own connection, and the settings of the moment).
    @property
    def cache(self) -> BaseCache:
        return caches[SHARED_CACHE]

    def allow_request(self, request: Request, view: Any) -> bool:
        """True when the client's count in the current window is within the rate, counting
        this request; a view without a scope is not counted."""
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        now = self.timer()
        window = int(now // self.duration)
        self.wait_seconds = (window + 1) * self.duration - now
        ident = self.get_ident(request)
        self.key = f"{self.cache_format % {'scope': self.scope, 'ident': ident}}:{window}"
        try:
            count = self._count(self.key)
        except RedisError:
            logger.warning("the shared cache cannot be reached: %s not counted", self.scope)
            return True
        return count <= self.num_requests

    def _count(self, key: str) -> int:
        """The count of `key` with this request, kept until its window is over at the latest
        (the window began at most `duration` before this request)."""
        self.cache.add(key, 0, self.duration)
        try:
            return int(self.cache.incr(key))
        except ValueError:  # expired or evicted between the two: this request opens it again
            self.cache.add(key, 1, self.duration)
            return 1

    def wait(self) -> float:
        """Seconds until the current window is over (``Retry-After``)."""
        return float(self.wait_seconds)
