"""The API documentation (Swagger UI at /api/docs/, Redoc at /api/redoc/) loads nothing from
outside the site: no host but the site's own in the pages or in their configuration, and a
Content-Security-Policy that keeps the browser on the site's origin (ddz_site.api.docs)."""

from __future__ import annotations

import json
import re

import pytest
from django.conf import settings
from django.urls import reverse

from ddz_site.api.docs import CONTENT_SECURITY_POLICY

URL = re.compile(r"""(?:https?:)?//[^\s"'<>)]+""")


@pytest.mark.parametrize("name", ["api:swagger", "api:redoc"])
def test_the_docs_reference_no_other_host(client, name) -> None:
    response = client.get(reverse(name))
    assert response.status_code == 200
    page = response.content.decode()
    assert "/static/drf_spectacular_sidecar/" in page
    assert URL.findall(page) == []
    # The policy: own origin only (no host named), so a bundle's own fetch (Redoc's logo from
    # cdn.redoc.ly) is refused by the browser.
    policy = response["Content-Security-Policy"]
    assert policy == CONTENT_SECURITY_POLICY and "default-src 'self'" in policy
    assert URL.findall(policy) == [] and "*" not in policy


def test_the_docs_configuration_names_no_other_host() -> None:
    config = json.dumps(settings.SPECTACULAR_SETTINGS, default=str)
    assert URL.findall(config) == []
    assert settings.SPECTACULAR_SETTINGS["SWAGGER_UI_SETTINGS"]["validatorUrl"] is None
    assert "fonts.googleapis.com" not in config
