"""The audit log's ``limit`` is 1 to 500 (README): a larger one is refused, 400 naming the
parameter in the API's error shape, never quietly cut to 500."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.entry_personas import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def audit():
    world = build_world(seed="audit-limit-500")
    client = APIClient()
    client.force_authenticate(world.users["chief"])
    return client, reverse("api:audit", kwargs={"slug": world.event.slug})


@pytest.mark.parametrize("value", ["501", "100000", "9" * 1000])
def test_a_limit_above_500_is_refused(audit, value: str) -> None:
    client, url = audit
    response = client.get(url, {"limit": value})
    assert response.status_code == 400, response.content[:300]
    error = response.json()["error"]
    assert error["code"] == "invalid" and list(error["fields"]) == ["limit"]
    assert "500" in error["fields"]["limit"][0]


@pytest.mark.parametrize("value", ["1", "500", "0500"])
def test_a_limit_from_1_to_500_is_taken(audit, value: str) -> None:
    client, url = audit
    assert client.get(url, {"limit": value}).status_code == 200


def test_the_schema_documents_the_maximum(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/events/{slug}/audit/"]["get"]
    limit = next(p for p in operation["parameters"] if p["name"] == "limit")
    assert limit["schema"]["minimum"] == 1 and limit["schema"]["maximum"] == 500
