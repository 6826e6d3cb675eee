"""A penalty is for a player of the event, in one of its stages (tournaments.standings.
penalties): a trial's admin form with another event's stage was a server error, and one naming
a player of another event put her in this event's standings and on her profile."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import PlayerFactory, duplicate_round
from tournaments.models import Penalty, Stage
from tournaments.standings.penalties import penalty_add
from tournaments.standings.rulings import RulingRejected

pytestmark = pytest.mark.django_db

ADD = "/admin/tournaments/penalty/add/"


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("pen-admin", password="x"))
    return client


def _form(event, player, stage=None) -> dict[str, str]:
    return {
        "event": str(event.pk),
        "stage": "" if stage is None else str(stage.pk),
        "player": str(player.pk),
        "points": "2",
        "reason": "slow play",
    }


def test_the_admin_refuses_another_events_stage_in_its_form(admin_client) -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-a")
    other, *_ = duplicate_round(tables=1, boards=1, seed="pen-b")
    elsewhere = Stage.objects.create(event=other, number=1, name="Other")
    player = tables[0].seats.first().player
    response = admin_client.post(ADD, _form(event, player, elsewhere))
    assert response.status_code == 200  # the form again, not a server error
    assert "The stage belongs to another event." in response.content.decode()
    assert not Penalty.objects.exists()


def test_a_player_of_another_event_is_not_penalised(admin_client) -> None:
    event, _round, _tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-c")
    stranger = PlayerFactory(name="Ann Outsider")
    response = admin_client.post(ADD, _form(event, stranger))
    assert response.status_code == 200
    assert "Ann Outsider is not a player of" in response.content.decode()
    td = get_user_model().objects.get(username="pen-admin")
    with pytest.raises(RulingRejected):
        penalty_add(event=event, player=stranger, points="2", reason="x", actor=td)
    assert not Penalty.objects.exists()


def test_a_seated_player_is_penalised(admin_client) -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-d")
    player = tables[0].seats.first().player
    response = admin_client.post(ADD, _form(event, player))
    assert response.status_code == 302
    assert Penalty.objects.get().player == player
