"""Every answer of the API parses by the schema the site serves (/api/schema/), as a client
generated from that schema reads it: the answer's status is documented for its operation, its
content type is the documented one, the headers the schema says it always has are there, and
its body is valid against the documented schema (OpenAPI 3.0, where a schema marked
``nullable`` also takes null). The answers are real ones, in a world where every door has
something to show (tests.api_world), refusals included: bad input, no token or a wrong one,
roles that do not allow it, nothing there, a conflict with the stored state, a body too large
or of a type the API does not read, an address too long, too many requests, a database that
cannot be reached."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from jsonschema import Draft4Validator
from knox.models import AuthToken
from rest_framework.test import APIClient

from tests.api_world import ApiWorld, build_api_world
from tests.factories import bot_record

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

EVENT = "/api/events/{slug}/"
TABLES = EVENT + "tables/"
FLAGGED = EVENT + "flagged/"
AUDIT = EVENT + "audit/"
BOARD_GAMES = EVENT + "boards/{number}/games/"
ENTRY = EVENT + "tables/{table_id}/boards/{number}/entry/"
GAMES = EVENT + "tables/{table_id}/boards/{number}/games/"
GAME = "/api/games/{id}/"
CONFIRM = GAME + "confirm/"
RESOLVE = GAME + "resolve/"
TOKEN = "/api/auth/token/"
ABSENT = 987654321


def _json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable: true`` becomes "null, or the schema"
    (OpenAPI 3.0's own keyword, which JSON Schema validators do not know)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {
        key: _json_schema(value)
        for key, value in node.items()
        if not (key == "nullable" and isinstance(value, bool))  # not a property so named
    }
    if node.get("nullable") is True:
        return {"anyOf": [{"type": "null"}, converted]}
    return converted


@dataclass
class Answers:
    """The answers collected, each with the operation (method, path template) it answers."""

    seen: list[tuple[str, str, HttpResponse]] = field(default_factory=list)

    def ask(
        self,
        client: Client,
        method: str,
        template: str,
        values: dict[str, Any],
        *,
        expect: int,
        query: str = "",
        **request: Any,
    ) -> HttpResponse:
        """`method` on `template` filled with `values`; the answer must have status `expect`
        (so each case answers what it is here to answer)."""
        path = template.format(**values) + query
        response = getattr(client, method)(path, **request)
        assert response.status_code == expect, (method, path, response.content[:300])
        self.seen.append((method, template, response))
        return response

    def unparsed(self, schema: dict[str, Any]) -> list[str]:
        """What a client generated from `schema` could not read: one line per problem."""
        components = _json_schema(schema["components"])
        problems = []
        for method, template, response in self.seen:
            label = f"{method.upper()} {template} {response.status_code}"
            documented = schema["paths"][template][method]["responses"].get(
                str(response.status_code)
            )
            if documented is None:
                problems.append(f"{label}: the status is not documented")
                continue
            for name, header in documented.get("headers", {}).items():
                if header.get("required") and not response.has_header(name):
                    problems.append(f"{label}: no {name} header")
            media = response["Content-Type"].split(";")[0].strip()
            content = documented.get("content", {})
            if media not in content:
                problems.append(f"{label}: {media} is not documented ({sorted(content)})")
                continue
            root = {**_json_schema(content[media]["schema"]), "components": components}
            validator = Draft4Validator(root, format_checker=Draft4Validator.FORMAT_CHECKER)
            for error in validator.iter_errors(json.loads(response.content)):
                problems.append(f"{label}: {error.json_path}: {error.message}")
        return problems


@pytest.fixture
def world() -> ApiWorld:
    return build_api_world()


@pytest.fixture
def served() -> dict[str, Any]:
    response = Client().get(reverse("api:schema"), {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def _client(user: Any = None, *, token: str | None = None) -> APIClient:
    """A client with `user`'s own new token (or `token` as given, or none)."""
    client = APIClient()
    if user is not None:
        token = AuthToken.objects.create(user=user)[1]
    if token is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_the_referee_doors_answers_parse(world, served) -> None:
    users, event = world.users, world.personas.event
    tables, boards = world.personas.tables, world.personas.boards
    organizer, chief, player = (_client(users[n]) for n in ("organizer", "chief", "player"))
    referee1, referee2, anonymous = (
        _client(users["referee1"]),
        _client(users["referee2"]),
        _client(),
    )
    slug = {"slug": event.slug}
    board1 = {**slug, "number": boards[0].number}
    board2 = {**slug, "number": boards[1].number}
    t1b1 = {**board1, "table_id": tables[0].pk}
    t2b2 = {**board2, "table_id": tables[1].pk}
    a = Answers()

    a.ask(organizer, "get", TABLES, slug, expect=200)
    a.ask(anonymous, "get", TABLES, slug, expect=401)
    a.ask(player, "get", TABLES, slug, expect=403)
    a.ask(organizer, "get", TABLES, {"slug": "no-such-event"}, expect=404)
    queue = a.ask(chief, "get", FLAGGED, slug, expect=200).json()
    assert [g["id"] for g in queue] == [world.flagged.pk] and queue[0]["resolution"] == ""
    a.ask(referee1, "get", FLAGGED, slug, expect=403)
    a.ask(organizer, "get", AUDIT, slug, expect=200)
    a.ask(organizer, "get", AUDIT, slug, query="?limit=%00", expect=400)
    # Board 1 is played at every table: public. Board 2 is not: its games are embargoed.
    a.ask(anonymous, "get", BOARD_GAMES, board1, expect=200)
    a.ask(player, "get", BOARD_GAMES, board2, expect=403)
    a.ask(anonymous, "get", BOARD_GAMES, board2, expect=401)
    a.ask(anonymous, "get", BOARD_GAMES, {**slug, "number": 99}, expect=404)

    a.ask(referee2, "get", ENTRY, t2b2, expect=200)
    a.ask(referee1, "get", ENTRY, t2b2, expect=403)
    a.ask(referee2, "get", ENTRY, {**t2b2, "number": 99}, expect=404)
    step = {"steps": [], "step": "2"}
    a.ask(referee2, "post", ENTRY, t2b2, data=step, format="json", expect=200)
    refused = {"steps": ["2"], "step": "1"}
    assert a.ask(referee2, "post", ENTRY, t2b2, data=refused, format="json", expect=200).json()[
        "error"
    ]["rule"]
    a.ask(referee2, "post", ENTRY, t2b2, data={"steps": [7]}, format="json", expect=400)
    a.ask(referee2, "post", ENTRY, t2b2, data=b"{", content_type="application/json", expect=400)
    a.ask(referee2, "post", ENTRY, t2b2, data="2", content_type="text/plain", expect=415)
    a.ask(anonymous, "post", ENTRY, t2b2, data=step, format="json", expect=401)

    versions = a.ask(referee1, "get", GAMES, t1b1, expect=200).json()
    assert [g["resolution"] for g in versions] == [""]
    record = bot_record(boards[1], tables[1])
    retry = {"HTTP_IDEMPOTENCY_KEY": "t2-b2-first"}
    submit = {"data": {"record": record}, "format": "json"}
    a.ask(referee2, "post", GAMES, t2b2, **submit, **retry, expect=201)
    a.ask(referee2, "post", GAMES, t2b2, **submit, **retry, expect=200)
    other = {"data": {"record": bot_record(boards[1], tables[1], seed="other")}, "format": "json"}
    a.ask(referee2, "post", GAMES, t2b2, **other, **retry, expect=422)
    a.ask(referee2, "post", GAMES, t2b2, **submit, expect=409)
    a.ask(referee2, "post", GAMES, t2b2, data={}, format="json", expect=400)
    a.ask(referee1, "post", GAMES, t2b2, **submit, expect=403)

    verified, flagged = {"id": world.verified.pk}, {"id": world.flagged.pk}
    a.ask(referee1, "post", CONFIRM, verified, expect=403)  # who entered it
    a.ask(chief, "post", CONFIRM, flagged, expect=409)  # awaits a ruling
    assert a.ask(chief, "post", CONFIRM, verified, expect=200).json()["resolution"] == ""
    a.ask(chief, "post", CONFIRM, verified, expect=409)
    a.ask(anonymous, "post", CONFIRM, verified, expect=401)
    a.ask(chief, "post", CONFIRM, {"id": ABSENT}, expect=404)
    session = Client(enforce_csrf_checks=True)
    session.force_login(users["chief"])
    a.ask(session, "post", CONFIRM, flagged, expect=403)  # no CSRF token

    maybe = {"decision": "maybe", "note": "x"}
    a.ask(chief, "post", RESOLVE, flagged, data=maybe, format="json", expect=400)
    accept = {"decision": "accept", "note": "Scorer's slip"}
    a.ask(referee1, "post", RESOLVE, flagged, data=accept, format="json", expect=403)
    a.ask(chief, "post", RESOLVE, flagged, data=accept, format="json", expect=200)
    a.ask(chief, "post", RESOLVE, flagged, data=accept, format="json", expect=409)
    a.ask(chief, "post", RESOLVE, {"id": ABSENT}, data=accept, format="json", expect=404)

    problems = a.unparsed(served)
    assert not problems, "\n".join(problems)


