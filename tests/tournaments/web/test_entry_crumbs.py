"""The entry pages' crumbs end with the page's own name (live entry, quick result), for a
referee and through a table link, and the other entry mode is a switch outside them.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _crumbs_and_switch(page: str) -> tuple[str, list[str]]:
    """The text of the page's crumbs, and the texts of the links outside them to the other
    entry mode (the switch)."""
    import re

    nav = re.search(r'<nav class="crumbs">(.*?)</nav>', page, re.S)
    assert nav, "the page has no crumbs"
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", nav.group(1))).strip()
    rest = page[nav.end() :]
    switches = re.findall(r'<a [^>]*class="switch"[^>]*>([^<]*)</a>', rest)
    return text, switches


def test_the_entry_pages_crumbs_end_with_their_own_name_and_the_other_mode_is_a_switch():
    from tests.entry_personas import build_world
    from tournaments.links import tokens

    world = build_world(seed="crumbs", tables=1, boards=1)
    event, table = world.event, world.tables[0]
    made = tokens.table_links_make(event=event, round_=table.round, actor=world.users["organizer"])
    token = made[0].url.strip("/").split("/")[-1]
    referee = Client()
    referee.force_login(world.users["referee1"])
    anyone = Client()
    pages = {
        "referee live": referee.get(reverse("referee:live", args=[event.slug, table.pk, 1])),
        "referee quick": referee.get(reverse("referee:quick", args=[event.slug, table.pk, 1])),
        "link live": anyone.get(reverse("links:live", args=[token, 1])),
        "link quick": anyone.get(reverse("links:quick", args=[token, 1])),
    }
    shown = {}
    for name, response in pages.items():
        assert response.status_code == 200, name
        shown[name] = _crumbs_and_switch(response.content.decode())
    where = f"{event.name} · Table 1"
    assert shown == {
        "referee live": (f"Referee: {event.name} · Live entry", ["Switch to quick result"]),
        "referee quick": (f"Referee: {event.name} · Quick result", ["Switch to live entry"]),
        "link live": (f"{where} · Live entry", ["Switch to quick result"]),
        "link quick": (f"{where} · Quick result", ["Switch to live entry"]),
    }
