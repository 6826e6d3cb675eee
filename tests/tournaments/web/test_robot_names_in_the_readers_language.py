"""A robot player is stored as "Robot S" (tournaments.online.robots.ROBOT_NAME) but shown in the
reader's language wherever people read a player's name (Player.shown_name): the seat device, the
traveller, the game and its replay, the round, an entrant's scorecard (zh-hans 机器人 S, zh-hant
機器人 S; a robot has no scorecard of its own); its stored name is unchanged, and a person is
shown by his name as stored."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.robots import Robot
from tests.factories import online_event, online_table_step
from tournaments.core.rules import rules_of
from tournaments.models import Player, Seat
from tournaments.online import play
from tournaments.online.close import CLOSED, online_window_close
from tournaments.online.tables import table_fill
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def test_a_robot_is_named_in_the_readers_language_and_a_person_as_stored() -> None:
    robot = Player(name="Robot E", robot=True)
    person = Player(name="Robot E", robot=False)  # a person may bear any name
    with translation.override("en"):
        assert robot.shown_name == "Robot E"
    with translation.override("zh-hans"):
        assert robot.shown_name == "机器人 E"
        assert person.shown_name == "Robot E"
    with translation.override("zh-hant"):
        assert robot.shown_name == "機器人 E"
    assert robot.name == "Robot E"


def test_every_page_names_the_robots_in_chinese() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, tables=True)
    robots = rules_of(event).seats[1:]
    table = play.online_board_start(event=event, user=ann, number=1)
    device = play.entrant_device(ann, event.slug, 1)
    board = device.board
    assert table_fill(table=table, board=board, force=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(ann)
    pages = {"device": client.get(reverse("online:device_board", args=[event.slug, 1]))}
    state = live.live_state(table=table, board=board)
    mine = {device.seat: (device, Robot("basic", ann.username))}
    for _turn in range(200):
        if state.game is not None:
            break
        state = online_table_step(mine, state)
    game = state.game
    assert game is not None
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    robot_e = Seat.objects.get(table=table, seat=robots[0]).player
    assert robot_e.robot and robot_e.name == f"Robot {robots[0]}"  # stored as it was
    public = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    pages["traveller"] = public.get(reverse("public:traveller", args=[event.slug, 1]))
    pages["game"] = public.get(reverse("public:game", args=[game.pk]))
    pages["replay"] = public.get(reverse("public:replay", args=[game.pk]))
    pages["round"] = public.get(reverse("public:round", args=[event.slug, board.round.number]))
    # A robot has no scorecard of its own; it is named on the scorecard of the entrant it met.
    robots_card = public.get(reverse("public:scorecard", args=[event.slug, robot_e.pk]))
    assert robots_card.status_code == 404
    ann_player = Seat.objects.get(table=table, seat=device.seat).player_id
    pages["ann's scorecard"] = public.get(
        reverse("public:scorecard", args=[event.slug, ann_player])
    )
    for name, page in pages.items():
        assert page.status_code == 200, name
        text = page.content.decode()
        for seat in robots:
            assert f"机器人 {seat}" in text, (name, seat)
            assert f"Robot {seat}" not in text, (name, seat)
