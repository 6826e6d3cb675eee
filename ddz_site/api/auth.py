"""The API's door: `POST /api/auth/token/` trades a user name and password for a token.

Answer: ``{"token": "…", "expiry": "2025-05-01T20:00:00Z"}`` (ISO 8601; DDZ_API_TOKEN_HOURS
after the request). Send it as ``Authorization: Token …`` until it expires, then ask again.
Tokens are django-rest-knox's: only a hash is stored, each sign-in makes a new one.

Wrong passwords are counted per account and client address by django-axes (the same count as
the sign-in page's); at the limit the door answers 429 ``throttled``, even to the right
password, for that account at that address. More than DDZ_TOKEN_REQUESTS_PER_MINUTE requests
from one address in a minute answer 429 too, whatever the accounts, until that minute is over
(counted by every web process together: ddz_site.api.throttling). A wrong password below the
limit answers 400 ``invalid``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.views import LoginView
from rest_framework import exceptions, serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from ddz_site.api.serializers import ErrorSerializer
from ddz_site.api.throttling import SharedRateThrottle


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Token <token>`.")
    expiry = serializers.DateTimeField(help_text="When the token stops working.")


class TokenView(LoginView):
    """A new API token for a user name and password (see the module)."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    throttle_classes = [SharedRateThrottle]
    throttle_scope = "token"

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: TokenSerializer,
            400: OpenApiResponse(ErrorSerializer, description="Wrong user name or password."),
            429: OpenApiResponse(
                ErrorSerializer, description="Too many failed sign-ins or requests."
            ),
        },
    )
    def post(self, request: Request, format: str | None = None) -> Response:
        credentials = AuthTokenSerializer(data=request.data, context={"request": request})
        if not credentials.is_valid():
            # django-axes marks the request when this account is locked at this address.
            if getattr(request, "axes_locked_out", False):
                raise exceptions.Throttled(
                    wait=settings.AXES_COOLOFF_TIME.total_seconds(),
                    detail=_("Too many failed sign-ins: try again later."),
                )
            raise exceptions.ValidationError(credentials.errors)
        request.user = credentials.validated_data["user"]
        return super().post(request, format=format)
