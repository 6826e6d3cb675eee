"""The API's documentation pages (Swagger UI and Redoc) served with nothing from outside the
site: their scripts come from the project's static files (drf-spectacular-sidecar), Redoc's
template drops the web fonts it would fetch from Google, and a Content-Security-Policy keeps
the browser on the site's own origin. Redoc's sidebar shows a "powered by" logo whose image
it fetches from cdn.redoc.ly (no option turns it off); the policy refuses that request, and
Redoc then leaves the image out (its own error handler), keeping only the text link."""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import SessionScheme
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView
from rest_framework.request import Request
from rest_framework.response import Response


class SiteSessionScheme(SessionScheme):
    """The schema's ``cookieAuth`` for the site's session authentication, DRF's with the
    site's words for a missing CSRF token (ddz_site.api.authentication)."""

    target_class = "ddz_site.api.authentication.SessionAuthentication"


# Inline scripts and styles are the pages' own (the initialisers); Redoc's search runs in a
# worker built from a blob; images may be data: URIs (Swagger UI's icons).
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        "worker-src 'self' blob:",
        "connect-src 'self'",
    ]
)


class _OwnOrigin:
    # Pages to read: GET and HEAD only. DRF's OPTIONS would render its metadata through the
    # page's HTML renderer (Swagger UI's has no template then: a 500; Redoc's a page without
    # its schema); a 405 with Allow says what the page takes.
    http_method_names = ["get", "head"]

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # A mixin: super() is the drf-spectacular view it is mixed into.
        response = super().get(request, *args, **kwargs)  # type: ignore[misc]
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response


class RedocView(_OwnOrigin, SpectacularRedocView):
    template_name = "games/redoc.html"


class SwaggerView(_OwnOrigin, SpectacularSwaggerView):
    pass
