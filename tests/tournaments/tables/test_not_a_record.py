"""A game record missing its hands is refused as not a game record, in the reader's
language; nothing is stored.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def world():
    return build_world(seed="trial-doors")


def test_a_record_missing_its_hands_is_refused_in_the_readers_language(world) -> None:
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/games/"
    said = {}
    for lang, headers in (("en", {}), ("zh", ZH)):
        client = APIClient(**headers)
        client.force_authenticate(world.users["referee1"])
        response = client.post(url, {"record": {"rules": "classic"}}, format="json")
        assert response.status_code == 400
        said[lang] = response.json()["error"]["message"]
    assert said["en"] == "This is not a game record: the field “hands” is missing."
    assert said["zh"] == "这不是牌局记录：缺少“hands”一项。"
    assert Game.objects.count() == 0
