"""A NUL in the path (``/events/%00/``) answers the site's own 404 page in the reader's
language, and the API's error shape on the API and the JSON doors.
"""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ZH = {"headers": {"accept-language": "zh-hans"}}


def test_a_nul_in_the_path_is_the_sites_own_404_in_the_readers_language() -> None:
    response = Client(raise_request_exception=False, **ZH).get("/events/%00/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "页面不存在" in html and 'id="account"' in html  # the site's page, in Chinese
    assert "No page has this address." not in html
    english = Client(raise_request_exception=False).get("/events/%00/")
    assert english.status_code == 404 and "Page not found" in english.content.decode()


def test_a_nul_in_the_path_of_the_api_or_a_json_door_answers_json() -> None:
    client = Client(raise_request_exception=False)
    for url in ("/api/v1/events/%00/", "/t/abc/boards/%00/entry/"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "not_found", url


def test_a_nul_in_the_query_string_is_the_sites_own_400_page_in_the_readers_language() -> None:
    """Refused with 400 (a NUL is in no query of the site's), on the site's own page: its
    header, the reason in the reader's language and a way back (a trial found a bare line of
    text)."""
    response = Client(raise_request_exception=False, **ZH).get("/events/?q=%00")
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert 'id="account"' in html and 'href="/"' in html  # the header, a way back
    assert "请求有误" in html
    api = Client(raise_request_exception=False).get("/api/v1/events/?q=%00")
    assert api.status_code == 400 and api.json()["error"]["code"] == "parse_error"
