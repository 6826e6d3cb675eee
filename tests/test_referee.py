"""The referee's door: one happy path, one permission denial, bad input, per page."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from games.models import Game, Status
from tests.factories import bot_record, duplicate_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def referee(client):
    user = User.objects.create_user("referee3", password="x")
    user.user_permissions.add(Permission.objects.get(codename="add_game"))
    client.force_login(user)
    return client


@pytest.fixture
def setup():
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="referee")
    board, table = boards[0], tables[2]
    url = reverse(
        "referee:enter", kwargs={"slug": event.slug, "table_id": table.pk, "number": board.number}
    )
    return event, table, board, url


def test_referee_enters_a_game(referee, setup) -> None:
    event, table, board, url = setup
    page = referee.get(url)
    assert page.status_code == 200 and "&quot;hands&quot;" in page.content.decode()
    response = referee.post(url, {"record": json.dumps(bot_record(board, table))})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.table == table and game.status == Status.PENDING
    listing = referee.get(reverse("referee:event", kwargs={"slug": event.slug})).content.decode()
    assert game.get_absolute_url() in listing


def test_anonymous_and_players_may_not_enter_games(client, setup) -> None:
    _event, table, board, url = setup
    response = client.post(url, {"record": json.dumps(bot_record(board, table))})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.force_login(User.objects.create_user("player", password="x"))
    assert client.post(url, {"record": "{}"}).status_code == 302
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "This is not JSON"),
        ('{"hello": 1}', "This is not a game record"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_nothing_stored(referee, setup, text, message):
    _event, _table, _board, url = setup
    response = referee.post(url, {"record": text})
    assert response.status_code == 400 and message in response.content.decode()
    assert Game.objects.count() == 0


def test_second_entry_is_refused_unless_it_corrects(referee, setup) -> None:
    _event, table, board, url = setup
    record = json.dumps(bot_record(board, table))
    referee.post(url, {"record": record})
    response = referee.post(url, {"record": record})
    assert response.status_code == 400 and "already has a game" in response.content.decode()
    assert referee.post(url, {"record": record, "replace": "on"}).status_code == 302
    assert Game.objects.filter(replaced_at__isnull=True).count() == 1
    assert Game.objects.count() == 2
