"""Who a signed-in visitor is, for the site's busiest public page, without his user row.

The standings page (tournaments.web.public.standings) is the same for everyone but its account
header. Django's authentication reads the visitor's user row on every request that asks who
he is: a query, and before it the connection's health check, about 0.6 ms of the page's
1.8 ms. `visitor_name` answers from the session and from a copy of what the header and the
check need, kept per user in the shared cache (DDZ_CACHE_URL), and checks the session as
``django.contrib.auth.get_user`` does: an authentication backend still configured and the
session's hash equal to the user's own (made from his password: a changed password signs his
other sessions out); a copy is made only of an account Django accepted (an active one).
Anything it cannot decide that way (no copy yet, a hash made under an old SECRET_KEY, which
Django would rotate) goes through Django's own path (``request.user``), which also makes the
copy.

The copy is deleted whenever the user is saved or deleted (a password changed, an account
deactivated or renamed: ``forget_identity``, connected by tournaments.apps), and lives at most
IDENTITY_SECONDS in any case (a bulk update sends no signal). The page it serves grants
nothing: every other page, and every write, checks the user row as Django does. Without a
shared cache the copy is not kept (each process's memory would keep one that another process
should have deleted) and the visitor is found by Django's path alone.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import caches
from django.db import transaction
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare

logger = logging.getLogger(__name__)

# The longest a copy outlives a change that sent no signal (a bulk update of the accounts).
IDENTITY_SECONDS = 30


def _key(user_id: object) -> str:
    return f"visitor-identity:{user_id}"


def _kept() -> bool:
    """Whether the copies are kept: in a cache every process of the site shares."""
    return bool(getattr(settings, "DDZ_SHARED_CACHE", False))


def visitor_name(request: HttpRequest) -> str | None:
    """The user name of the visitor signed in on `request`, or None for a stranger (no one
    signed in, or a session Django would not accept). Reads the session (the session cache)
    and the user's copy (the shared cache); the user row only when there is no copy."""
    session = request.session
    user_id = session.get(SESSION_KEY)
    if user_id is None:
        return None  # Django's get_user: AnonymousUser, with no query either
    if _kept():
        identity = _shared("get", _key(user_id))
        if identity is not None:
            name, session_hash = identity
            if session.get(BACKEND_SESSION_KEY) in settings.AUTHENTICATION_BACKENDS and (
                constant_time_compare(session.get(HASH_SESSION_KEY, ""), session_hash)
            ):
                return str(name)
    user = request.user
    if not user.is_authenticated:
        return None
    if _kept():
        _shared("set", _key(user.pk), (user.get_username(), user.get_session_auth_hash()))
    return str(user.get_username())


def forget_identity(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Delete the copy of `instance` (a user saved or deleted: a post_save and post_delete
    receiver of the user model), so that the next page reads his row again: at once, and
    again once the change is committed (a page that read the row before the commit may have
    made a copy of the old one meanwhile)."""
    if not _kept() or instance.pk is None:
        return
    key = _key(instance.pk)
    _shared("delete", key)
    transaction.on_commit(lambda: _shared("delete", key))


def _shared(operation: str, key: str, value: object = None) -> Any:
    """`operation` ("get", "set", "delete") of `key` in the shared cache; a cache that does not
    answer is passed over (None), as the sessions' engine passes it over: the page then finds
    the visitor by Django's path, and a change of an account is never refused for it (a Redis
    restarted keeps no copy anyway)."""
    cache = caches["shared"]
    try:
        if operation == "get":
            return cache.get(key)
        if operation == "set":
            return cache.set(key, value, IDENTITY_SECONDS)
        return cache.delete(key)
    except Exception:  # noqa: BLE001 - any failure of the cache's client is the same to us
        logger.warning("visitor identity: the shared cache did not answer (%s)", operation)
        return None
