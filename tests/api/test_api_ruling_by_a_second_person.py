"""The API's ruling door asks a second person where the event asks two-person confirmation:
the chief referee who entered a flagged game is answered 403 (the error shape, saying someone
else rules) and nothing changes; another chief referee's ruling is taken."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, Status
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.models import EventRole, Role
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_chief_who_entered_a_game_does_not_rule_on_it() -> None:
    world = build_world(seed="api-second-ruling")
    chief = _client(world.users["chief"])
    record = bot_record(world.boards[0], world.tables[0])
    seat = next(iter(record["declared"]))
    record["declared"] = {s: v + (1 if s == seat else 0) for s, v in record["declared"].items()}
    kw = {"slug": world.event.slug, "table_id": world.tables[0].pk, "number": 1}
    game_id = chief.post(reverse("api:games", kwargs=kw), {"record": record}, format="json")
    game_id = game_id.json()["id"]
    game_verify(game_id=game_id)
    assert Game.objects.get(pk=game_id).status == Status.MISMATCH
    resolve = reverse("api:resolve", kwargs={"pk": game_id})
    own = chief.post(resolve, {"decision": "accept", "note": "my slip"}, format="json")
    assert own.status_code == 403, own.json()
    error = own.json()["error"]
    assert error["code"] == "forbidden" and "entered" in error["message"]
    assert Game.objects.get(pk=game_id).resolution == ""
    second = User.objects.create_user("second-chief-api", password="x")
    EventRole.objects.create(event=world.event, user=second, role=Role.CHIEF_REFEREE)
    ruled = _client(second).post(resolve, {"decision": "accept", "note": "slip"}, format="json")
    assert ruled.status_code == 200 and ruled.json()["resolved_by"] == second.username
