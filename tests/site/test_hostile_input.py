"""Hostile input at the site's doors: each is a 4xx
with a reason, never a server error, and nothing is stored.

NUL characters (PostgreSQL text and jsonb cannot hold them), lone surrogates (UTF-8 cannot),
JSON nested a thousand deep, a stage number written with a superscript digit, numbers too large
for a float; and the idempotency key of the API: at most 100 characters, and a key reused for
another body is refused (422), as a lost race is (409).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import EventFactory, bot_record
from tests.paths import DATA_DIR
from tournaments.models import AuditEntry, EventRole, Player, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_world(seed="hostile")


def _api(user: User | None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def _games_url(world, table: int = 0, board: int = 0, name: str = "api:games") -> str:
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[table].pk,
        "number": world.boards[board].number,
    }
    return reverse(name, kwargs=kw)


def _enter_path(world) -> str:
    kw = {
        "slug": world.event.slug,
        "table_id": world.tables[0].pk,
        "number": world.boards[0].number,
    }
    return reverse("referee:enter", kwargs=kw)


def _routes_with_a_slug() -> list[tuple[str, dict[str, Any]]]:
    """Every named URL of the site that takes an event slug, with its other arguments filled."""
    found: list[tuple[str, dict[str, Any]]] = []

    def walk(patterns: list[Any], namespace: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, f"{namespace}{p.namespace}:" if p.namespace else namespace)
            elif isinstance(p, URLPattern) and p.name and "slug" in p.pattern.converters:
                kwargs: dict[str, Any] = {}
                for name, converter in p.pattern.converters.items():
                    if name == "slug":
                        continue
                    kwargs[name] = 1 if type(converter).__name__ == "IntConverter" else "close"
                found.append((f"{namespace}{p.name}", kwargs))

    walk(get_resolver().url_patterns, "")
    return found


SLUG_ROUTES = _routes_with_a_slug()


def test_the_slug_routes_are_all_found() -> None:
    # The public, organizer, referee, deals and API routes that name an event by its slug.
    assert len(SLUG_ROUTES) >= 30
    assert {"public:standings", "organizer:players", "referee:enter", "api:games"} <= {
        name for name, _ in SLUG_ROUTES
    }


@pytest.mark.parametrize(("name", "kwargs"), SLUG_ROUTES, ids=[n for n, _ in SLUG_ROUTES])
def test_a_nul_in_a_slug_is_not_found(name: str, kwargs: dict[str, Any]) -> None:
    event = EventFactory(slug="nul-test")
    organizer = User.objects.create_superuser("nul-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    url = reverse(name, kwargs={"slug": "nul-test\x00", **kwargs})
    assert "%00" in url
    for user in (None, organizer):
        client = Client(raise_request_exception=False)
        if user is not None:
            client.force_login(user)
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code < 500, (method.__name__, user, response.status_code)
            assert response.status_code in (302, 400, 403, 404, 405)


@pytest.mark.parametrize("stage", ["²", "١", "0x1", "-1", "1\x00", "9" * 1_000])
@pytest.mark.parametrize("route", ["public:standings", "public:standings_csv"])
def test_a_stage_that_is_not_a_whole_number_is_not_found(stage: str, route: str) -> None:
    event = EventFactory()
    url = reverse(route, kwargs={"slug": event.slug})
    response = Client(raise_request_exception=False).get(url, {"stage": stage})
    # A NUL anywhere in the query string is a bad request before the view (ddz_site.web.middleware).
    assert response.status_code == (400 if "\x00" in stage else 404)


HOSTILE_STRINGS = ["\x00", "a\x00b", "\ud800", "x\udfff"]


@pytest.mark.parametrize("text", HOSTILE_STRINGS)
@pytest.mark.parametrize("where", ["id", "source", "hand", "seat"])
def test_api_a_record_with_a_nul_or_a_lone_surrogate_is_refused(world, where, text) -> None:
    record = bot_record(world.boards[0], world.tables[0])
    if where == "id":
        record["id"] = text
    elif where == "source":
        record["source"] = {"note": text}
    elif where == "hand":
        record["hands"]["S"] += text
    else:
        record["declared"] = {text: 1, **(record["declared"] or {})}
    body = json.dumps({"record": record}, ensure_ascii=True)
    response = _api(world.users["referee1"]).post(
        _games_url(world), body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["error"]["code"]
    assert Game.objects.count() == 0


@pytest.mark.parametrize("text", ["\\u0000", "\\ud800"])
def test_page_a_record_with_a_nul_or_a_lone_surrogate_is_refused(world, text) -> None:
    record = bot_record(world.boards[0], world.tables[0])
    record["id"] = "@@"
    client = Client(raise_request_exception=False)
    client.force_login(world.users["referee1"])
    url = _enter_path(world)
    response = client.post(url, {"record": json.dumps(record).replace("@@", text)})
    assert response.status_code == 400
    assert Game.objects.count() == 0


DEEP = "[" * 1_000 + "]" * 1_000
DEEP_OBJECT = '{"a":' * 1_000 + "1" + "}" * 1_000


@pytest.mark.parametrize("body", [DEEP, DEEP_OBJECT, '{"record": ' + DEEP + "}"])
def test_json_nested_a_thousand_deep_is_a_bad_request(world, body) -> None:
    for client, url in (
        (_api(None), reverse("api:token")),
        (_api(world.users["referee1"]), _games_url(world)),
        (
            _api(world.users["referee1"]),
            _games_url(world, name="api:entry"),
        ),
    ):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, (url, response.status_code)
        assert response.json()["error"]["code"] == "parse_error"
    assert Game.objects.count() == 0


@pytest.mark.parametrize("text", ["[" * 1_000, "1" + "0" * 5_000, "1e400", "NaN"])
def test_page_a_record_of_hostile_json_is_a_field_error(world, text) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(world.users["referee1"])
    url = _enter_path(world)
    response = client.post(url, {"record": text})
    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_api_a_rules_option_too_large_for_a_number_is_refused(world) -> None:
    record = bot_record(world.boards[0], world.tables[0])
    record["rules"] = {"preset": "classic", "options": {"spring_multiplier": "@@"}}
    body = json.dumps({"record": record}).replace('"@@"', "1e400")
    response = _api(world.users["referee1"]).post(
        _games_url(world), body, content_type="application/json"
    )
    assert response.status_code == 400
    assert Game.objects.count() == 0


@pytest.mark.parametrize("cell", ["An\x00n", "\x00"])
@pytest.mark.parametrize("column", ["name", "club", "external_id", "team"])
def test_csv_a_nul_in_a_cell_is_a_row_error(column, cell) -> None:
    event = EventFactory()
    organizer = User.objects.create_user("csv-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client = Client(raise_request_exception=False)
    client.force_login(organizer)
    values = {"name": "Ann", "club": "Lotus", "external_id": "CN-1", "team": ""}
    values[column] = cell
    text = "name,club,external_id,team\n" + ",".join(values.values()) + "\nBo,Pine,CN-2,\n"
    url = reverse("organizer:players", kwargs={"slug": event.slug})
    preview = client.post(url, {"text": text})
    assert preview.status_code == 400
    assert "NUL" in preview.content.decode()
    imported = client.post(url, {"text": text, "confirm": "1"})
    assert imported.status_code == 400
    assert Player.objects.count() == 0


def test_an_idempotency_key_longer_than_100_characters_is_refused(world) -> None:
    record = bot_record(world.boards[0], world.tables[0])
    client = _api(world.users["referee1"])
    key = "k" * 100
    long_key = key + "-and-more"
    refused = client.post(
        _games_url(world), {"record": record}, format="json", HTTP_IDEMPOTENCY_KEY=long_key
    )
    assert refused.status_code == 400
    assert "100" in refused.json()["error"]["message"]
    assert Game.objects.count() == 0
    # The key of 100 characters is taken, and only the key the client sent answers a retry.
    first = client.post(
        _games_url(world), {"record": record}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert first.status_code == 201
    assert Game.objects.get().idempotency_key == key


def test_a_reused_idempotency_key_with_another_body_is_refused(world) -> None:
    client = _api(world.users["referee1"])
    key = uuid.uuid4().hex
    record = bot_record(world.boards[0], world.tables[0])
    first = client.post(
        _games_url(world), {"record": record}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert first.status_code == 201
    again = client.post(
        _games_url(world), {"record": record}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    other = dict(record, plays=record["plays"][:-1])
    refused = client.post(
        _games_url(world), {"record": other}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "idempotency_key_reused"
    quick = {"quick": {"landlord": "S", "bid": 1, "winner": "farmers"}, "replace": True}
    refused = client.post(_games_url(world), quick, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert refused.status_code == 422
    assert Game.objects.count() == 1
    assert AuditEntry.objects.filter(action__startswith="game.").count() == 1


def test_a_second_game_for_a_table_and_board_is_a_conflict(world) -> None:
    client = _api(world.users["referee1"])
    record = bot_record(world.boards[0], world.tables[0])
    assert client.post(_games_url(world), {"record": record}, format="json").status_code == 201
    lost = client.post(_games_url(world), {"record": record}, format="json")
    assert lost.status_code == 409
    assert lost.json()["error"]["code"] == "conflict"
    assert Game.objects.count() == 1


def test_import_a_hostile_line_is_a_rejected_line() -> None:
    from tournaments.archive.records import records_import

    with (DATA_DIR / "rlcard_rule_agents.jsonl").open() as f:
        good = json.loads(f.readline())
    lines = [
        "[" * 1_000,
        '{"id": ' + "9" * 5_000 + "}",
        json.dumps({**good, "id": "a\x00b"}),
        json.dumps({**good, "id": "a\ud800b"}),
        json.dumps({**good, "source": "@@"}).replace('"@@"', "1e400"),
        json.dumps(good),
    ]
    report = records_import(event=EventFactory(rules=None), lines=lines)
    assert [n for n, _ in report.rejected] == [1, 2, 3, 4, 5]
    assert report.stored == 1 and Game.objects.count() == 1


def test_page_a_rules_option_too_large_for_a_number_is_refused(world) -> None:
    record = bot_record(world.boards[0], world.tables[0])
    record["rules"] = {"preset": "classic", "options": {"spring_multiplier": "@@"}}
    client = Client(raise_request_exception=False)
    client.force_login(world.users["referee1"])
    response = client.post(
        _enter_path(world), {"record": json.dumps(record).replace('"@@"', "1e400")}
    )
    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_too_many_steps_are_refused_before_any_step_is_read(world, monkeypatch) -> None:
    """More steps than MAX_STEPS are refused on their count, before any step is read (DRF
    checking 480,000 steps, 2.4 MB, one by one would take 1.2 s), with the same message, on
    the API's entry and games doors."""
    from games.steps import MAX_STEPS
    from tournaments.api import serializers as api_serializers

    read: list[object] = []
    run = api_serializers.StepField.run_validation
    monkeypatch.setattr(
        api_serializers.StepField,
        "run_validation",
        lambda self, data=None: read.append(data) or run(self, data),
    )
    client = _api(world.users["referee1"])
    entry_url = _games_url(world, name="api:entry")
    body = json.dumps({"steps": ["p"] * 100_000})
    for url in (entry_url, _games_url(world)):
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, (url, response.content)
        assert str(MAX_STEPS) in json.dumps(response.json()["error"]["fields"]), url
    assert "p" not in read  # no step was read (the optional `step` is checked, absent)
    assert Game.objects.count() == 0
