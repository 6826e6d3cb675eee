"""At an online table, every device is told which seats the robot took over from their entrants
(tournaments.web.devices.device_taken_over): the position door, the page and a step's answer
carry ``taken_over`` (the seat, the entrant's name, the step the robot plays from, why: he left or
let a move's time run out, and the sentence and the seat's mark in the reader's language), so
that the others see it whichever way their device hears of the table."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import EntryDraft
from tests.factories import online_event, online_table_seated, online_table_step
from tournaments.core.rules import rules_of
from tournaments.online import play
from tournaments.online.close import online_sweep
from tournaments.online.robots import robot_step
from tournaments.online.tables import table_fill
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _client(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _view(client: Client, slug: str) -> dict:
    return client.get(reverse("online:device_position", args=[slug, 1])).json()["view"]


def test_the_others_read_who_left_and_from_which_move() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    seats = rules_of(event).seats
    devices = online_table_seated(event, users, 1)
    first = _client(users[0])
    assert _view(first, event.slug)["taken_over"] == []
    at = play.online_board_leave(event=event, user=users[2], number=1)
    assert at is not None
    expected = {
        "seat": seats[2],
        "name": "Entrant 3",
        "from": at,
        "why": "left",
        "text": f"Entrant 3 left: the robot plays that seat from move {at + 1}.",
        "mark": f"played by the robot from move {at + 1}",
    }
    assert _view(first, event.slug)["taken_over"] == [expected]
    # In the reader's language, the seat's mark too.
    chinese = _view(_client(users[1], "zh-hans"), event.slug)["taken_over"]
    assert chinese[0]["mark"] == f"从第 {at + 1} 步起由机器人代打"
    # The device's page starts with it, and has where to show it.
    page = first.get(reverse("online:device_board", args=[event.slug, 1])).content.decode()
    start = page.index('id="device-view"')
    shown = json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])
    assert shown["taken_over"] == [expected]
    assert 'id="taken-over"' in page and 'class="robot-from' in page
    # A step's answer keeps it (the device redraws from the answer).
    state = live.live_state(table=devices[seats[0]][0].table, board=devices[seats[0]][0].board)
    mover = state.position.to_move
    if state.game is None and mover in seats[:2]:
        client = first if mover == seats[0] else _client(users[1])
        step = robot_step(state.position, devices[mover][1])
        url = reverse("online:device_steps", args=[event.slug, 1])
        body = {"step": step, "at": len(state.position.steps)}
        answer = client.post(url, json.dumps(body), content_type="application/json").json()
        assert answer["ok"], answer
        assert answer["view"]["taken_over"] == [expected]


def test_a_timeout_is_told_as_such() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True, move_seconds=30)
    seats = rules_of(event).seats
    devices = online_table_seated(event, users, 1)
    table, board = devices[seats[0]][0].table, devices[seats[0]][0].board
    state = live.live_state(table=table, board=board)
    while state.position.to_move != seats[1]:
        state = online_table_step(devices, state)
    at = len(state.position.steps)
    EntryDraft.objects.filter(table=table).update(updated_at=timezone.now() - timedelta(seconds=31))
    assert online_sweep()["timeouts"] == 1
    (told,) = _view(_client(users[0]), event.slug)["taken_over"]
    assert (told["seat"], told["name"], told["from"], told["why"]) == (
        seats[1],
        "Entrant 2",
        at,
        "timeout",
    )
    assert (
        told["text"] == f"Entrant 2 ran out of time: the robot plays that seat from move {at + 1}."
    )
    # His own device says it to him in its own words (left-note), and lists it too.
    own = _view(_client(users[1]), event.slug)
    assert own["left"] == at and own["taken_over"] == [told]


def test_no_mark_at_a_table_of_robots_only_nor_at_a_table_without_entrants_leaving() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, tables=True)
    table = play.online_board_start(event=event, user=ann, number=1)
    assert table_fill(table=table, board=event.boards.get(number=1), force=True)
    # The robots fill the free seats: they are robot players, not seats taken over.
    view = _view(_client(ann), event.slug)
    assert view["taken_over"] == []
