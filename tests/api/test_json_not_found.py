"""A path of the API or of a table link's JSON doors that no URL matches (``boards/-1/``)
answers 404 in the API's error shape, in the reader's language; a link's page stays the
site's 404 page.
"""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


def _is_site_404(response) -> None:
    assert response.status_code == 404
    html = response.content.decode()
    assert 'id="account"' in html and "Page not found" in html


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
