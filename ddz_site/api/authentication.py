"""The API's authentication classes: tokens (django-rest-knox) and sessions (the site's own
pages calling the API).

Knox's, refusing a token that is not UTF-8 as any other wrong token (401
``authentication_failed``), where knox decoded it unchecked and answered 500 on every API
endpoint, public reads included. DRF's session authentication, whose refusal of a request
without its CSRF token says what the site's pages say (ddz_site.web.middleware.csrf_failure):
``csrf_failed``, the page expired, reload it; never the mechanism. Their own module: DRF
imports the authentication classes while its views load.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import authentication, exceptions

from ddz_site.web.middleware import CSRF_FAILURE_MESSAGE


class TokenAuthentication(KnoxTokenAuthentication):
    def authenticate_credentials(self, token: bytes) -> Any:
        """Knox's check of `token` (the bytes after "Token " in the Authorization header).

        Raises:
            AuthenticationFailed: a token that is not UTF-8 (no token is), or knox's refusals.
        """
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        return super().authenticate_credentials(token)


class SessionAuthentication(authentication.SessionAuthentication):
    def enforce_csrf(self, request: Any) -> None:
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(CSRF_FAILURE_MESSAGE, code="csrf_failed") from None


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI schema's name of the token authentication: knox's (drf-spectacular's
    extension, which names knox's own class only)."""

    target_class = "ddz_site.api.authentication.TokenAuthentication"
