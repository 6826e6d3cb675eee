"""The API's game submission replaces a stored result only on purpose: a submission for a board
the table already has answers 409 (the error shape, with the version it would replace under
``current``: number, who entered it, when, its result) unless it says ``"replace": true`` and
names that version (``"replaces": N``); a version stored since is named in turn (no lost
update); the schema documents the 409's ``current``.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record

pytestmark = pytest.mark.django_db

# R-SC-MULT (classic): bid 1, no bomb nor rocket, the farmers win: each farmer +1, the
# landlord −2.
FARMERS_WIN = {"landlord": "S", "bid": 1, "winner": "farmers"}


@pytest.fixture
def world():
    return build_world(seed="api-replace")


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _url(world) -> str:
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[0].pk,
        "number": world.boards[0].number,
    }
    return reverse("api:games", kwargs=kw)


def test_a_second_game_is_a_409_describing_the_version_it_would_replace(world) -> None:
    chief, referee = _client(world.users["chief"]), _client(world.users["referee1"])
    first = chief.post(_url(world), {"quick": FARMERS_WIN}, format="json")
    assert first.status_code == 201
    record = bot_record(world.boards[0], world.tables[0])
    for body in ({"record": record}, {"record": record, "replace": True}):
        refused = referee.post(_url(world), body, format="json")
        assert refused.status_code == 409, refused.json()
        error = refused.json()["error"]
        assert error["code"] == "conflict" and "version 1" in error["message"].lower()
        assert error["current"] == {
            "id": first.json()["id"],
            "version": 1,
            "entered_by": world.users["chief"].get_username(),
            "submitted_at": first.json()["submitted_at"],
            "status": "pending",
            "landlord": "S",
            "winner": "farmers",
            "score": {"S": -2, "E": 1, "W": 1},
        }
    assert Game.objects.count() == 1


def test_a_replacement_names_the_current_version(world) -> None:
    referee = _client(world.users["referee1"])
    referee.post(_url(world), {"quick": FARMERS_WIN}, format="json")
    record = bot_record(world.boards[0], world.tables[0])
    second = referee.post(
        _url(world), {"record": record, "replace": True, "replaces": 1}, format="json"
    )
    assert second.status_code == 201 and second.json()["version"] == 2
    # Another client still showing version 1.
    late = _client(world.users["chief"]).post(
        _url(world), {"quick": FARMERS_WIN, "replace": True, "replaces": 1}, format="json"
    )
    assert late.status_code == 409
    current = late.json()["error"]["current"]
    assert current["version"] == 2 and current["id"] == second.json()["id"]
    assert current["entered_by"] == world.users["referee1"].get_username()
    assert Game.objects.get(replaced_at__isnull=True).pk == second.json()["id"]


@pytest.mark.parametrize("replaces", ["1", True, 0, 1.5, None, 2**40])
def test_replaces_is_a_json_version_number(world, replaces) -> None:
    referee = _client(world.users["referee1"])
    referee.post(_url(world), {"quick": FARMERS_WIN}, format="json")
    answer = referee.post(
        _url(world),
        {"quick": FARMERS_WIN, "replace": True, "replaces": replaces},
        format="json",
    )
    assert answer.status_code == 400 and "replaces" in answer.json()["error"]["fields"]
    assert Game.objects.count() == 1


def test_a_player_may_not_replace(world) -> None:
    _client(world.users["referee1"]).post(_url(world), {"quick": FARMERS_WIN}, format="json")
    answer = _client(world.users["player"]).post(
        _url(world), {"quick": FARMERS_WIN, "replace": True, "replaces": 1}, format="json"
    )
    assert answer.status_code == 403 and Game.objects.count() == 1


def test_the_schema_documents_the_version_of_a_409(client) -> None:
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    post = schema["paths"]["/api/events/{slug}/tables/{table_id}/boards/{number}/games/"]["post"]
    conflict = post["responses"]["409"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][conflict.rsplit("/", 1)[1]]
    error = body["properties"]["error"]
    error = schema["components"]["schemas"][error["$ref"].rsplit("/", 1)[1]]
    assert "current" in error["properties"]
    submit = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = schema["components"]["schemas"][submit.rsplit("/", 1)[1]]["properties"]
    assert fields["replaces"]["type"] == "integer" and fields["replaces"]["minimum"] == 1
