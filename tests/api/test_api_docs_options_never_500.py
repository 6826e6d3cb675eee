"""OPTIONS on the API's documentation pages and schema answers properly, whatever the
client accepts: the Swagger UI and Redoc pages take GET and HEAD only (405 with Allow), the
schema describes itself (200); never a 500 from a page template with nothing to render."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ACCEPTS = ["*/*", "text/html", "application/json", ""]


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_options_on_a_docs_page_answers_405_with_allow(url: str, accept: str) -> None:
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    answer = Client(raise_request_exception=False).options(url, **headers)
    assert answer.status_code in (405, 406), answer.content[:300]
    if answer.status_code == 405:
        allowed = {m.strip() for m in answer["Allow"].split(",")}
        assert allowed == {"GET", "HEAD"}


@pytest.mark.parametrize("accept", ACCEPTS)
def test_options_on_the_schema_answers_without_error(accept: str) -> None:
    headers = {"HTTP_ACCEPT": accept} if accept else {}
    answer = Client(raise_request_exception=False).options("/api/schema/", **headers)
    assert answer.status_code in (200, 406), answer.content[:300]
    assert "OPTIONS" in answer["Allow"]


@pytest.mark.parametrize("url", ["/api/docs/", "/api/redoc/"])
def test_the_docs_pages_still_answer_get_and_head(url: str) -> None:
    client = Client()
    assert client.get(url).status_code == 200
    assert client.head(url).status_code == 200