def test_the_public_reads_answers_parse(world, served) -> None:
    anonymous, organizer = _client(), _client(world.users["organizer"])
    person = {"id": world.rated.pk}
    a = Answers()

    # A game of a public board; one under embargo is absent to the public, shown to officials.
    game = a.ask(anonymous, "get", GAME, {"id": world.verified.pk}, expect=200).json()
    assert game["resolution"] == ""
    a.ask(anonymous, "get", GAME, {"id": world.ruled.pk}, expect=404)
    assert a.ask(organizer, "get", GAME, {"id": world.ruled.pk}, expect=200).json()[
        "resolution"
    ] == ("accept")
    a.ask(anonymous, "get", GAME, {"id": ABSENT}, expect=404)
    a.ask(_client(token="not-a-token"), "get", GAME, {"id": world.verified.pk}, expect=401)

    # The event's announcement and life: public, read only.
    slug = {"slug": world.personas.event.slug}
    assert a.ask(anonymous, "get", EVENT, slug, expect=200).json()["registration"]
    a.ask(anonymous, "get", EVENT, {"slug": "no-such-event"}, expect=404)
    a.ask(_client(token="not-a-token"), "get", EVENT, slug, expect=401)

    a.ask(anonymous, "get", "/api/clubs/", {}, expect=200)
    a.ask(
        anonymous, "get", "/api/series/{slug}/standings/", {"slug": world.series.slug}, expect=200
    )
    a.ask(anonymous, "get", "/api/series/{slug}/standings/", {"slug": "no-such"}, expect=404)
    assert a.ask(anonymous, "get", "/api/people/{id}/", person, expect=200).json()["rating"]
    a.ask(anonymous, "get", "/api/people/{id}/", {"id": ABSENT}, expect=404)
    a.ask(anonymous, "get", "/api/people/{id}/ratings/", person, expect=200)
    a.ask(anonymous, "get", "/api/people/{id}/ratings/", {"id": ABSENT}, expect=404)
    assert a.ask(anonymous, "get", "/api/ratings/", {}, expect=200).json()
    history = "/api/ratings/{player_id}/"
    a.ask(anonymous, "get", history, {"player_id": world.rated.pk}, expect=200)
    a.ask(anonymous, "get", history, {"player_id": ABSENT}, expect=404)

    problems = a.unparsed(served)
    assert not problems, "\n".join(problems)


