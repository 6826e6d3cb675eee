"""The table link's entry door checks steps and bodies as the API's entry door does and
answers the API's error shape (code, message, fields, rule): a NUL in a step never reaches the
engine, the engine's refusals carry their rule, a step too long or not text is named as such,
and JSON nested too deeply or with a number out of range is named as such, in the reader's
language.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
ERROR_KEYS = {"code", "message", "fields", "rule"}


@pytest.fixture
def world():
    return build_world(seed="trial-doors")


def _link_entry(token, world, body, headers=None):
    url = f"/t/{token}/boards/{world.boards[0].number}/entry/"
    return Client(**(headers or {})).post(url, body, content_type="application/json")


def _api_entry(world, body, headers=None):
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/entry/"
    client = APIClient(**(headers or {}))
    client.force_authenticate(world.users["referee1"])
    return client.post(url, body, format="json")


def _api_entry_raw(world, body: bytes, headers):
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/entry/"
    client = APIClient(**headers)
    client.force_authenticate(world.users["referee1"])
    return client.post(url, body, content_type="application/json")


def test_a_nul_in_a_step_is_refused_by_the_link_door_as_by_the_api(table_token, world) -> None:
    body = {"steps": ["1\u0000"]}
    api = _api_entry(world, body)
    link = _link_entry(table_token, world, body)
    assert api.status_code == link.status_code == 400
    assert link.json() == api.json()
    error = link.json()["error"]
    assert set(error) == ERROR_KEYS
    # The site's one rule for typed text (ddz_site.kernel.text), not Django's words for a NUL.
    assert error["fields"] == {
        "steps.0": [
            "This text holds control characters (such as NUL): remove them and send it again."
        ]
    }
    assert "\x00" not in link.content.decode("unicode_escape")


def test_the_link_doors_engine_refusals_have_the_apis_error_shape(table_token, world) -> None:
    # Steps so far that the engine refuses: a 400 in the one error shape, with its rule.
    response = _link_entry(table_token, world, {"steps": ["9", "9", "9", "9", "9"]})
    assert response.status_code == 400
    error = response.json()["error"]
    assert set(error) >= ERROR_KEYS
    assert error["rule"] and error["rule"].startswith("R-")


def test_a_step_too_long_is_named_as_such(table_token, world) -> None:
    for response in (
        _link_entry(table_token, world, {"steps": ["3" * 10_000]}),
        _api_entry(world, {"steps": ["3" * 10_000]}),
    ):
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["fields"] == {"steps.0": ["A step is too long (at most 60 characters)."]}
        assert "400" not in error["message"]


def test_a_step_that_is_not_text_is_named_as_such(table_token, world) -> None:
    for response in (
        _link_entry(table_token, world, {"steps": [{"a": 1}, 5, None]}),
        _api_entry(world, {"steps": [{"a": 1}, 5, None]}),
    ):
        assert response.status_code == 400
        fields = response.json()["error"]["fields"]
        assert fields == {f"steps.{i}": ["Each step is text."] for i in range(3)}
    zh = _link_entry(table_token, world, {"steps": [5]}, ZH).json()["error"]
    assert zh["fields"]["steps.0"] == ["每一步都应是文字。"]
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("body", "english", "chinese"),
    [
        (
            b"[" * 5000 + b"]" * 5000,
            "The request body is nested too deeply.",
            "请求内容嵌套层数太多。",
        ),
        (
            b'{"steps": [], "n": 1e999}',
            "A number in the request body is out of range.",
            "请求内容中的数字超出范围。",
        ),
    ],
)
def test_json_too_deep_or_out_of_range_is_named_as_such(
    table_token, world, body, english, chinese
) -> None:
    for headers, expected in (({}, english), (ZH, chinese)):
        responses = [
            _link_entry(table_token, world, body, headers),
            _api_entry_raw(world, body, headers),
        ]
        for response in responses:
            assert response.status_code == 400
            error = response.json()["error"]
            assert (error["code"], error["message"]) == ("parse_error", expected)
