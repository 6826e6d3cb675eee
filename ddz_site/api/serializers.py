"""The one error shape of every JSON door, for the OpenAPI schema: ``{"error": {"code",
"message", "fields", "rule"}}`` (ddz_site.api.errors builds it).
"""

from __future__ import annotations

from rest_framework import serializers


class ErrorBodySerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    fields = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))
    rule = serializers.CharField(allow_null=True)


class ErrorSerializer(serializers.Serializer):
    """The one error shape (ddz_site.api.errors)."""

    error = ErrorBodySerializer()
