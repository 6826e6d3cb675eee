"""Middleware of the site: addresses no page has, and a database that went away.

- `refuse_nul`: a NUL character (``%00``) in the path answers 404 and one in the query string
  400, before any view runs. No address of the site holds one, and PostgreSQL's text cannot:
  every lookup by slug of such an address was a server error. The 404 is `not_found`'s (the
  site's own page in the reader's language, the API's shape on the JSON doors): the middleware
  runs after the language and the signed-in user are known.
- `DatabaseUnavailableMiddleware`: a view that meets a lost or unreachable database (PostgreSQL
  restarted, a connection terminated, a lock or statement timeout: Django's OperationalError
  and InterfaceError) answers 503 with ``Retry-After`` and a page saying to try again, instead
  of a server error. The request's transaction was rolled back, so no half-written version is
  left; Django closes the broken connection when the request ends (and, with persistent
  connections, CONN_HEALTH_CHECKS tests it before reuse), so the next request reconnects: the
  site recovers by itself once the database is back. The API answers the same in its own
  error shape (ddz_site.api.errors).
- `refuse_too_big`: a request body larger than DATA_UPLOAD_MAX_MEMORY_SIZE (by its
  Content-Length), of any content type (a multipart upload too), answers 413 before anything
  reads it: the API's error shape (code ``too_large``) to the API and the JSON doors, an
  error page to a form. `bad_request`, the site's handler400, answers the same to what Django
  finds too large only while reading (a body sent without its length, too many fields or
  files) and is Django's 400 otherwise.
  Nothing is stored in either case.
- `page_methods_only`: outside /api/, a method other than GET, HEAD and POST (PUT, PATCH,
  DELETE, OPTIONS, TRACE, CONNECT…) answers 405 with ``Allow: GET, HEAD, POST`` before the
  CSRF check (which refused them as an expired page) and before any view (which answered
  OPTIONS and TRACE with the page itself): the API's error shape (``method_not_allowed``) at
  the JSON doors, the site's own page otherwise. The API keeps DRF's answers. A page's view
  that refuses a method itself with an empty 405 (a button's address, ``require_POST``, opened
  by a GET) gets the same page, with the view's ``Allow``.
- `not_found`, the site's handler404, and `csrf_failure`, its CSRF_FAILURE_VIEW: the API and
  the JSON doors of the private links answer in the API's error shape (a path no URL matches,
  ``boards/-1/``, included), every other address the site's own 404 or 403 page, translated;
  a form or JSON door posted without its CSRF token says the page expired and to reload it.
- `refuse_too_long`: an address (path and query string, percent-encoded) longer than
  ADDRESS_MAX_LENGTH answers 414 before any view: the API's error shape (code ``too_long``)
  at the JSON doors, the site's page otherwise, whose links (signing in, the language) lead to
  the front page instead of repeating the address. Nothing is stored. No address of the site
  comes near the limit; a server refuses longer request lines still, with its own bare answer
  (gunicorn above --limit-request-line, Daphne above 16 KB), so the site's limit is below both.
- `utf8_forms`: a form body (``application/x-www-form-urlencoded``) holding raw bytes that are
  not UTF-8 is read with each such byte as U+FFFD, as Django reads percent-encoded ones,
  instead of Django's fallback that reads the whole body as Latin-1 (``\\xff`` became
  "ÿ", stored as if typed). ddz_site.kernel.text's rule then refuses it as not readable text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import auth
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.datastructures import MultiValueDict
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from rest_framework.exceptions import NotFound

# How long a client waits before trying again (seconds): a PostgreSQL restart takes a few.
RETRY_AFTER_SECONDS = 5
UNAVAILABLE_MESSAGE = _(
    "The site's database cannot be reached at the moment; nothing was changed. "
    "Try again in a few seconds."
)


def api_error(code: str, message: object) -> dict[str, Any]:
    """The API's error shape (ddz_site.api.errors) with `code` and `message`, no fields or rule."""
    return {"error": {"code": code, "message": str(message), "fields": None, "rule": None}}


