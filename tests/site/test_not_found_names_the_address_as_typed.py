"""The site's 404 page names the address as the reader typed it: a trial read
"/events/%E4%B8%AD/" for the Chinese slug it typed."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_chinese_address_is_named_in_chinese_and_markup_is_escaped() -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get("/events/中/")
    assert page.status_code == 404
    text = page.content.decode()
    assert "Nothing is at /events/中/:" in text and "Nothing is at /events/%E4" not in text
    hostile = Client(HTTP_ACCEPT_LANGUAGE="en").get("/events/<b>x</b>/").content.decode()
    assert "<b>x</b>" not in hostile
