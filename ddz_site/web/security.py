"""Who is asking: the client address that sign-in lockouts (django-axes) and the API's
throttles (DRF) count alike, and the user name an attempt named (django-axes); and the
passwords an account may have (AUTH_PASSWORD_VALIDATORS), refused in the reader's language.

Behind DDZ_TRUSTED_PROXIES reverse proxies, each appending to X-Forwarded-For, the client is
the address the outermost of them saw (DRF's NUM_PROXIES rule); with none, REMOTE_ADDR. A
client cannot choose his address by sending X-Forwarded-For himself: only the entries the
trusted proxies appended are read.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import password_validation
from django.http import HttpRequest
from django.utils.translation import ngettext
from rest_framework.throttling import BaseThrottle


def client_address(request: HttpRequest) -> str | None:
    """The client's address of `request` (AXES_CLIENT_IP_CALLABLE), as DRF's throttles
    identify it; None for a request that came from no address (the test client's logins)."""
    return BaseThrottle().get_ident(request) or None


# The longest user name an account can have (django.contrib.auth's User.username).
USERNAME_MAX = 150


def attempted_username(
    request: HttpRequest, credentials: dict[str, Any] | None = None
) -> str | None:
    """The user name a sign-in attempt named, as django-axes records and counts it
    (AXES_USERNAME_CALLABLE): from the credentials, else the form or JSON body (``username``,
    or ``login`` on django-allauth's sign-in page, which takes an e-mail address too), cut to
    USERNAME_MAX characters; None when the attempt named none. django-allauth passes what was
    typed as ``username`` even when it is an address, so each typed name has one count.

    No account has a longer name, so the cut changes no lockout of a real account; stored
    whole, a name of 300 characters broke the attempt's row on PostgreSQL (varchar(255): a
    500 on every sign-in door) and SQLite kept names of 2.4 million characters.
    """
    if credentials:
        name = credentials.get("username", credentials.get("email"))
    else:
        body = getattr(request, "data", request.POST)
        name = body.get("username", body.get("login"))
    return None if name is None else str(name)[:USERNAME_MAX]


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    """Django's rule of a password's least length (``min_length`` characters, 8 by default),
    with a sentence of the site's own catalogue: Django's refusal is a sentence its Chinese
    catalogue has not caught up with, so an official made with a short password was told in
    English beside the other validators' Chinese."""

    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short: it must have at least %(min_length)d character.",
            "This password is too short: it must have at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
