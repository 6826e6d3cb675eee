"""Who is asking: the client address that sign-in lockouts (django-axes) and the API's
throttles (DRF) count alike.

Behind DDZ_TRUSTED_PROXIES reverse proxies, each appending to X-Forwarded-For, the client is
the address the outermost of them saw (DRF's NUM_PROXIES rule); with none, REMOTE_ADDR. A
client cannot choose his address by sending X-Forwarded-For himself: only the entries the
trusted proxies appended are read.
"""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str | None:
    """The client's address of `request` (AXES_CLIENT_IP_CALLABLE), as DRF's throttles
    identify it; None for a request that came from no address (the test client's logins)."""
    return BaseThrottle().get_ident(request) or None
