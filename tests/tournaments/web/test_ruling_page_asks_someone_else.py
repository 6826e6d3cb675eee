"""A game's page where the event asks two-person confirmation: the person who entered the game
is offered neither the confirmation nor the ruling, and the page says that someone else gives
them; his POST of a ruling is refused with that reason. Another chief referee is offered the
ruling."""

from __future__ import annotations

import html

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Game, Status
from tests.factories import bot_record
from tournaments.models import EventRole, Role
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def _mismatch_entered_by_the_chief(world) -> Game:
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    seat = next(iter(record["declared"]))
    record["declared"] = {s: v + (1 if s == seat else 0) for s, v in record["declared"].items()}
    game = game_submit(table=table, board=board, record=record, actor=world.users["chief"])
    game_verify(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_enterer_is_told_that_someone_else_rules(linked) -> None:
    world, _tokens = linked
    game = _mismatch_entered_by_the_chief(world)
    assert game.status == Status.MISMATCH
    url = reverse("referee:game", args=[world.event.slug, game.pk])
    chief = _signed_in(world.users["chief"])
    page = html.unescape(chief.get(url).content.decode())
    assert 'id="resolve-form"' not in page and 'id="confirm"' not in page
    assert "You entered this game" in page
    assert "another chief referee or an organizer rules on it" in page
    refused = chief.post(url, {"action": "resolve", "decision": "accept", "note": "mine"})
    assert refused.status_code == 400
    assert "someone other than the person who entered it" in html.unescape(refused.content.decode())
    assert Game.objects.get(pk=game.pk).resolution == ""
    # Another chief referee is offered the ruling, and his is taken.
    second = User.objects.create_user("second-chief-page", password="x")
    EventRole.objects.create(event=world.event, user=second, role=Role.CHIEF_REFEREE)
    other = _signed_in(second)
    assert 'id="resolve-form"' in other.get(url).content.decode()
    done = other.post(url, {"action": "resolve", "decision": "accept", "note": "slip"})
    assert done.status_code == 302
    assert Game.objects.get(pk=game.pk).resolved_by == second


def test_the_enterer_is_told_that_someone_else_confirms(linked) -> None:
    world, _tokens = linked
    table, board = world.tables[0], world.boards[0]
    game = game_submit(
        table=table, board=board, record=bot_record(board, table), actor=world.users["referee1"]
    )
    game_verify(game_id=game.pk)
    url = reverse("referee:game", args=[world.event.slug, game.pk])
    page = html.unescape(_signed_in(world.users["referee1"]).get(url).content.decode())
    assert 'id="confirm"' not in page
    assert "You entered this version: someone else confirms it." in page
    assert 'id="confirm"' in _signed_in(world.users["chief"]).get(url).content.decode()
