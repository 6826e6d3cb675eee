"""`manage.py ddz_table_links EVENT --round N --seats`: one line per seat of each table, each a
seat link opening exactly that seat of that table (and the table links they replace revoked)."""

from __future__ import annotations

import io
import json
from datetime import datetime

import pytest
from django.core.management import call_command

from tests.entry_personas import build_world
from tournaments.links import tokens

pytestmark = pytest.mark.django_db


def test_the_command_prints_every_seat_link_of_the_round() -> None:
    world = build_world(seed="command-seats")
    round_ = world.tables[0].round
    out = io.StringIO()
    call_command(
        "ddz_table_links",
        world.event.slug,
        "--round",
        str(round_.number),
        "--seats",
        "--site",
        "https://ddz.example/",
        stdout=out,
    )
    data = json.loads(out.getvalue())
    assert data["round"] == round_.number
    # Two tables of three seats (classic rules), table by table, seats in bidding order.
    assert [(row["table"], row["seat"]) for row in data["links"]] == [
        (1, "S"),
        (1, "E"),
        (1, "W"),
        (2, "S"),
        (2, "E"),
        (2, "W"),
    ]
    for row in data["links"]:
        assert row["url"].startswith("https://ddz.example/s/")
        link = tokens.seat_link_find(row["url"].rstrip("/").rsplit("/", 1)[1])
        assert link is not None and link.seat == row["seat"]
        assert link.table_link.table_number == row["table"] and link.table_link.round == round_
        assert datetime.fromisoformat(row["expires"]) == link.table_link.expires_at
    # Made again, the seat links before are refused with their table's link.
    first = data["links"][0]["url"].rstrip("/").rsplit("/", 1)[1]
    call_command(
        "ddz_table_links", world.event.slug, "--round", "1", "--seats", stdout=io.StringIO()
    )
    again = tokens.seat_link_find(first)
    assert again is not None and again.table_link.revoked_at is not None
