"""The one error shape of every JSON door, for the OpenAPI schema: ``{"error": {"code",
"message", "fields", "rule"}}`` (ddz_site.api.errors builds it).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text=_(
            "Each field at fault (a nested one named with dots) with its messages; null when "
            "the refusal is not about the fields."
        ),
    )
    rule = serializers.CharField(allow_null=True, help_text=_("The rule refused (R-…), or null."))


class ErrorSerializer(serializers.Serializer):
    """The one error shape (ddz_site.api.errors)."""

    error = ErrorBodySerializer()
