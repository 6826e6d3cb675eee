"""Online tables (tournaments.online.tables): an entrant who lets a move's time run out, or
presses "Leave the table", is taken over by the robot of his seat for the rest of the board (not
one move), his seat marked with the step it took over from; his own steps are refused from then
on; the mark shows on his boards page and, once the window closes, on the board's traveller and
the game's page ("played by the robot from move N")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import EntryDraft
from tests.factories import online_event, online_table_seated, online_table_step
from tournaments.core.access import NotAllowed
from tournaments.core.rules import rules_of
from tournaments.models import AuditEntry, Seat, Table
from tournaments.online import play
from tournaments.online.close import CLOSED, online_sweep, online_window_close
from tournaments.online.window import OnlineRefused
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _overdue(table: Table, seconds: int) -> None:
    EntryDraft.objects.filter(table=table).update(
        updated_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_a_timeout_hands_his_seat_to_the_robot_to_the_end_of_the_board() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True, move_seconds=30)
    devices = online_table_seated(event, users, 1)
    any_device = next(iter(devices.values()))[0]
    table, board = any_device.table, any_device.board
    state = live.live_state(table=table, board=board)
    # The entrants play until the second of the rules' seats is to move; he lets it run out.
    leaver = rules_of(event).seats[1]
    while state.position.to_move != leaver:
        state = online_table_step(devices, state)
    at = len(state.position.steps)
    _overdue(table, 29)
    assert online_sweep()["timeouts"] == 0  # in time
    _overdue(table, 31)
    assert online_sweep()["timeouts"] == 1
    mine = Seat.objects.get(table=table, seat=leaver)
    assert mine.robot_from == at
    state = live.live_state(table=table, board=board)
    assert len(state.position.steps) > at  # his move, by the robot, and the robots' answer
    # His device may no longer step at the table (the access rule of the write path), on the
    # position he saw or any later one.
    device = devices[leaver][0]
    with pytest.raises(NotAllowed):
        live.live_step(
            table=table, board=board, seat=leaver, step="pass", at=at, actor=device.bearer
        )
    # The others play to the end: his seat is never theirs to wait for again.
    others = {s: d for s, d in devices.items() if s != leaver}
    for _turn in range(200):
        if state.game is not None:
            break
        assert state.position.to_move != leaver, "the robot plays his seat to the end"
        state = online_table_step(others, state)
    assert state.game is not None
    with pytest.raises(OnlineRefused, match=f"from move {at + 1}"):
        play.step_and_robots(
            table=table, board=board, seat=leaver, step="pass", at=0, actor=device.bearer
        )
    takeover = AuditEntry.objects.get(event=event, action="online.robot_takeover")
    assert takeover.changes == {"board": 1, "seat": leaver, "robot_from": at, "why": "timeout"}
    assert Table.objects.get(pk=table.pk).robot_moves == 0  # the mark is the seat's, not a count
    row = play.entrant_boards(event, mine.player)[0]
    assert (row.seat, row.state, row.robot_from) == (leaver, "finished", at)


def test_leave_the_table_is_a_post_with_its_token_and_marks_his_result() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    devices = online_table_seated(event, users, 1)
    seats = rules_of(event).seats
    leaver_seat = seats[2]
    leaver = users[2]
    device = devices[leaver_seat][0]
    table, board = device.table, device.board
    state = live.live_state(table=table, board=board)
    while state.position.to_move != leaver_seat:
        state = online_table_step(devices, state)
    at = len(state.position.steps)
    url = reverse("online:leave", args=[event.slug, 1])
    client = Client(enforce_csrf_checks=True)
    client.force_login(leaver)
    assert client.get(url).status_code == 405
    assert client.post(url).status_code == 403  # no CSRF token
    assert Seat.objects.get(table=table, seat=leaver_seat).robot_from is None
    page = client.get(reverse("online:device_board", args=[event.slug, 1]))
    assert 'id="leave"' in page.content.decode()
    answer = client.post(url, {"csrfmiddlewaretoken": page.context["csrf_token"]})
    assert answer.status_code == 302 and answer.url == reverse("online:home", args=[event.slug])
    assert Seat.objects.get(table=table, seat=leaver_seat).robot_from == at
    # His turn: the robot played it at once.
    state = live.live_state(table=table, board=board)
    assert len(state.position.steps) > at
    entry = AuditEntry.objects.get(event=event, action="online.table_leave")
    assert entry.actor_id == leaver.pk
    assert entry.changes == {"board": 1, "seat": leaver_seat, "robot_from": at, "why": "left"}
    # His device shows the mark and offers no move; leaving again changes nothing.
    view = client.get(reverse("online:device_position", args=[event.slug, 1])).json()["view"]
    assert view["left"] == at and view["menu"] is None
    if state.game is None:
        assert play.online_board_leave(event=event, user=leaver, number=1) == at
    else:
        # The robot's move for him ended the board (the deal follows the event's seed: a
        # last pass in the bidding, say): there is nothing left to leave.
        with pytest.raises(OnlineRefused, match="is over"):
            play.online_board_leave(event=event, user=leaver, number=1)
    mark = f"played by the robot from move {at + 1}"
    home = client.get(reverse("online:home", args=[event.slug])).content.decode()
    assert mark in home
    others = {s: d for s, d in devices.items() if s != leaver_seat}
    for _turn in range(200):
        if state.game is not None:
            break
        state = online_table_step(others, state)
    game = state.game
    assert game is not None
    # The board's result pages show the mark once the window is closed (sealed before).
    public = Client()
    traveller = reverse("public:traveller", args=[event.slug, 1])
    assert mark not in public.get(traveller).content.decode()
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    assert mark in public.get(traveller).content.decode()
    assert mark in public.get(reverse("public:game", args=[game.pk])).content.decode()


def test_no_table_to_leave_in_robot_duplicate() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    play.online_board_start(event=event, user=ann, number=1)
    with pytest.raises(OnlineRefused):
        play.online_board_leave(event=event, user=ann, number=1)
