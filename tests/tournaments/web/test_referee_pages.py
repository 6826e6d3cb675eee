"""The referee's JSON record door: one happy path, one permission denial, bad input; a
referee enters at the tables assigned to him (tournaments.core.access)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Game, Status
from tests.factories import bot_record, duplicate_round
from tournaments.models import EventRole, Role, TableAssignment

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="referee")
    board, table = boards[0], tables[2]
    user = User.objects.create_user("referee3", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.REFEREE)
    TableAssignment.objects.create(table=table, user=user)
    url = reverse(
        "referee:enter", kwargs={"slug": event.slug, "table_id": table.pk, "number": board.number}
    )
    return event, table, board, url


@pytest.fixture
def referee(client, setup):
    client.force_login(User.objects.get(username="referee3"))
    return client


def test_referee_enters_a_game(referee, setup) -> None:
    event, table, board, url = setup
    page = referee.get(url)
    assert page.status_code == 200 and "&quot;hands&quot;" in page.content.decode()
    response = referee.post(url, {"record": json.dumps(bot_record(board, table))})
    game = Game.objects.get()
    review = reverse("referee:game", kwargs={"slug": event.slug, "pk": game.pk})
    assert response.status_code == 302 and response["Location"] == review
    assert game.table == table and game.status == Status.PENDING
    assert game.entered_by.username == "referee3" and game.source == "page"
    listing = referee.get(reverse("referee:event", kwargs={"slug": event.slug})).content.decode()
    assert review in listing


def test_anonymous_and_players_may_not_enter_games(client, setup) -> None:
    _event, table, board, url = setup
    response = client.post(url, {"record": json.dumps(bot_record(board, table))})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(User.objects.create_user("player", password="x"))
    assert client.post(url, {"record": "{}"}).status_code == 403
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
    assert response.status_code == 409 and "already has a game" in response.content.decode()
    assert referee.post(url, {"record": record, "replaces": "1"}).status_code == 302
    assert Game.objects.filter(replaced_at__isnull=True).count() == 1
    assert Game.objects.count() == 2
