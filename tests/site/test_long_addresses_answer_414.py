"""An address too long answers 414 with the site's own page, not the server's bare answer.

The site takes addresses (path and query string) of up to ADDRESS_MAX_LENGTH characters;
a longer one answers 414 before any view: the site's page in the reader's language, with a
way back that does not repeat the address, or the API's error shape (``too_long``) at the JSON
doors. The servers refuse longer request lines themselves, with a bare answer: gunicorn above
its --limit-request-line (4094 bytes by default, 8190 at most: the production guide's command,
docs/OPERATIONS.md, sets the most), Daphne above 16 KB (it closes the connection). So every
address between the site's limit and the server's gets the site's page.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.conftest import _database_url, wait_listening
from tests.paths import ROOT_DIR

pytestmark = pytest.mark.django_db

LONG = "x" * 6000


def _assert_site_page(status: int, html: str, *, language: str = "en") -> None:
    assert status == 414
    assert f'<html lang="{language}">' in html and "<header>" in html
    assert "xxxxxxxxxxxxxxxxxxxx" not in html  # the address is not repeated, not even in links
    assert 'href="/"' in html  # a way back: the list of events


def test_a_long_path_answers_the_sites_page() -> None:
    response = Client().get(f"/events/{LONG}/")
    html = response.content.decode()
    _assert_site_page(response.status_code, html)
    assert "<h1>Address too long</h1>" in html and "at most 2048 characters" in html
    assert "?next=/" in html or "?next=%2F" in html  # signing in leads to the front page


def test_a_signed_in_reader_keeps_his_header(django_user_model) -> None:
    client = Client()
    client.force_login(django_user_model.objects.create_user("long-address-reader"))
    response = client.get(f"/events/{LONG}/")
    html = response.content.decode()
    _assert_site_page(response.status_code, html)
    assert "long-address-reader" in html and "Sign in with another account" in html


def test_a_long_query_string_answers_the_sites_page_in_the_readers_language() -> None:
    response = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get("/", {"q": LONG})
    _assert_site_page(response.status_code, response.content.decode(), language="zh-hans")


def test_a_long_address_at_a_json_door_answers_the_apis_shape() -> None:
    response = Client().get(f"/api/events/{LONG}/")
    assert response.status_code == 414
    error = response.json()["error"]
    assert error["code"] == "too_long" and "2048" in error["message"]
    assert error["fields"] is None and error["rule"] is None


def test_a_long_address_stores_nothing(linked) -> None:
    _world, tokens = linked
    url = reverse("links:quick", args=[tokens[0], 1]) + "?" + "a=1&" * 600
    response = Client().post(url, {"landlord": "S", "bid": "1", "winner": "farmers"})
    assert response.status_code == 414
    assert not Game.objects.exists()


def test_an_address_under_the_limit_is_served() -> None:
    assert Client().get("/", {"q": "y" * 1900}).status_code == 200


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url), timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.services
def test_daphne_hands_a_long_address_to_the_site(asgi_server: str) -> None:
    # Daphne closes the connection itself above 16 KB; below, the site answers.
    status, html = _get(f"{asgi_server}/events/{'x' * 10_000}/")
    _assert_site_page(status, html)


def _readme_limit_request_line() -> int:
    guide = (ROOT_DIR / "docs" / "OPERATIONS.md").read_text()
    found = re.search(r"gunicorn[^\n`]*--limit-request-line (\d+)", guide)
    assert found, "the production guide's gunicorn command sets --limit-request-line"
    return int(found.group(1))


@pytest.fixture
def gunicorn_as_the_readme_says(
    django_db_blocker: Any, tmp_path: Path
) -> Iterator[tuple[str, int]]:
    """gunicorn with the production guide's --limit-request-line on the test settings: its base
    URL and that limit."""
    limit = _readme_limit_request_line()
    with django_db_blocker.unblock():
        database_url = _database_url()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="ddz_site.settings_test")
    env["DATABASE_URL"] = database_url
    log_path = tmp_path / "gunicorn.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [str(Path(sys.executable).with_name("gunicorn")), "ddz_site.wsgi"]
            + ["--bind", f"127.0.0.1:{port}", "--workers", "1"]
            + ["--limit-request-line", str(limit)],
            cwd=ROOT_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_listening(server, "127.0.0.1", port, log_path, timeout=60)
        yield f"http://127.0.0.1:{port}", limit
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_gunicorn_run_as_the_readme_says_hands_a_long_address_to_the_site(
    gunicorn_as_the_readme_says: tuple[str, int],
) -> None:
    base, limit = gunicorn_as_the_readme_says
    # The request line is "GET <address> HTTP/1.1": the longest address gunicorn passes on.
    status, html = _get(f"{base}/events/{'x' * (limit - len('GET /events// HTTP/1.1'))}/")
    _assert_site_page(status, html)
