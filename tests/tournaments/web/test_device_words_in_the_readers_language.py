"""Every word a seat device's script (device.js) and the waiting page's (waiting.js) write comes
from the page in the reader's language: the calls it lists by name (call, rob, double, …) too,
never the engine's English word (tournaments.web.devices.device_texts)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.messages import call_label
from tests.factories import online_event
from tournaments.online import play
from tournaments.online.tables import table_fill

pytestmark = pytest.mark.django_db

NAMED_CALLS = ("call", "rob", "double", "redouble", "show", "surrender", "reveal")
# What a sentence may hold in Latin letters whatever the language: its placeholders, the
# technology's name.
PROPER = r"%\(\w+\)s|WebSocket"


def _script_json(page: str, element: str) -> dict:
    start = page.index(f'id="{element}"')
    return json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])


def test_the_device_names_every_call_in_the_readers_language() -> None:
    event, _td, users = online_event(entrants=1, boards=1, tables=True)
    table = play.online_board_start(event=event, user=users[0], number=1)
    assert table_fill(table=table, board=event.boards.get(number=1), force=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(users[0])
    page = client.get(reverse("online:device_board", args=[event.slug, 1])).content.decode()
    texts = _script_json(page, "device-texts")
    with translation.override("zh-hans"):
        expected = {call: call_label(call) for call in NAMED_CALLS}
    assert texts["calls"] == expected
    for word, said in texts["calls"].items():
        assert re.search("[A-Za-z]", said) is None, (word, said)
    # Every sentence of the script is in Chinese (seat letters and placeholders aside).
    for key, value in texts.items():
        if isinstance(value, str):
            words = re.sub(PROPER, "", value)
            assert re.search("[A-Za-z]{2,}", words) is None, (key, value)


def test_the_waiting_page_speaks_the_readers_language() -> None:
    event, _td, users = online_event(entrants=1, boards=1, tables=True, seat_wait_seconds=600)
    play.online_board_start(event=event, user=users[0], number=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(users[0])
    page = client.get(reverse("online:device_board", args=[event.slug, 1])).content.decode()
    texts = _script_json(page, "waiting-texts")
    assert texts  # the waiting page, not the device
    for key, value in texts.items():
        assert re.search("[A-Za-z]{2,}", re.sub(PROPER, "", value)) is None, (key, value)
