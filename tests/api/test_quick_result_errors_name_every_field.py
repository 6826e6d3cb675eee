"""A refused quick result answers every field at fault at once, each named ``quick.<field>``
and each with the bound the rules give, at both JSON doors: the API and the table link's
``/t/TOKEN/boards/N/games/``. Nothing is stored."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from games.steps import EntryDeal
from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

# Classic rules (R-BID-AUCTION: bids 1 to 3; R-DECK: one deck, so one rocket and four of each
# rank, one bomb of a rank at most). Z names no rank (R-NOTE).
EVERY_BOUND = {
    "landlord": "S",
    "bid": 99,
    "winner": "landlord",
    "bombs": ["7", "7", "Z"],
    "rockets": 5,
}

SEVENS = {"No hand holds a bomb of 7.", "The hands hold only 1 bomb(s) of 7."}


@pytest.fixture
def world():
    return build_world(seed="quick-every-field")


def _api(world, body):
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/games/"
    client = APIClient()
    client.force_authenticate(world.users["referee1"])
    return client.post(url, body, format="json")


def _link(world, token, body):
    url = f"/t/{token}/boards/{world.boards[0].number}/games/"
    return Client().post(url, body, content_type="application/json")


def _missing_bomb(world) -> str:
    """A rank of which no hand holds four, with S (the landlord below) taking the bottom."""
    deal = EntryDeal.from_board(world.boards[0])
    hands = {s: h + (deal.bottom if s == "S" else "") for s, h in deal.hands.items()}
    return next(r for r in "3456789TJQKA2" if all(h.count(r) < 4 for h in hands.values()))


def _doors(world, token):
    return (lambda body: _api(world, body), lambda body: _link(world, token, body))


def test_every_bound_broken_is_answered_at_once(world, table_token) -> None:
    for post in _doors(world, table_token):
        response = post({"quick": EVERY_BOUND})
        assert response.status_code == 400, response.content[:300]
        fields = response.json()["error"]["fields"]
        assert set(fields) == {"quick.bid", "quick.bombs", "quick.rockets"}, fields
        assert fields["quick.bid"] == ["Impossible under these rules: 1 to 3 only."]
        assert fields["quick.rockets"] == ["Impossible under these rules: 0 to 1 only."]
        # One deck holds four 7s: one bomb of 7 at most, none when the hands split them.
        assert SEVENS & set(fields["quick.bombs"]), fields["quick.bombs"]
        assert any("“Z”" in m for m in fields["quick.bombs"]), fields["quick.bombs"]
    assert Game.objects.count() == 0


def test_a_double_and_a_missing_bomb_are_both_named_under_quick(world, table_token) -> None:
    # Classic bidding has no double (R-DOUBLE-ORDER); the bomb is in no hand (R-T11).
    quick = {
        "landlord": "S",
        "bid": 1,
        "winner": "landlord",
        "doubles": ["E"],
        "bombs": [_missing_bomb(world)],
    }
    for post in _doors(world, table_token):
        response = post({"quick": quick})
        assert response.status_code == 400, response.content[:300]
        assert set(response.json()["error"]["fields"]) == {"quick.doubles", "quick.bombs"}
    assert Game.objects.count() == 0


def test_the_serializers_refusals_are_named_under_quick_too(world, table_token) -> None:
    # Type errors are the serializer's: each field still named quick.<field>, all at once.
    quick = {"landlord": "S", "bid": "abc", "winner": "both", "rockets": "x", "spring": "maybe"}
    for post in _doors(world, table_token):
        response = post({"quick": quick})
        assert response.status_code == 400, response.content[:300]
        fields = response.json()["error"]["fields"]
        assert set(fields) == {"quick.bid", "quick.winner", "quick.rockets", "quick.spring"}
