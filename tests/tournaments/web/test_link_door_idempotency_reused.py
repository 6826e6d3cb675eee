"""A table link's JSON door answers a reused idempotency key as the API does: 422
``idempotency_key_reused`` (README, "One write path"), not a plain 400."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

FARMERS_WIN = {"landlord": "S", "bid": 1, "winner": "farmers"}
LANDLORD_WINS = {"landlord": "S", "bid": 1, "winner": "landlord"}


def test_a_key_sent_again_with_another_game_is_a_422(linked) -> None:
    _world, tokens = linked
    client = Client()
    url = reverse("links:games", args=[tokens[0], 1])
    first = client.post(
        url, {"quick": FARMERS_WIN}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1"
    )
    assert first.status_code == 201
    again = client.post(
        url,
        {"quick": FARMERS_WIN},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    reused = client.post(
        url,
        {"quick": LANDLORD_WINS, "replace": True, "replaces": 1},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert reused.status_code == 422, reused.content
    assert reused.json()["error"]["code"] == "idempotency_key_reused"
