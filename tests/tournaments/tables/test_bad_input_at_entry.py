"""Malformed quick results, steps and records at every door of referee entry: each is a clear
field error on the page and a 400 in the one error shape of the API (ddz_site.api.errors), never
a server error, and nothing is stored. Also: a quick result claims a double only under rules
whose bidding has one (games.entry.bidding_calls)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import quick_result
from games import steps as entry_steps
from games.engine import RuleSet
from games.models import Game
from tests.entry_personas import build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world(seed="bad-input")


def _api(world) -> tuple[APIClient, str]:
    client = APIClient()
    client.force_authenticate(world.users["referee1"])
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[0].pk,
        "number": world.boards[0].number,
    }
    return client, reverse("api:games", kwargs=kw)


GOOD_QUICK = {"landlord": "S", "bid": 1, "winner": "landlord"}

# Each malformed quick result and the field the error must name.
BAD_QUICK = [
    ({"bombs": ["zz"]}, "quick.bombs"),
    ({"bombs": ["7", "小王"]}, "quick.bombs"),
    ({"bombs": ["BR"]}, "quick.bombs"),
    ({"bombs": [""]}, "quick.bombs"),
    ({"bombs": "7"}, "quick.bombs"),
    ({"bombs": [7]}, "quick.bombs"),
    ({"bombs": [None]}, "quick.bombs"),
    ({"bombs": [{"r": 1}]}, "quick.bombs"),
    ({"bid": "abc"}, "quick.bid"),
    ({"bid": 7}, "quick.bid"),
    ({"bid": -1}, "quick.bid"),
    ({"bid": None}, "quick.bid"),
    ({"bid": 1.5}, "quick.bid"),
    ({"landlord": "N"}, "quick.landlord"),
    ({"landlord": ""}, "quick.landlord"),
    ({"landlord": ["S"]}, "quick.landlord"),
    ({"winner": "both"}, "quick.winner"),
    ({"rockets": -1}, "quick.rockets"),
    ({"rockets": "x"}, "quick.rockets"),
    ({"rockets": 9}, "quick.rockets"),
    ({"doubles": "E"}, "quick.doubles"),
    ({"doubles": ["E"]}, "quick.doubles"),  # classic has no double
    ({"doubles": ["Z"]}, "quick.doubles"),
    ({"spring": "maybe"}, "quick.spring"),
    ({"anti_spring": [1]}, "quick.anti_spring"),
    ({"spring": True, "winner": "farmers"}, "quick.spring"),
    ({"redouble": True}, "quick.redouble"),
    ({"show": True}, "quick.show"),
]


@pytest.mark.parametrize("change, field", BAD_QUICK)
def test_a_malformed_quick_result_is_a_field_error_in_the_api(world, change, field) -> None:
    client, url = _api(world)
    before = Game.objects.count()
    response = client.post(url, {"quick": {**GOOD_QUICK, **change}}, format="json")
    assert response.status_code == 400, response.content[:300]
    body = response.json()["error"]
    assert set(body) == {"code", "message", "fields", "rule"}
    named = body["fields"] or {}
    assert any(k == field or k.startswith(field + ".") for k in named), body
    for messages in body["fields"].values():
        assert all(isinstance(m, str) and "ErrorDetail" not in m for m in messages)
    assert Game.objects.count() == before


def test_nested_errors_are_plain_messages_under_dotted_names(world) -> None:
    client, url = _api(world)
    response = client.post(url, {"quick": {**GOOD_QUICK, "spring": "maybe"}}, format="json")
    assert response.json()["error"]["fields"] == {
        "quick.spring": ["Must be true or false (JSON), not a string or number."]
    }
    response = client.post(url, {"steps": ["1", "", "p"]}, format="json")
    assert response.json()["error"]["fields"] == {"steps.1": ["This field may not be blank."]}


BAD_STEPS = [
    ["zz"],
    ["1", "p", "p", "33x"],
    ["1", "p", "p", "@bomb"],
    ["4"],
    ["1", "1"],
    ["claim"],
    ["1", "p", "p", "3 @nonsense"],
    ["1", "p", "p", "BR", "BR"],
    ["1", "p", "p", "2222@"],
    ["x" * 60],
]


@pytest.mark.parametrize("steps", BAD_STEPS)
def test_malformed_steps_are_a_400_in_the_one_shape(world, steps) -> None:
    client, url = _api(world)
    before = Game.objects.count()
    response = client.post(url, {"steps": steps}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"]["message"]
    entry_url = url.replace("/games/", "/entry/")
    checked = client.post(entry_url, {"steps": steps[:-1], "step": steps[-1]}, format="json")
    assert checked.status_code in (200, 400), checked.content[:300]
    assert Game.objects.count() == before


BAD_RECORDS = [
    None,
    [],
    "text",
    {},
    {"rules": ["classic"], "hands": {}},
    {"rules": {"preset": 3}, "hands": {"S": 1}},
    {"hands": {"S": "zz", "E": "", "W": ""}, "bottom": "", "bidding": [], "plays": []},
    {"hands": [1, 2], "bottom": 5, "bidding": "x", "plays": {}},
]


@pytest.mark.parametrize("record", BAD_RECORDS)
def test_malformed_records_are_a_400(world, record) -> None:
    client, url = _api(world)
    before = Game.objects.count()
    response = client.post(url, {"record": record}, format="json")
    assert response.status_code == 400, response.content[:300]
    assert Game.objects.count() == before


# -- the quick result page -----------------------------------------------------------------------

FORM_BAD = [
    ({"bombs": "zz"}, "bombs"),
    ({"bombs": "7 ?"}, "bombs"),
    ({"bid": "abc"}, "bid"),
    ({"bid": "7"}, "bid"),
    ({"landlord": "N"}, "landlord"),
    ({"rockets": "3"}, "rockets"),
    ({"winner": "nobody"}, "winner"),
    ({"spring": "spring", "winner": "farmers"}, "spring"),
]


@pytest.mark.parametrize("change, field", FORM_BAD)
def test_the_quick_result_page_shows_a_field_error(world, change, field) -> None:
    client = Client()
    client.force_login(world.users["referee1"])
    url = reverse(
        "referee:quick",
        kwargs={
            "slug": world.event.slug,
            "table_id": world.tables[0].pk,
            "number": world.boards[0].number,
        },
    )
    data = {
        "landlord": "S",
        "bid": "1",
        "rockets": "0",
        "spring": "",
        "winner": "landlord",
        "bombs": "",
        "idempotency_key": uuid.uuid4().hex,
    }
    data.update(change)
    before = Game.objects.count()
    response = client.post(url, data)
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors.get(field), form.errors
    assert Game.objects.count() == before


def test_the_quick_result_page_offers_no_double_under_rules_without_one(world) -> None:
    client = Client()
    client.force_login(world.users["referee1"])
    url = reverse(
        "referee:quick",
        kwargs={
            "slug": world.event.slug,
            "table_id": world.tables[0].pk,
            "number": world.boards[0].number,
        },
    )
    page = client.get(url)
    assert "doubles" not in page.context["form"].fields  # classic has no double (R-SC-MULT)


# -- doubles under rules without doubling ------------------------------------------------------


@pytest.mark.parametrize(
    "preset, calls",
    [
        # R-BID-AUCTION, R-BID-ONCE: bids only; R-SC-ROB: call, rob, and the landlord's show;
        # R-SC-CN2016: double and redouble; competition: double and surrender; R-5P: reveal.
        ("classic", {"1", "2", "3", "pass"}),
        ("classic_once", {"1", "2", "3", "pass"}),
        ("rob", {"call", "rob", "pass", "show"}),
        ("cn2016", {"1", "2", "3", "pass", "double", "redouble"}),
        ("competition", {"call", "rob", "pass", "double", "surrender"}),
        ("two_player", {"call", "pass"}),
        ("four_player", {"1", "2", "3", "pass"}),
        ("five_player", {"double", "pass", "reveal"}),
    ],
)
def test_the_calls_of_each_preset_come_from_the_engine(preset, calls) -> None:
    assert quick_result.bidding_calls(RuleSet.from_spec(preset)) == calls


HANDS = {
    "S": "333344556677889TJ",
    "E": "4557899TJQQKKAABR",
    "W": "46789TJQKA2222JQK",
}


def _deal(preset: str) -> entry_steps.EntryDeal:
    hands = {s: "".join(sorted(h, key="3456789TJQKA2BR".index)) for s, h in HANDS.items()}
    return entry_steps.EntryDeal(
        rules=RuleSet.from_spec(preset), hands=hands, bottom="6TA", first_bidder="S"
    )


@pytest.mark.parametrize("preset", ["classic", "classic_once"])
def test_a_double_is_refused_where_the_rules_have_none(preset) -> None:
    quick = quick_result.QuickResult(landlord="S", bid=1, winner="landlord", doubles=("E",))
    with pytest.raises(entry_steps.EntryError) as caught:
        quick_result.check_quick(_deal(preset), quick)
    assert caught.value.field == "doubles" and caught.value.rule == "R-DOUBLE-ORDER"


def test_a_double_counts_where_the_rules_have_one() -> None:
    # R-SC-CN2016: bid 2, one farmer doubled, landlord wins with nothing else: E pays 2 × 2,
    # W 2, so S wins 6 (the doubling applies to the doubling farmer's settlement only).
    quick = quick_result.QuickResult(landlord="S", bid=2, winner="landlord", doubles=("E",))
    plain = quick_result.check_quick(_deal("cn2016"), quick_result.QuickResult("S", 2, "landlord"))
    doubled = quick_result.check_quick(_deal("cn2016"), quick)
    assert doubled.score["E"] == 2 * plain.score["E"]
