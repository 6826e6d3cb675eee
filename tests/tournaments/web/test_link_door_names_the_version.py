"""A table link's JSON door replaces a stored result only on purpose: a submission for a board
the table already has answers 409 in the site's error shape with the version it would replace
described under ``current`` (number, who entered it, when, its result), unless it says
``"replace": true`` and names that version (``"replaces": N``); a version stored since is
named in turn. ``replaces`` is a JSON whole number of at least 1, and only with replace.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import bot_record

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"

# R-SC-MULT (classic): bid 1, no bomb nor rocket: the side that wins takes u = 1 from each
# farmer (landlord wins: +2, −1, −1) or gives it (farmers win: −2, +1, +1).
FARMERS_WIN = {"landlord": "S", "bid": 1, "winner": "farmers"}
LANDLORD_WINS = {"landlord": "S", "bid": 1, "winner": "landlord"}


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


@pytest.fixture
def door(linked):
    world, tokens = linked
    client = Client(HTTP_USER_AGENT=UA)
    url = reverse("links:games", args=[tokens[0], 1])

    def post(body: dict, key: str | None = None):
        headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
        return client.post(url, body, content_type="application/json", **headers)

    return world, post


def test_a_second_result_is_a_409_describing_the_version(door) -> None:
    world, post = door
    first = post({"quick": FARMERS_WIN, "replace": False})
    assert first.status_code == 201
    for body in (
        {"quick": LANDLORD_WINS},
        {"quick": LANDLORD_WINS, "replace": False},
        # Saying it replaces is not enough: it names the version it replaces.
        {"quick": LANDLORD_WINS, "replace": True},
    ):
        refused = post(body)
        assert refused.status_code == 409, refused.content
        error = refused.json()["error"]
        assert error["code"] == "conflict" and "version 1" in error["message"].lower()
        current = error["current"]
        assert current["version"] == 1 and current["id"] == first.json()["id"]
        assert current["entered_by"] == "table 1 link"
        assert current["landlord"] == "S" and current["winner"] == "farmers"
        assert current["score"] == {"S": -2, "E": 1, "W": 1}
        assert current["submitted_at"].startswith(Game.objects.get().submitted_at.isoformat()[:19])
    assert Game.objects.count() == 1


def test_a_replacement_naming_the_version_is_stored_and_a_late_one_refused(door) -> None:
    world, post = door
    table, board = world.tables[0], world.boards[0]
    post({"quick": FARMERS_WIN})
    second = post({"quick": LANDLORD_WINS, "replace": True, "replaces": 1})
    assert second.status_code == 201, second.content
    assert Game.objects.get(pk=second.json()["id"]).version == 2
    # A device that still shows version 1 names it: refused, version 2 described.
    steps = _steps(bot_record(board, table))
    late = post({"steps": steps, "replace": True, "replaces": 1})
    assert late.status_code == 409
    current = late.json()["error"]["current"]
    assert current["version"] == 2 and current["score"] == {"S": 2, "E": -1, "W": -1}
    assert Game.objects.count() == 2
    assert post({"steps": steps, "replace": True, "replaces": 2}).status_code == 201


@pytest.mark.parametrize("replaces", ["1", True, 0, -1, 1.5, None, [1], 2**40])
def test_replaces_is_a_version_number(door, replaces) -> None:
    _world, post = door
    post({"quick": FARMERS_WIN})
    answer = post({"quick": LANDLORD_WINS, "replace": True, "replaces": replaces})
    assert answer.status_code == 400, answer.content
    assert "replaces" in answer.json()["error"]["fields"]
    assert Game.objects.count() == 1


def test_replaces_goes_with_replace(door) -> None:
    _world, post = door
    post({"quick": FARMERS_WIN})
    answer = post({"quick": LANDLORD_WINS, "replaces": 1})
    assert answer.status_code == 400
    assert "replaces" in answer.json()["error"]["fields"]
    assert Game.objects.count() == 1
