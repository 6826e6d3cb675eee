"""A JSON body that cannot be read (not UTF-8, a number too long, NaN, garbage, nested too
deeply) is refused at the API and at a table link's entry door in plain, translated words,
without Python's; nothing is stored.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
BAD_BODIES = {
    "not_utf8": (
        b'{"steps": ["\xff"]}',
        "The request body is not UTF-8 text.",
        "请求内容不是 UTF-8 文本。",
    ),
    "long_number": (
        b'{"steps": [], "n": 1' + b"0" * 5000 + b"}",
        "A number in the request body is too long.",
        "请求内容中的数字太长。",
    ),
    "nan": (
        b'{"steps": [], "n": NaN}',
        "The request body is not valid JSON.",
        "请求内容不是有效的 JSON。",
    ),
    "garbage": (b"garbage", "The request body is not valid JSON.", "请求内容不是有效的 JSON。"),
    "nested": (b"[" * 5000, "The request body is nested too deeply.", "请求内容嵌套层数太多。"),
}
PYTHON_WORDS = ("codec", "decode", "Expecting", "sys.", "limit", "JSON compliant", "0xff")


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


@pytest.mark.parametrize("kind", sorted(BAD_BODIES))
def test_api_bodies_that_cannot_be_read_are_refused_in_plain_words(world, kind) -> None:
    body, english, chinese = BAD_BODIES[kind]
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/entry/"
    for headers, message in (({}, english), (ZH, chinese)):
        client = APIClient(**headers)
        client.force_authenticate(world.users["referee1"])
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "parse_error" and error["message"] == message
        assert not any(word in error["message"] for word in PYTHON_WORDS)


@pytest.mark.parametrize("kind", sorted(BAD_BODIES))
def test_link_door_bodies_that_cannot_be_read_say_the_same(table_token, world, kind) -> None:
    body, english, chinese = BAD_BODIES[kind]
    url = f"/t/{table_token}/boards/{world.boards[0].number}/entry/"
    for headers, message in (({}, english), (ZH, chinese)):
        response = Client(**headers).post(url, body, content_type="application/json")
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "parse_error" and error["message"] == message
    assert Game.objects.count() == 0
