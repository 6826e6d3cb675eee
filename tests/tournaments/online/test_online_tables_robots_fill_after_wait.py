"""Online tables (tournaments.online.tables): a table still short of entrants when the
organizer's wait is over is filled by the event's robots, lazily (a device of the table reading
the board) or by the sweep, and its board starts; an arrival after the wait never joins it; the
standings are asked to read the seats again; the window's close fills and finishes a table still
waiting."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import EntryDraft, Game
from tests.factories import online_event, online_table_play
from tournaments.core.rules import rules_of
from tournaments.models import AuditEntry, Seat, StandingsChange, Table
from tournaments.online import play
from tournaments.online.close import CLOSED, online_sweep, online_window_close
from tournaments.online.robots import ROBOT_NAME
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _wait_over(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(waiting_until=timezone.now() - timedelta(seconds=1))


def test_the_sweep_fills_the_free_seats_with_robots_once_the_wait_is_over() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=1, tables=True, seat_wait_seconds=30)
    seats = rules_of(event).seats
    table = play.online_board_start(event=event, user=ann, number=1)
    play.online_board_start(event=event, user=bob, number=1)
    assert online_sweep()["filled"] == 0  # the wait is not over
    changes = StandingsChange.objects.filter(event=event, boards__isnull=True).count()
    _wait_over(table)
    assert online_sweep()["filled"] == 1
    table.refresh_from_db()
    assert table.waiting_until is None
    at = {s.seat: s.player for s in Seat.objects.filter(table=table).select_related("player")}
    assert [at[s].user_id for s in seats[:2]] == [ann.pk, bob.pk]
    assert at[seats[2]].robot and at[seats[2]].name == ROBOT_NAME.format(seat=seats[2])
    assert EntryDraft.objects.filter(table=table).exists()
    # The robot played up to an entrant's turn (or the end).
    state = live.live_state(table=table, board=event.boards.get(number=1))
    assert state.game is not None or state.position.to_move in seats[:2]
    full = AuditEntry.objects.get(event=event, action="online.table_full")
    assert full.changes == {"board": 1, "robots": [seats[2]]}
    # Seats added to a table that existed: the standings are asked to read the seats again.
    assert StandingsChange.objects.filter(event=event, boards__isnull=True).count() > changes
    assert online_sweep()["filled"] == 0  # once


def test_a_device_reading_the_board_after_the_wait_fills_the_table() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, tables=True)
    table = play.online_board_start(event=event, user=ann, number=1)
    client = Client()
    client.force_login(ann)
    url = reverse("online:device_position", args=[event.slug, 1])
    assert "waiting" in client.get(url).json()
    _wait_over(table)
    answer = client.get(url).json()
    assert "waiting" not in answer
    seats = rules_of(event).seats
    assert answer["view"]["seat"] == seats[0]
    assert answer["view"]["left"] is None
    robots = Seat.objects.filter(table=table, player__robot=True).values_list("seat", flat=True)
    assert sorted(robots) == sorted(seats[1:])


def test_an_arrival_after_the_wait_is_seated_at_a_new_table() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=1, tables=True)
    first = play.online_board_start(event=event, user=ann, number=1)
    _wait_over(first)
    second = play.online_board_start(event=event, user=bob, number=1)
    assert second.pk != first.pk
    assert Seat.objects.filter(table=first).count() == 1  # not filled by the arrival
    assert online_sweep()["filled"] == 1
    assert Seat.objects.filter(table=first).count() == len(rules_of(event).seats)


def test_two_entrants_and_a_robot_play_the_board_to_its_end() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=1, tables=True)
    table = play.online_board_start(event=event, user=ann, number=1)
    play.online_board_start(event=event, user=bob, number=1)
    _wait_over(table)
    online_sweep()
    game = online_table_play(event, [ann, bob], 1)
    assert game.table_id == table.pk and game.source == "seat"
    assert Game.objects.filter(table=table).count() == 1
    assert not Seat.objects.filter(table=table, robot_from__isnull=False).exists()


def test_the_close_fills_a_waiting_table_and_marks_its_entrant() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, tables=True)
    table = play.online_board_start(event=event, user=ann, number=1)
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    game = Game.objects.get(table=table)
    mine = Seat.objects.get(table=table, player__user=ann)
    assert mine.robot_from is not None  # the robot finished his board: marked
    takeover = AuditEntry.objects.get(event=event, action="online.robot_takeover")
    assert takeover.changes["why"] == "close" and takeover.changes["seat"] == mine.seat
    assert takeover.changes["robot_from"] == mine.robot_from
    assert game.record["bidding"]
