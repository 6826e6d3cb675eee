"""The seat devices and the referee device name who plays the board: a substitute on the boards
of her substitution, not the player seated (the second trial of the session found the seat
phones saying "S Fang" on a board Zed Reserve played, where the quick result, the traveller and
the game credited Zed)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.entry_personas import build_world
from tournaments.events.substitutions import substitution_add
from tournaments.links import tokens

pytestmark = pytest.mark.django_db


def test_the_seat_page_names_the_substitute_on_her_boards_only() -> None:
    world = build_world(seed="device-substitute", boards=2)
    table = world.tables[0]
    first, second = world.boards
    seated = table.seats.get(seat="S").player
    substitution_add(
        table=table,
        seat="S",
        reserve_name="Zed Reserve",
        first_board=second.number,
        last_board=second.number,
        actor=world.users["organizer"],
    )
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    seat_url = dict(made[0].seats)["S"]
    token = seat_url.strip("/").split("/")[1]
    client = Client()
    on_second = client.get(f"/s/{token}/boards/{second.number}/").content.decode()
    on_first = client.get(f"/s/{token}/boards/{first.number}/").content.decode()
    row = on_second.split('<tr data-seat="S">', 1)[1].split("</tr>", 1)[0]
    assert "Zed Reserve" in row and seated.name not in row
    row = on_first.split('<tr data-seat="S">', 1)[1].split("</tr>", 1)[0]
    assert seated.name in row and "Zed Reserve" not in row