def unavailable_error() -> dict[str, Any]:
    """The API's error (ddz_site.api.errors) of a database that cannot be reached."""
    return api_error("unavailable", UNAVAILABLE_MESSAGE)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def refuse_nul(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., HttpResponse]:
    """A NUL character in the path: 404; in the query string: 400 (see the module)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        in_path = "\x00" in request.path
        if in_path or "%00" in request.META.get("QUERY_STRING", ""):
            if in_path:
                return not_found(request)
            if _is_api(request):
                return JsonResponse(api_error("parse_error", _("Bad request.")), status=400)
            return defaults.bad_request(request, None)  # type: ignore[arg-type]
        return get_response(request)

    return middleware


class DatabaseUnavailableMiddleware:
    """A lost or unreachable database in a view: 503 and "try again" (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        if _is_api(request) or _is_json_door(request.path):
            return JsonResponse(unavailable_error(), status=503, headers=headers)
        # Rendered without the request's context processors: they would ask the database for
        # the signed-in user, which is what failed.
        html = render_to_string("503.html", {"request": request, "message": UNAVAILABLE_MESSAGE})
        return HttpResponse(html, status=503, headers=headers)


# The JSON doors outside /api/ (tournaments.web.urls.links and the referee's device), whatever
# the numbers hold: ``boards/-1/entry/`` matches no URL and still answers JSON. Their clients
# (the live entry's script, the seat devices) read JSON whatever happens.
_LINK_JSON_DOOR = re.compile(
    r"/t/[^/]+/boards/[^/]+/(?:entry|games|device/(?:position|steps|undo))/"
    r"|/s/[^/]+/boards/[^/]+/(?:position|steps|undo|claim)/"
    r"|/p/[^/]+/rounds/[^/]+/boards/[^/]+/(?:position|steps|undo|claim)/"
    r"|/referee/events/[^/]+/tables/[^/]+/boards/[^/]+/device/(?:position|steps|undo)/"
)


def _is_json_door(path: str) -> bool:
    return _LINK_JSON_DOOR.fullmatch(path) is not None


def _json_door_allow(path: str) -> str:
    """The methods a JSON door outside /api/ takes (its views answer the same), "" for a page:
    the entry door reads and checks, a position is read, the others only take a POST."""
    if not _is_json_door(path):
        return ""
    if path.endswith("/entry/"):
        return "GET, HEAD, POST"
    return "GET, HEAD" if path.endswith("/position/") else "POST"


def _wants_json(request: HttpRequest) -> bool:
    """The API, and a JSON door of a private link (its client posts JSON)."""
    content_type = request.META.get("CONTENT_TYPE", "")
    accept = request.META.get("HTTP_ACCEPT", "")
    return (
        _is_api(request)
        or "json" in content_type
        or accept.startswith("application/json")
        or _is_json_door(request.path)
    )


def too_large_response(request: HttpRequest, *, fields: bool = False) -> HttpResponse:
    """413: the request is too large (``fields``: it has too many fields or files), in the
    API's error shape or as an error page (see the module). Nothing was stored."""
    if fields:
        message = gettext("The request has too many fields or files: nothing was stored.")
    else:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
        message = gettext("The request is too large (at most %(size)s MB): nothing was stored.") % {
            "size": round(limit / (1024 * 1024), 1)
        }
    if _wants_json(request):
        return JsonResponse(api_error("too_large", message), status=413)
    return render(request, "413.html", {"message": message}, status=413)


def _too_big(request: HttpRequest) -> bool:
    # Every content type, a multipart upload too: Django counts only a multipart form's
    # fields as it reads, so its files would be read and spooled whole before any view could
    # refuse them. The largest upload the site takes (the players file, 1 MB) fits well
    # under this limit, with its form around it.
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None:
        return False
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > limit
    except ValueError:
        return False


def refuse_too_big(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """A body larger than DATA_UPLOAD_MAX_MEMORY_SIZE: 413 before any view (see the module)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if _too_big(request):
            return too_large_response(request)
        return get_response(request)

    return middleware


# The longest address the site takes (characters of the percent-encoded path and query
# string): the longest any browser or proxy keeps, and below what the servers take in a
# request line (gunicorn 4094 bytes by default, Daphne 16 KB).
ADDRESS_MAX_LENGTH = 2048
ADDRESS_TOO_LONG_MESSAGE = _(
    "This address is too long: the site takes addresses of at most %(length)s characters."
)


def refuse_too_long(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """An address longer than ADDRESS_MAX_LENGTH: 414 before any view (see the module)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if len(request.get_full_path()) <= ADDRESS_MAX_LENGTH:
            return get_response(request)
        message = str(ADDRESS_TOO_LONG_MESSAGE) % {"length": ADDRESS_MAX_LENGTH}
        if _wants_json(request):
            return JsonResponse(api_error("too_long", message), status=414)
        # The page's links (signing in, the language) carry the address they were shown on:
        # the front page's while it is rendered, so that none of them is too long in turn.
        address = request.path, request.path_info, request.META.get("QUERY_STRING", "")
        request.path = request.path_info = "/"
        request.META["QUERY_STRING"] = ""
        try:
            return render(request, "414.html", {"message": message}, status=414)
        finally:
            request.path, request.path_info, request.META["QUERY_STRING"] = address

    return middleware


# The methods a page or JSON door outside /api/ takes (no view there takes any other).
PAGE_METHODS = ("GET", "HEAD", "POST")
METHOD_NOT_ALLOWED_MESSAGE = _("This address does not take that method.")


def method_not_allowed(allowed: str) -> JsonResponse:
    """405 in the API's error shape (``method_not_allowed``) with ``Allow: allowed``: a JSON
    door's answer to a method it does not take."""
    response = JsonResponse(api_error("method_not_allowed", METHOD_NOT_ALLOWED_MESSAGE), status=405)
    response["Allow"] = allowed
    return response


def page_methods_only(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[..., HttpResponse]:
    """A method no page takes, outside /api/: 405 with ``Allow`` (see the module)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if _is_api(request):
            return get_response(request)
        if request.method in PAGE_METHODS:
            response = get_response(request)
            if (
                response.status_code == 405
                and not response.streaming
                and not response.content
                and not _wants_json(request)
            ):
                # A button's address (require_POST) opened as a page, e.g. a sign-in's next
                # after a form sent signed out: the site's page, never an empty answer.
                page = render(
                    request,
                    "403.html",
                    {"exception": METHOD_NOT_ALLOWED_MESSAGE, "heading": _("Not allowed")},
                    status=405,
                )
                page["Allow"] = response["Allow"]
                return page
            return response
        allowed = _json_door_allow(request.path) or ", ".join(PAGE_METHODS)
        if _wants_json(request):
            return method_not_allowed(allowed)
        if not hasattr(request, "user"):
            # Answered before AuthenticationMiddleware: its header names the visitor all
            # the same, as every other page's does.
            request.user = SimpleLazyObject(lambda: auth.get_user(request))  # type: ignore[assignment]
        context = {"exception": METHOD_NOT_ALLOWED_MESSAGE, "heading": _("Not allowed")}
        response = render(request, "403.html", context, status=405)
        response["Allow"] = allowed
        return response

    return middleware


def shows_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """`view`, a page that only shows (the standings, a traveller), taking GET and HEAD only:
    any other method answers 405 (made the site's page by `page_methods_only`) before the
    CSRF check, which called a POST there an expired page. It reads no form, so no CSRF
    token has anything to guard."""
    return csrf_exempt(require_safe(view))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's handler400: a request found too large while read answers 413 (see the
    module); any other bad request Django's 400 page."""
    if isinstance(exception, RequestDataTooBig):
        return too_large_response(request)
    if isinstance(exception, (TooManyFieldsSent, TooManyFilesSent)):
        return too_large_response(request, fields=True)
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The site's handler404: the API's 404 (its message, ``not_found``) to the API and the
    JSON doors, the site's 404 page to everything else (see the module)."""
    if _wants_json(request):
        return JsonResponse(api_error("not_found", NotFound.default_detail), status=404)
    return defaults.page_not_found(request, exception)


CSRF_FAILURE_MESSAGE = _(
    "This page has expired (it was open too long, or you signed in or out since): "
    "reload the page and try again."
)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """The site's CSRF_FAILURE_VIEW: a POST without its valid CSRF token is refused, 403,
    saying to reload the page (Django's reason goes to no one: it names the mechanism)."""
    if _wants_json(request):
        return JsonResponse(api_error("csrf_failed", CSRF_FAILURE_MESSAGE), status=403)
    context = {"exception": CSRF_FAILURE_MESSAGE, "heading": _("This page has expired")}
    return render(request, "403.html", context, status=403)


def utf8_forms(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[..., HttpResponse]:
    """A form body of bytes that are not UTF-8: read with U+FFFD for them (see the module)."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if (
            request.method == "POST"
            and request.content_type == "application/x-www-form-urlencoded"
            and (request.encoding or settings.DEFAULT_CHARSET).lower() in ("utf-8", "utf8")
        ):
            body = request.body
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                request._post = QueryDict(  # type: ignore[attr-defined]
                    body.decode("utf-8", errors="replace"), encoding="utf-8"
                )
                request._files = MultiValueDict()  # type: ignore[attr-defined]
        return get_response(request)

    return middleware
