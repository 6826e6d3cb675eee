"""A referee is never the official of a table he plays at (the third trial's finding: a player
made referee of his own table confirmed his own result and, through the API, replaced it with
a better one). Assigning him there is refused; and should he be seated there afterwards (a
later round, a substitution), his referee's rights stop at that table: its entry, its games,
their confirmation. Organizers and chief referees keep every table (the small club whose
organizer plays enters his own table; the confirmation rule asks someone else).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.core.access import can_enter_table
from tournaments.events.officials import OfficialRefused, stage_referees_assign
from tournaments.models import Player, Stage, TableAssignment
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


def _seat_referee_at(world, table, user) -> Player:
    """Make `user`'s account the player seated at `table`'s first seat."""
    seat = table.seats.order_by("seat").first()
    Player.objects.filter(pk=seat.player_id).update(user=user)
    return seat.player


def test_a_referee_seated_at_his_table_may_not_enter_nor_confirm_there() -> None:
    world = build_world(seed="own-table")
    table, board = world.tables[0], world.boards[0]
    referee = world.users["referee1"]  # assigned to table 1 by build_world
    assert can_enter_table(referee, table)
    _seat_referee_at(world, table, referee)
    assert not can_enter_table(referee, table)
    assert can_enter_table(world.users["organizer"], table)
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    client = Client()
    client.force_login(referee)
    assert client.get(reverse("referee:game", args=[world.event.slug, game.pk])).status_code == 403
    api = APIClient()
    api.force_authenticate(referee)
    url = reverse("api:games", args=[world.event.slug, table.pk, board.number])
    answer = api.post(
        url,
        {"quick": {"landlord": "E", "bid": 2, "winner": "farmers"}, "replace": True, "replaces": 1},
        format="json",
    )
    assert answer.status_code == 403
    game.refresh_from_db()
    assert game.replaced_at is None


def test_assigning_a_referee_to_the_table_he_plays_at_is_refused() -> None:
    world = build_world(seed="own-table-assign")
    table = world.tables[0]
    referee = world.users["referee2"]
    player = _seat_referee_at(world, table, referee)
    stage = Stage.objects.create(event=world.event, number=1)
    table.round.stage = stage
    table.round.save(update_fields=["stage"])
    before = set(TableAssignment.objects.values_list("table_id", "user_id"))
    with pytest.raises(OfficialRefused) as refused:
        stage_referees_assign(
            stage=stage, actor=world.users["organizer"], referees={table.number: referee.pk}
        )
    assert str(refused.value) == (
        f"Table {table.number}: {referee.username} plays there ({player.name}, round "
        f"{table.round.number}); a referee never officiates his own table."
    )
    assert set(TableAssignment.objects.values_list("table_id", "user_id")) == before


def test_his_page_lists_no_table_he_plays_at() -> None:
    world = build_world(seed="own-table-list")
    table = world.tables[0]
    referee = world.users["referee1"]
    client = Client()
    client.force_login(referee)
    url = reverse("referee:event", args=[world.event.slug])
    assert (
        reverse("referee:live", args=[world.event.slug, table.pk, 1])
        in client.get(url).content.decode()
    )
    _seat_referee_at(world, table, referee)
    page = client.get(url).content.decode()
    assert f"/tables/{table.pk}/" not in page
