"""The API's OpenAPI schema (drf-spectacular's AutoSchema, REST_FRAMEWORK's
DEFAULT_SCHEMA_CLASS): beside an operation's own answers, the refusals that every door of its
kind answers, in the one error shape (ddz_site.api.errors), so that a client generated from
the schema reads every answer. Which refusals an operation documents follows from the view
and the operation, as DRF and the site's middleware answer them:

- 400 (``invalid``, ``parse_error``…): an operation that reads a body or a query string;
- 401: an operation that reads credentials (every one but the token door): no token, or a
  wrong or expired one, the public reads included (a wrong token is never taken as none);
- 403: an operation that needs a role, and a POST of a signed-in session without its CSRF
  token (``csrf_failed``);
- 404: an operation whose path names an object (absent, or not visible to this user);
- 413 (``too_large``): a POST, or an operation that reads a body: a body larger than
  DATA_UPLOAD_MAX_MEMORY_SIZE is refused before any view (ddz_site.web.middleware);
- 414 (``too_long``): an operation with path or query parameters, whose values can make the
  address longer than ddz_site.web.middleware.ADDRESS_MAX_LENGTH;
- 415: an operation that reads a body, sent a body of another type than JSON or a form;
- 429 (``throttled``, with ``Retry-After``): a throttled operation (the token door);
- 503 (``unavailable``, with ``Retry-After``): every operation, while the database cannot be
  reached (ddz_site.web.middleware.DatabaseUnavailableMiddleware).

A status an operation declares itself (``extend_schema``) keeps its own description. Request
bodies are documented as JSON, the body the API's clients send and the README describes:
DRF reads forms too, but a nested object or a null has no spelling in a form.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular import openapi
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS, AllowAny

from ddz_site.api.serializers import ErrorSerializer

REFUSALS = {
    400: _("Bad input: a field, the JSON body or the query string is refused."),
    401: _("Not authenticated: no token, or a wrong or expired one."),
    403: _("The user's roles do not allow it, or the session's CSRF token is missing."),
    404: _("No such object, or one this user may not see (embargoed or hidden)."),
    413: _("The body is larger than the site takes; nothing was stored."),
    414: _("The address (path and query string) is longer than the site takes."),
    415: _("The body is of a type the API does not read: send JSON."),
    429: _("Too many requests: try again after Retry-After seconds."),
    503: _(
        "The database cannot be reached; nothing was changed. Try again after Retry-After seconds."
    ),
}
RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": _("Seconds to wait before trying again."),
        "required": True,
    }
}


class AutoSchema(openapi.AutoSchema):
    def map_parsers(self) -> list[str]:
        return ["application/json"]

    def get_operation(
        self, path: str, path_regex: str, path_prefix: str, method: str, registry: Any
    ) -> dict[str, Any] | None:
        """drf-spectacular's operation, with the refusals of `refusals` documented in the one
        error shape where the operation does not declare them itself."""
        operation: dict[str, Any] | None = super().get_operation(
            path, path_regex, path_prefix, method, registry
        )
        if operation is None:
            return None
        error = self.resolve_serializer(ErrorSerializer, "response").ref
        responses = operation["responses"]
        for status in self.refusals(operation):
            answer: dict[str, Any] = {
                "content": {"application/json": {"schema": error}},
                "description": REFUSALS[status],
            }
            if status in (429, 503):
                answer["headers"] = RETRY_AFTER
            responses.setdefault(str(status), answer)
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def refusals(self, operation: dict[str, Any]) -> list[int]:
        """The statuses of REFUSALS this operation may answer (see the module), ascending."""
        places = {p["in"] for p in operation.get("parameters", [])}
        body = "requestBody" in operation
        authenticators = self.view.get_authenticators()
        statuses = [503]
        if body or "query" in places:
            statuses.append(400)
        if authenticators:
            statuses.append(401)
        needs_role = any(not isinstance(p, AllowAny) for p in self.view.get_permissions())
        session = any(isinstance(a, SessionAuthentication) for a in authenticators)
        if needs_role or (session and self.method not in SAFE_METHODS):
            statuses.append(403)
        if "path" in places:
            statuses.append(404)
        if places & {"path", "query"}:
            statuses.append(414)
        if body or self.method not in SAFE_METHODS:
            # Refused by its Content-Length before any view, whether the view reads it or not.
            statuses.append(413)
        if body:
            statuses.append(415)
        if self.view.get_throttles():
            statuses.append(429)
        return sorted(statuses)
