"""A lost database answers every JSON door in the API's error shape (503, ``unavailable``):
the API's, and the private links' JSON doors whose clients (the live entry's script, a seat's
phone) read JSON; a page answers the site's 503 page."""

from __future__ import annotations

import json

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from ddz_site.web.middleware import DatabaseUnavailableMiddleware

JSON_DOORS = [
    ("post", "/api/v1/events/open/boards/1/games/"),
    ("post", "/t/TOKEN/boards/7/games/"),
    ("post", "/t/TOKEN/boards/7/entry/"),
    ("get", "/t/TOKEN/boards/7/device/position/"),
    ("post", "/t/TOKEN/boards/7/device/steps/"),
    ("get", "/s/TOKEN/boards/7/position/"),
    ("post", "/s/TOKEN/boards/7/steps/"),
    ("post", "/s/TOKEN/boards/7/undo/"),
    ("post", "/s/TOKEN/boards/7/claim/"),
    ("get", "/p/TOKEN/rounds/2/boards/7/position/"),
    ("post", "/referee/events/open/tables/3/boards/7/device/steps/"),
]


def _answer(method: str, path: str) -> HttpResponse:
    request = getattr(RequestFactory(), method)(path)
    middleware = DatabaseUnavailableMiddleware(lambda r: HttpResponse())
    answer = middleware.process_exception(request, OperationalError("connection refused"))
    assert answer is not None
    return answer


@pytest.mark.parametrize(("method", "path"), JSON_DOORS)
def test_a_json_door_answers_the_unavailable_shape(method: str, path: str) -> None:
    answer = _answer(method, path)
    assert answer.status_code == 503 and answer["Content-Type"] == "application/json"
    assert json.loads(answer.content)["error"]["code"] == "unavailable"
    assert answer["Retry-After"]


@pytest.mark.parametrize("path", ["/t/TOKEN/", "/s/TOKEN/boards/7/", "/events/open/"])
def test_a_page_answers_the_sites_503_page(path: str) -> None:
    answer = _answer("get", path)
    assert answer.status_code == 503 and answer["Content-Type"].startswith("text/html")
