"""The dashboard's line of an online round counts the plays where the robot played an entrant's
moves: a timeout against robots (Table.robot_moves) and, at online tables, a seat the robot took
over (Seat.robot_from: a timeout, "Leave the table" or the close), each table once however many
of its seats were taken over."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_event, online_table_seated
from tournaments.events.overview import OnlinePlays, online_plays
from tournaments.models import Round
from tournaments.online import play
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def test_two_seats_taken_over_at_one_table_count_one_play_with_robot_moves() -> None:
    event, td, users = online_event(entrants=3, boards=1, tables=True)
    devices = online_table_seated(event, users, 1)
    for user in users[:2]:
        play.online_board_leave(event=event, user=user, number=1)
    device = next(iter(devices.values()))[0]
    finished = live.live_state(table=device.table, board=device.board).game is not None
    round_ = Round.objects.get(event=event, number=1)
    assert online_plays(event)[round_.pk] == OnlinePlays(
        started=1, finished=int(finished), verified=online_plays(event)[round_.pk].verified, robot=1
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    line = page[page.index('id="plays-1"') :].split("</p>")[0]
    assert "1 play of this board started" in line
    assert "1 with moves played by the robot" in line


def test_a_table_nobody_left_counts_no_robot_move() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    online_table_seated(event, users, 1)
    round_ = Round.objects.get(event=event, number=1)
    assert online_plays(event)[round_.pk].robot == 0
