"""The API's session authentication (the site's own pages calling the API).

DRF's, whose refusal of a request without its CSRF token says what the site's pages say
(ddz_site.middleware.csrf_failure): ``csrf_failed``, the page expired, reload it; never the
mechanism. Its own module: DRF imports the authentication classes while its views load.
"""

from __future__ import annotations

from typing import Any

from rest_framework import authentication, exceptions

from ddz_site.middleware import CSRF_FAILURE_MESSAGE


class SessionAuthentication(authentication.SessionAuthentication):
    def enforce_csrf(self, request: Any) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(CSRF_FAILURE_MESSAGE, code="csrf_failed") from None
