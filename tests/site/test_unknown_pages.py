"""A page that does not exist is the site's own 404 page in the reader's language, never
Django's technical page.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


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
