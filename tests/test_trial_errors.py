"""Fixes from a fresh user trial of the demo: what the site answers when something is wrong.

1. Query-string garbage (``?stage=abc``, ``?round=-5``, ``?round=²``, ``?with=abc``…) is a 404
   page of the site (or ignored), never a server error.
2. A JSON door's path that no URL matches (``boards/-1/``) answers 404 in the API's error shape.
3. A POST without its CSRF token answers the JSON error shape on a JSON door and the site's
   own translated 403 page elsewhere (the page expired: reload it).
4. A JSON body that cannot be read is refused in plain, translated words, without Python's.
5. ``/favicon.ico`` and the favicon the pages link exist.
6. The sign-in page's header link keeps its ``next`` (no nesting), and a signed-in user opening
   the sign-in page is sent on to ``next`` (or his events), never to the sign-in page again.

(The demo's own server serving these pages is tests/test_demo_server.py.)
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import tokens
from tournaments.models import Stage
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


@pytest.fixture
def table_token(world) -> str:
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    return _token(made[0].url)


def _is_site_404(response) -> None:
    assert response.status_code == 404
    html = response.content.decode()
    assert 'id="account"' in html and "Page not found" in html


# --- 1. query-string garbage ----------------------------------------------------------------


def test_query_string_garbage_is_not_found_or_ignored(world) -> None:
    Stage.objects.create(event=world.event, number=1, name="Qualifying")
    board, table = world.boards[0], world.tables[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    game_verify(game_id=game.pk)
    slug = world.event.slug
    client = Client(raise_request_exception=False)
    client.force_login(world.users["organizer"])  # who sees every game of the event
    for url in (
        f"/events/{slug}/standings/?stage=abc",
        f"/events/{slug}/standings/?stage=-1",
        f"/events/{slug}/standings/?stage=%C2%B2",
        f"/events/{slug}/standings/?stage=99999999999999999999",
        f"/events/{slug}/screen/?round=-5",
        f"/events/{slug}/screen/?round=abc",
        f"/events/{slug}/screen/?round=%C2%B2",
        f"/events/{slug}/screen/?round=99999999999999999999",
        f"/games/{game.pk}/replay/?with=abc",
        f"/games/{game.pk}/replay/?with=-1",
        f"/games/{game.pk}/replay/?with=%C2%B2",
        f"/games/{game.pk}/replay/?with=99999999999999999999999",
    ):
        response = client.get(url)
        assert response.status_code in (200, 404), (url, response.status_code)
        if response.status_code == 404:
            _is_site_404(response)


def test_unknown_pages_are_the_sites_own_404(world) -> None:
    client = Client(**ZH)
    slug = world.event.slug
    for url in (
        "/events/nope/",
        "/games/99999/",
        f"/events/{slug}/boards/99/",
        "/people/999/",
        "/series/nope/",
        "/no/such/page/",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        html = response.content.decode()
        assert "页面不存在" in html and 'id="account"' in html, url
        assert "URLconf" not in html and "Page not found at" not in html


# --- 2. JSON doors' unmatched paths ---------------------------------------------------------


def _json_404(response) -> None:
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "not_found" and error["message"]


def test_api_paths_no_url_matches_answer_json(world) -> None:
    api = APIClient()
    api.force_authenticate(world.users["chief"])
    slug, table = world.event.slug, world.tables[0]
    # The API's own 404 (a board number that matches the converter but no board) first.
    known = api.get(f"/api/events/{slug}/tables/{table.pk}/boards/999/games/")
    _json_404(known)
    for url in (
        f"/api/events/{slug}/tables/{table.pk}/boards/-1/games/",
        f"/api/events/{slug}/boards/-1/games/",
        "/api/no/such/door/",
        "/api/games/-3/",
    ):
        response = api.get(url)
        _json_404(response)
        assert set(response.json()["error"]) == set(known.json()["error"]), url
    zh = Client(**ZH).get(f"/api/events/{slug}/boards/-1/games/")
    _json_404(zh)
    assert zh.json()["error"]["message"] == "未找到。"


def test_link_json_doors_paths_no_url_matches_answer_json(table_token) -> None:
    client = Client()
    for url in (
        f"/t/{table_token}/boards/-1/entry/",
        f"/t/{table_token}/boards/-1/games/",
        f"/t/{table_token}/boards/x/entry/",
    ):
        _json_404(client.get(url))
        _json_404(client.post(url, "{}", content_type="application/json"))
    # A page of a link (not a JSON door) stays the site's 404 page.
    _is_site_404(client.get(f"/t/{table_token}/boards/-1/"))


# --- 3. CSRF failures -----------------------------------------------------------------------


def test_a_json_door_without_its_csrf_token_answers_json(table_token, world) -> None:
    client = Client(enforce_csrf_checks=True, **ZH)
    client.get(f"/t/{table_token}/")  # the page that sets the CSRF cookie
    url = f"/t/{table_token}/boards/{world.boards[0].number}/entry/"
    response = client.post(url, json.dumps({"steps": []}), content_type="application/json")
    assert response.status_code == 403
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == "csrf_failed"
    assert "重新加载" in error["message"]
    assert "CSRF" not in error["message"] and "Referer" not in error["message"]


def test_the_api_signed_in_by_session_without_its_csrf_token_says_the_same(world) -> None:
    client = APIClient(enforce_csrf_checks=True, **ZH)
    client.force_login(world.users["referee1"])  # a session, as the site's own pages have
    table, board = world.tables[0], world.boards[0]
    url = f"/api/events/{world.event.slug}/tables/{table.pk}/boards/{board.number}/entry/"
    response = client.post(url, {"steps": []}, format="json")
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "csrf_failed" and "重新加载" in error["message"]
    assert "CSRF" not in error["message"]


def test_a_form_without_its_csrf_token_answers_the_sites_403_page(world) -> None:
    for headers, words in (({}, "reload the page"), (ZH, "重新加载")):
        client = Client(enforce_csrf_checks=True, **headers)
        client.force_login(world.users["organizer"])
        response = client.post(f"/organizer/events/{world.event.slug}/seed/commit/")
        assert response.status_code == 403
        html = response.content.decode()
        assert 'id="account"' in html and words in html
        assert "CSRF verification failed" not in html and "Forbidden" not in html
        assert f'href="/events/{world.event.slug}/"' in html  # a way back to the event


# --- 4. JSON bodies that cannot be read -----------------------------------------------------

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


# --- 5. the favicon -------------------------------------------------------------------------


def test_the_favicon_is_served_and_linked(world) -> None:
    client = Client()
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200
    assert b"".join(ico.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    html = client.get("/").content.decode()
    href = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert href, "the base template links a favicon"
    icon = client.get(href.group(1))
    assert icon.status_code == 200 and icon["Content-Type"].startswith("image/svg+xml")


# --- 6. sign-in -----------------------------------------------------------------------------


def _sign_in_href(html: str) -> str:
    match = re.search(r'<span class="account" id="account">.*?<a href="([^"]+)"', html, re.S)
    assert match
    return match.group(1).replace("&amp;", "&")


def test_the_sign_in_link_on_the_sign_in_page_keeps_its_next() -> None:
    client = Client()
    page = "/organizer/login/?next=/events/demo-duplicate/"
    href = _sign_in_href(client.get(page).content.decode())
    assert parse_qs(urlsplit(href).query) == {"next": ["/events/demo-duplicate/"]}
    # Clicking it again and again does not nest it.
    again = _sign_in_href(client.get(href).content.decode())
    assert parse_qs(urlsplit(again).query) == {"next": ["/events/demo-duplicate/"]}
    # Elsewhere the link still leads back to the page it is on.
    href = _sign_in_href(client.get("/events/nope/?x=1").content.decode())
    assert parse_qs(urlsplit(href).query) == {"next": ["/events/nope/?x=1"]}


def test_signing_in_never_lands_on_the_sign_in_page(world) -> None:
    user = world.users["organizer"]
    client = Client()
    response = client.post(
        "/organizer/login/?next=/organizer/login/", {"username": user.username, "password": "x"}
    )
    assert response.status_code == 302 and response["Location"] == "/organizer/"
    nested = "/organizer/login/?next=/organizer/login/%3Fnext%3D/events/x/"
    assert client.get(nested)["Location"] == "/events/x/"


def test_a_signed_in_user_opening_the_sign_in_page_goes_on(world) -> None:
    client = Client()
    client.force_login(world.users["organizer"])
    response = client.get(f"/organizer/login/?next=/events/{world.event.slug}/")
    assert response.status_code == 302 and response["Location"] == f"/events/{world.event.slug}/"
    assert client.get("/organizer/login/")["Location"] == "/organizer/"
    assert client.get("/organizer/login/?next=/organizer/login/")["Location"] == "/organizer/"
    assert client.get("/organizer/login/?next=https://evil.example/")["Location"] == "/organizer/"


def test_officials_forms_with_numbers_that_are_not_numbers_are_refused_not_a_500(world) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(world.users["organizer"])
    slug, round_ = world.event.slug, world.tables[0].round
    Stage.objects.create(event=world.event, number=1, name="Qualifying")
    for url, data in (
        (f"/organizer/events/{slug}/links/tables/", {"stage": "²"}),
        (f"/organizer/events/{slug}/links/tables/", {"round": "²"}),
        (f"/organizer/events/{slug}/links/tables/", {"round": "9" * 30}),
        (f"/organizer/events/{slug}/officials/stages/1/", {"table-1": "²"}),
        (f"/referee/events/{slug}/rounds/{round_.number}/clock/extra/", {"table": "²"}),
        (f"/referee/events/{slug}/rounds/{round_.number}/clock/extra/", {"table": "9" * 30}),
    ):
        response = client.post(url, data)
        assert response.status_code < 500, (url, data, response.status_code)