def test_the_token_door_and_the_refusals_of_every_door_parse(world, served, monkeypatch) -> None:
    referee = world.users["referee1"]
    referee.set_password("right-password-1")
    referee.save()
    anonymous = _client()
    a = Answers()

    right = {"username": referee.username, "password": "right-password-1"}
    a.ask(anonymous, "post", TOKEN, {}, data=right, format="json", expect=200)
    wrong = {**right, "password": "wrong"}
    a.ask(anonymous, "post", TOKEN, {}, data=wrong, format="json", expect=400)
    a.ask(anonymous, "post", TOKEN, {}, data=b"[[", content_type="application/json", expect=400)
    a.ask(anonymous, "post", TOKEN, {}, data="x", content_type="text/plain", expect=415)
    too_large = str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    a.ask(
        anonymous,
        "post",
        TOKEN,
        {},
        data=b"{}",
        content_type="application/json",
        CONTENT_LENGTH=too_large,
        expect=413,
    )
    for _ in range(settings.AXES_FAILURE_LIMIT):
        anonymous.post(TOKEN, wrong, format="json")
    a.ask(anonymous, "post", TOKEN, {}, data=wrong, format="json", expect=429)

    confirm = {"id": world.verified.pk}
    chief = _client(world.users["chief"])
    big = {"data": b"{}", "content_type": "application/json", "CONTENT_LENGTH": too_large}
    a.ask(chief, "post", CONFIRM, confirm, **big, expect=413)

    a.ask(chief, "get", TABLES, {"slug": "x" * 3000}, expect=414)

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise OperationalError("the database went away")

    monkeypatch.setattr("tournaments.league.profiles.home_clubs", unreachable)
    a.ask(anonymous, "get", "/api/clubs/", {}, expect=503)

    problems = a.unparsed(served)
    assert not problems, "\n".join(problems)
