"""A quick result's impossible claims are refused field by field: the referee's page shows
every refused claim under its own field, and spring claimed with anti-spring asks, in the
reader's language, to choose one; nothing is stored.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def test_the_quick_result_shows_every_refused_claim_under_its_field(linked) -> None:
    world, _tokens = linked
    client = Client()
    client.force_login(world.users["referee1"])
    url = reverse("referee:quick", args=[world.event.slug, world.tables[0].pk, 1])
    data = {
        "landlord": "S",
        "bid": "1",
        "rockets": "3",  # R-T12: one deck holds one rocket
        "spring": "spring",  # R-SPRING: a spring is the landlord's win
        "winner": "farmers",
        "bombs": "",
        "idempotency_key": "trial-quick-1",
    }
    response = client.post(url, data)
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert errors.get("rockets") and errors.get("spring"), errors
    text = response.content.decode()
    assert 'id="id_rockets_error"' in text and 'id="id_spring_error"' in text
    assert Game.objects.count() == 0


@pytest.fixture
def world():
    return build_world(seed="trial-doors")


@pytest.mark.parametrize("winner", ["landlord", "farmers"])
def test_spring_and_anti_spring_together_ask_to_choose_one(world, winner) -> None:
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/games/"
    quick = {"landlord": "S", "bid": 1, "winner": winner, "spring": True, "anti_spring": True}
    for headers, expected in (
        ({}, "Choose spring or anti-spring, not both."),
        (ZH, "请在春天与反春天中选一个，不能两个都选。"),
    ):
        client = APIClient(**headers)
        client.force_authenticate(world.users["referee1"])
        response = client.post(url, {"quick": quick}, format="json")
        assert response.status_code == 400
        assert response.json()["error"]["fields"] == {"quick.spring": [expected]}
    assert Game.objects.count() == 0
