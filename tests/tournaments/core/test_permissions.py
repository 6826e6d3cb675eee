"""The permission matrix of referee entry: each persona × each page and endpoint.

Personas (tests/entry_personas.py): organizer, chief referee, the referee of table 1, the
referee of table 2, a player, anonymous. The pages answer 302 (to the login page) to anonymous
users and 403 to users whose roles do not allow them; the API answers 401 and 403 in its one
error shape. Board 1 is embargoed (only table 1 has played it), so a player does not see it.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient

from games.models import Game, Status
from tests.entry_personas import PERSONAS, build_world
from tests.factories import bot_record

pytestmark = pytest.mark.django_db

ORG, C, R1, R2, P, A = PERSONAS
OFFICIALS = {ORG: 200, C: 200, R1: 200, R2: 200, P: 403, A: 302}
CHIEFS = {ORG: 200, C: 200, R1: 403, R2: 403, P: 403, A: 302}
TABLE1 = {ORG: 200, C: 200, R1: 200, R2: 403, P: 403, A: 302}

PAGES = [
    ("referee:event", "event", OFFICIALS),
    ("referee:status", "event", CHIEFS),
    ("referee:flagged", "event", CHIEFS),
    ("referee:live", "table", TABLE1),
    ("referee:quick", "table", TABLE1),
    ("referee:enter", "table", TABLE1),
    ("referee:game", "game", TABLE1),
]


def _api(expected: dict[str, int], ok: int = 200) -> dict[str, int]:
    return {
        p: (401 if code == 302 else ok if code == 200 else code) for p, code in expected.items()
    }


# Under the embargo a game is shown to organizers, chief referees and its table's referee.
EMBARGOED = {ORG: 200, C: 200, R1: 200, R2: 404, P: 404, A: 404}
ENDPOINTS = [
    ("GET", "api:tables", "event", None, _api(OFFICIALS)),
    ("GET", "api:entry", "table", None, _api(TABLE1)),
    ("POST", "api:entry", "table", {"steps": [], "step": "1"}, _api(TABLE1)),
    ("GET", "api:games", "table", None, _api(TABLE1)),
    ("POST", "api:games", "table", {}, _api(TABLE1, ok=400)),  # allowed, then bad input
    ("GET", "api:game", "game", None, EMBARGOED),
    ("POST", "api:confirm", "game", None, _api(TABLE1)),
    # The flagged game is illegal: "enter again" is its only ruling (tournaments.tables.review).
    ("POST", "api:resolve", "flagged", {"decision": "reject", "note": "ok"}, _api(CHIEFS)),
    ("GET", "api:flagged", "event", None, _api(CHIEFS)),
    ("GET", "api:audit", "event", None, _api(CHIEFS)),
    ("GET", "api:board-games", "board", None, {**_api(OFFICIALS)}),
    ("GET", "api:schema", "none", None, dict.fromkeys(PERSONAS, 200)),
]


@pytest.fixture
def world():
    w = build_world()
    t1, b1, b2 = w.tables[0], w.boards[0], w.boards[1]
    # Stored directly (no verification task): one verified game, one the engine flagged.
    w.game = Game.objects.create(
        table=t1, board=b1, record=bot_record(b1, t1), status=Status.VERIFIED
    )
    w.flagged = Game.objects.create(
        table=t1, board=b2, record=bot_record(b2, t1), status=Status.ILLEGAL
    )
    return w


def _kwargs(world, what: str) -> dict:
    slug = world.event.slug
    return {
        "event": {"slug": slug},
        "table": {"slug": slug, "table_id": world.tables[0].pk, "number": world.boards[0].number},
        "game": {"slug": slug, "pk": world.game.pk},
        "flagged": {"pk": world.flagged.pk},
        "board": {"slug": slug, "number": world.boards[0].number},
        "none": {},
    }[what]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize("name, what, expected", PAGES, ids=[p[0] for p in PAGES])
def test_pages(world, persona, name, what, expected) -> None:
    client = Client()
    if world.users[persona] is not None:
        client.force_login(world.users[persona])
    response = client.get(reverse(name, kwargs=_kwargs(world, what)))
    assert response.status_code == expected[persona]
    if expected[persona] == 302:
        assert "/login/" in response["Location"]


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(
    "method, name, what, body, expected", ENDPOINTS, ids=[f"{e[0]} {e[1]}" for e in ENDPOINTS]
)
def test_endpoints(world, persona, method, name, what, body, expected) -> None:
    client = APIClient()
    user = world.users[persona]
    if user is not None:
        _instance, token = AuthToken.objects.create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    kwargs = _kwargs(world, "game" if what == "game" else what)
    if name in ("api:game", "api:confirm"):
        kwargs = {"pk": world.game.pk}
    url = reverse(name, kwargs=kwargs)
    response = client.get(url) if method == "GET" else client.post(url, body or {}, format="json")
    assert response.status_code == expected[persona], response.content[:300]
    if response.status_code >= 400:
        assert set(response.json()["error"]) == {"code", "message", "fields", "rule"}


def test_a_referee_sees_only_his_tables(world) -> None:
    client = APIClient()
    client.force_authenticate(world.users["referee2"])
    rows = client.get(reverse("api:tables", kwargs={"slug": world.event.slug})).json()
    assert [r["table"] for r in rows] == [world.tables[1].pk]
    chief = APIClient()
    chief.force_authenticate(world.users["chief"])
    rows = chief.get(reverse("api:tables", kwargs={"slug": world.event.slug})).json()
    assert [r["table"] for r in rows] == [t.pk for t in world.tables]
