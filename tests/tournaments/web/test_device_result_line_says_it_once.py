"""Once a board ends, a device's result line (``result_line`` of its view, built in the reader's
language by tournaments.web.devices.result_line) says who won and the engine's verdict once: the
stored game's status, never the live verdict and the stored status side by side ("verified ·
Recorded: game 7, verified."), and not one English word in Chinese."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import online_event, online_table_play
from tournaments.online import play

pytestmark = pytest.mark.django_db

WINNER = {
    "landlord": ("The landlord wins", "地主胜"),
    "farmers": ("The farmers win", "农民胜"),
    # The robots' deal follows the event's seed: every seat may pass (R-PASSOUT).
    None: ("Passed out", "无人叫地主"),
}


def _view(user, slug: str, language: str) -> dict:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(reverse("online:device_position", args=[slug, 1])).json()["view"]


def test_the_result_line_reads_once_in_english_and_wholly_in_chinese() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    game = online_table_play(event, users, 1)
    # The workers verified it, as they do within seconds of the end.
    Game.objects.filter(pk=game.pk).update(status="verified")
    view = _view(users[0], event.slug, "en")
    english, chinese = WINNER[view["result"]["winner"]]
    line = view["result_line"]
    assert line == f"{english} · Recorded: game {game.pk}, verified."
    assert line.lower().count("verified") == 1
    zh = _view(users[0], event.slug, "zh-hans")["result_line"]
    assert zh.startswith(chinese) and zh.count("已校验") == 1, zh
    assert re.search("[A-Za-z]", zh) is None, zh


def test_a_game_still_being_verified_says_so_once() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    game = online_table_play(event, users, 1)
    Game.objects.filter(pk=game.pk).update(status="pending")
    line = _view(users[1], event.slug, "en")["result_line"]
    assert line.endswith(f" · Recorded: game {game.pk}, pending.")
    assert "verified" not in line
    zh = _view(users[1], event.slug, "zh-hans")["result_line"]
    assert re.search("[A-Za-z]", zh) is None, zh


def test_no_result_line_before_the_end() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True, seat_wait_seconds=600)
    for user in users:
        play.online_board_start(event=event, user=user, number=1)
    assert _view(users[0], event.slug, "en")["result_line"] == ""
