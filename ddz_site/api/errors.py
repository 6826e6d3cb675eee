"""One shape for every API error, mapped in one place.

Shape: ``{"error": {"code": str, "message": str, "fields": {name: [messages]} | null,
"rule": "R-…" | null}}``; a nested field is named with dots (``quick.spring``, ``steps.3``),
a quick-result claim refused by the engine by its field (``quick.bombs``). HTTP status: 400
for bad input and refused requests (DomainError, ValidationError; JSON that cannot be parsed,
nested too deeply included: ``parse_error``), 401 unauthenticated, 403 forbidden, 404 absent,
405, 409 for a conflict with the stored state (a game already entered, the loser of two
submissions at once, a confirmation refused by state; a refusal's ``details`` add their keys,
a submission's 409 the version it would replace under ``current``), 422 for an idempotency
key sent again with another submission (``idempotency_key_reused``), 503 with ``Retry-After``
while the database cannot be reached (``unavailable``: nothing was stored, try again;
ddz_site.web.middleware.DatabaseUnavailableMiddleware).
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from ddz_site.api.request_json import nested_message
from ddz_site.kernel.errors import DomainError
from ddz_site.web.middleware import RETRY_AFTER_SECONDS, unavailable_error


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


def _flatten(prefix: str, value: Any, out: dict[str, list[str]]) -> None:
    """Nested serializer errors as dotted field names: ``{"quick": {"spring": [e]}}`` becomes
    ``{"quick.spring": [message]}``; an error of a list item ``{"steps": {3: [e]}}`` becomes
    ``{"steps.3": [message]}``. Messages are plain texts, never a Python repr."""
    if isinstance(value, dict):
        for name, inner in value.items():
            _flatten(f"{prefix}.{name}" if prefix else str(name), inner, out)
        return
    if isinstance(value, list):
        if any(isinstance(v, (dict, list)) for v in value):
            for i, inner in enumerate(value):
                if inner:
                    _flatten(f"{prefix}.{i}" if prefix else str(i), inner, out)
            return
        for v in value:
            out.setdefault(prefix or "non_field_errors", []).append(str(v))
        return
    out.setdefault(prefix or "non_field_errors", []).append(str(value))


def fields_of(detail: Any) -> dict[str, list[str]] | None:
    if not isinstance(detail, dict):
        return None
    out: dict[str, list[str]] = {}
    _flatten("", detail, out)
    return out


# The status of a refusal by its code (DomainError.code); any other refusal is a 400.
REFUSAL_STATUS = {
    "conflict": status.HTTP_409_CONFLICT,
    "forbidden": status.HTTP_403_FORBIDDEN,
    "idempotency_key_reused": status.HTTP_422_UNPROCESSABLE_ENTITY,
}


def refusal_status(exc: DomainError) -> int:
    """The HTTP status of the refusal `exc` at every JSON door (REFUSAL_STATUS, else 400)."""
    return REFUSAL_STATUS.get(getattr(exc, "code", ""), status.HTTP_400_BAD_REQUEST)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler in the one error shape; DomainError becomes a 400 (409 where
    the service says the stored state conflicts, 403 where the user's roles forbid it)."""
    rule = None
    if isinstance(exc, DomainError):
        code = getattr(exc, "code", "rejected")
        http = refusal_status(exc)
        rule = getattr(exc, "rule", None)
        fields = getattr(exc, "fields", None)
        error = {"code": code, "message": exc.message, "fields": fields, "rule": rule}
        # What the refusal names besides (a submission's conflict: the version it would replace).
        error.update(getattr(exc, "details", None) or {})
        return Response({"error": error}, status=http)
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database went away (restarted, unreachable) or a lock timed out: the request's
        # transaction was rolled back, so nothing of it was stored and it may be sent again.
        return Response(
            unavailable_error(),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, RecursionError):
        # json.loads gives up on JSON nested deeper than the recursion limit (DRF's parsers
        # let it through): bad input like any other parse error.
        exc = exceptions.ParseError(nested_message())
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = getattr(exc, "detail", None)
    fields = fields_of(detail)
    if fields is not None:
        message = _("The request has invalid fields.")
    elif isinstance(detail, list):
        message = " ".join(str(d) for d in detail)
    else:
        message = str(detail) if detail is not None else str(exc)
    codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else "error"
    code = codes if isinstance(codes, str) else "invalid"
    response.data = {"error": {"code": code, "message": message, "fields": fields, "rule": rule}}
    return response
