"""A signed-in referee's "My events" leads straight to the table he referees in a round in play,
at its next board to enter."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


def test_my_events_links_the_referees_table_at_its_next_board() -> None:
    world = build_world(seed="referee-lands")
    table = world.tables[0]  # referee1's table
    client = Client()
    client.force_login(world.users["referee1"])
    page = client.get(reverse("organizer:home")).content.decode()
    first = reverse("referee:device_board", args=[world.event.slug, table.pk, 1])
    assert f'href="{first}"' in page
    # Board 1 entered: the link goes to board 2.
    game_submit(table=table, board=world.boards[0], record=bot_record(world.boards[0], table))
    page = client.get(reverse("organizer:home")).content.decode()
    second = reverse("referee:device_board", args=[world.event.slug, table.pk, 2])
    assert f'href="{second}"' in page and f'href="{first}"' not in page
    # Another referee's table is not his.
    other = reverse("referee:device_board", args=[world.event.slug, world.tables[-1].pk, 1])
    assert other not in page
