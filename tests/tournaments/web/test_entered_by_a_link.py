"""Who entered a game, for a game entered without an account: a table's link ("table 1
link") or its seats' phones ("table 1 seat devices"), never a bare dash."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import entry, tokens

pytestmark = pytest.mark.django_db


def _steps(record: dict) -> list[str]:
    return [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]


def test_the_versions_page_names_the_link_that_entered_the_game() -> None:
    world = build_world(seed="entered-by-link")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    table, board = world.tables[0], world.boards[0]
    bearer = tokens.LinkBearer.of(made[0].link, device="phone")
    game = entry.link_game_submit(
        bearer=bearer, table=table, board=board, steps=_steps(bot_record(board, table))
    )
    client = Client()
    client.force_login(world.users["chief"])
    page = client.get(reverse("referee:game", args=[world.event.slug, game.pk])).content.decode()
    row = page.split("<tbody><tr>", 1)[1].split("</tr>", 1)[0]
    version, _status, entered_by = row.split("</td>", 3)[:3]
    assert version.endswith(">1</a>")
    assert f"table {table.number} link" in entered_by and "—" not in entered_by
