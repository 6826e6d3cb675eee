"""A POST without its CSRF token: the JSON error shape on a JSON door and on the API signed
in by session, the site's own 403 page elsewhere, each saying in the reader's language that
the page expired and should be reloaded.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


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
