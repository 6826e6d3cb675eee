"""The referee's quick result page shows every field at fault in one answer, each error beside
its own field with the bound the rules give (classic rules: the bid 1 to 3, R-BID-AUCTION; one
deck holds one rocket and four of each rank, R-DECK), including a field the form itself refuses
next to claims only the deal can refuse. Nothing is stored."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

SEVENS = {"No hand holds a bomb of 7.", "The hands hold only 1 bomb(s) of 7."}


@pytest.fixture
def world():
    return build_world(seed="quick-form-every-error")


def _post(world, **change):
    client = Client()
    client.force_login(world.users["referee1"])
    url = reverse("referee:quick", args=[world.event.slug, world.tables[0].pk, 1])
    data = {
        "landlord": "S",
        "bid": "1",
        "rockets": "0",
        "spring": "",
        "winner": "landlord",
        "bombs": "",
        "idempotency_key": uuid.uuid4().hex,
    }
    return client.post(url, {**data, **change})


def test_bid_bombs_and_rockets_are_refused_together_with_their_bounds(world) -> None:
    response = _post(world, bid="99", bombs="7 7 Z", rockets="5")
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"bid", "bombs", "rockets"}, errors
    assert errors["bid"] == ["Impossible under these rules: 1 to 3 only."]
    assert errors["rockets"] == ["Impossible under these rules: 0 to 1 only."]
    # One deck holds four 7s: one bomb of 7 at most, none when the hands split them.
    assert SEVENS & set(errors["bombs"]), errors["bombs"]
    assert any("“Z”" in m for m in errors["bombs"]), errors["bombs"]
    text = response.content.decode()
    for name in ("bid", "bombs", "rockets"):
        assert f'id="id_{name}_error"' in text
    assert Game.objects.count() == 0


def test_a_field_the_form_refuses_is_shown_with_the_claims_the_deal_refuses(world) -> None:
    # "abc" is no number (the form's own check); two rockets and a winner nobody is still
    # answered in the same page (R-T12, R-END).
    response = _post(world, bid="abc", rockets="2", winner="nobody")
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"bid", "rockets", "winner"}, errors
    assert errors["rockets"] == ["Impossible under these rules: 0 to 1 only."]
    assert Game.objects.count() == 0
