"""Fixes from a fresh user trial of the demo: the JSON doors and their messages.

1. The table link's entry door checks its steps with the API's own rule (one serializer) and
   answers the API's error shape (code, message, fields, rule): a NUL never reaches the engine.
2. A step too long or not text is named as such, not as a list too long.
3. The engine's rule-option errors carry a code and parameters, rendered in the reader's
   language without Python reprs or control characters.
4. A record that is not a record is refused in the reader's language.
5. A quick result claiming spring and anti-spring: "choose one".
6. JSON nested too deeply and numbers out of range are named as such.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world
from tournaments.links import tokens

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
ERROR_KEYS = {"code", "message", "fields", "rule"}


@pytest.fixture
def world():
    return build_world(seed="trial-doors")


@pytest.fixture
def table_token(world) -> str:
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return made[0].url.strip("/").split("/")[1]


def _link_entry(token, world, body, headers=None):
    url = f"/t/{token}/boards/{world.boards[0].number}/entry/"
    return Client(**(headers or {})).post(url, body, content_type="application/json")


def _api_entry(world, body, headers=None):
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/entry/"
    client = APIClient(**(headers or {}))
    client.force_authenticate(world.users["referee1"])
    return client.post(url, body, format="json")


# --- 1. the link door checks steps as the API does ----------------------------------------


def test_a_nul_in_a_step_is_refused_by_the_link_door_as_by_the_api(table_token, world) -> None:
    body = {"steps": ["1\u0000"]}
    api = _api_entry(world, body)
    link = _link_entry(table_token, world, body)
    assert api.status_code == link.status_code == 400
    assert link.json() == api.json()
    error = link.json()["error"]
    assert set(error) == ERROR_KEYS
    assert error["fields"] == {"steps.0": ["Null characters are not allowed."]}
    assert "\x00" not in link.content.decode("unicode_escape")


def test_the_link_doors_engine_refusals_have_the_apis_error_shape(table_token, world) -> None:
    # Steps so far that the engine refuses: a 400 in the one error shape, with its rule.
    response = _link_entry(table_token, world, {"steps": ["9", "9", "9", "9", "9"]})
    assert response.status_code == 400
    error = response.json()["error"]
    assert set(error) >= ERROR_KEYS
    assert error["rule"] and error["rule"].startswith("R-")


# --- 2. a step too long, a step not text ------------------------------------------------


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


# --- 3. rule options, in the reader's language -----------------------------------------


@pytest.fixture
def staff(db):
    from django.contrib.auth.models import User

    return User.objects.create_user("doors-staff", password="x", is_staff=True)


def _event_error(staff, options: str, headers=None) -> str:
    client = Client(**(headers or {}))
    client.force_login(staff)
    answer = client.post(
        "/organizer/events/new/", {"name": "Options", "preset": "classic", "options": options}
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    return html.split('id="event-error"', 1)[1].split(">", 1)[1].split("</", 1)[0]


@pytest.mark.parametrize(
    ("options", "english", "chinese"),
    [
        (
            "base=NaN",
            "The rule option base is a whole number, not “NaN”.",
            "规则选项 base 应为整数，不能是“NaN”。",
        ),
        (
            "base=1.5",
            "The rule option base is a whole number, not “1.5”.",
            "规则选项 base 应为整数，不能是“1.5”。",
        ),
        (
            "nonsense=1",
            "There is no rule option “nonsense”; the options are: all_pass,",
            "没有“nonsense”这个规则选项；可用的选项为：all_pass,",
        ),
        (
            "all_pass=maybe",
            "The rule option all_pass is one of zero, redeal, not “maybe”.",
            "规则选项 all_pass 应为 zero, redeal 之一，不能是“maybe”。",
        ),
    ],
)
def test_rule_option_errors_are_said_in_the_readers_language(
    staff, options, english, chinese
) -> None:
    assert english in _event_error(staff, options)
    zh = _event_error(staff, options, ZH)
    assert chinese in zh and "option" not in zh and "must" not in zh


def test_a_control_character_in_an_option_value_is_never_echoed(staff) -> None:
    from games.engine import RuleSet
    from games.engine.errors import RulesError

    with pytest.raises(RulesError) as caught:
        RuleSet.from_spec({"preset": "classic", "options": {"base": "\x00\n"}})
    assert caught.value.code == "rules.option_whole"
    value = caught.value.params["value"]
    assert value and all(c.isprintable() for c in value)
    message = _event_error(staff, "base=1\x002")
    assert message == "The rule option base is a whole number, not “1\ufffd2”."


# --- 4. a record that is not a record --------------------------------------------------


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


# --- 5. spring and anti-spring both claimed ----------------------------------------------


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


# --- 6. JSON too deep, numbers out of range ----------------------------------------------


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


def _api_entry_raw(world, body: bytes, headers):
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/entry/"
    client = APIClient(**headers)
    client.force_authenticate(world.users["referee1"])
    return client.post(url, body, content_type="application/json")
