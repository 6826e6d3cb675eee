"""The new-event form labels the event's name with its own msgid (context "event"), not the
"Name" shared with a player's name, so that Chinese can say 名称 rather than 姓名."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils.translation import trans_real

pytestmark = pytest.mark.django_db


def test_the_event_name_label_is_translated_in_the_event_context(monkeypatch) -> None:
    from django.conf import settings

    catalog = trans_real.translation("zh-hans")._catalog
    monkeypatch.setitem(catalog._catalogs[0], "event\x04Name", "名称")
    staff = get_user_model().objects.create_user("staff", password="pw", is_staff=True)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    client.force_login(staff)
    page = client.get(reverse("organizer:event_new")).content.decode()
    label = re.search(r"<label>([^<]*)<br><input name=\"name\"", page)
    assert label is not None and label.group(1) == "名称"
