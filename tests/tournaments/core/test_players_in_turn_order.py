"""Who sits where is always listed in the turn order of R-SEAT (S E W at three players; S E N W
at four), never in the alphabetical order the seats are stored in (E S W)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tournaments.core.lineups import table_players

pytestmark = pytest.mark.django_db


def test_a_tables_players_come_in_turn_order() -> None:
    world = build_world(seed="turn-order", tables=1, boards=1)
    assert list(table_players(world.tables[0], 1)) == ["S", "E", "W"]


def test_the_quick_results_header_names_the_seats_in_turn_order() -> None:
    world = build_world(seed="turn-order-page", tables=1, boards=1)
    event, table = world.event, world.tables[0]
    referee = Client()
    referee.force_login(world.users["referee1"])
    page = referee.get(reverse("referee:quick", args=[event.slug, table.pk, 1])).content.decode()
    header = re.search(r'<p id="seat-players">(.*?)</p>', page, re.S)
    assert header
    assert re.findall(r"\b([SEW]):", header.group(1)) == ["S", "E", "W"]
