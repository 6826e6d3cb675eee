"""``/favicon.ico`` is served, and the favicon the pages link exists."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.entry_personas import build_world

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


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
