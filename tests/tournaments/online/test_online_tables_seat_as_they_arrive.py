"""Online tables (tournaments.online.tables): entrants who start a board are seated together as
they arrive, at the first free seat of the rules' seat order of the round's waiting table, and
the board starts only once the table is full; a fourth arrival makes a new table; the table of
three entrants plays the board to its end, and after the close each entrant is compared with
everyone who held his seat (matchpoints, DESIGN.md)."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from games.models import EntryDraft, Game, Status
from tests.factories import online_event, online_table_play
from tournaments.core.rules import rules_of
from tournaments.models import AuditEntry, Seat, Standing, Table
from tournaments.online import play
from tournaments.online.close import CLOSED, online_window_close
from tournaments.online.window import OnlineRefused
from tournaments.standings.store import standings_recompute
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _seats(table: Table) -> dict[str, str]:
    return {s.seat: s.player.user.username for s in table.seats.select_related("player__user")}


def test_three_arrivals_fill_one_table_in_seat_order_and_a_fourth_starts_another() -> None:
    event, _td, users = online_event(entrants=4, boards=1, tables=True)
    seats = rules_of(event).seats
    tables = []
    for i, user in enumerate(users[: len(seats)]):
        table = play.online_board_start(event=event, user=user, number=1)
        tables.append(table)
        table.refresh_from_db()
        full = i == len(seats) - 1
        # Waiting until the last seat is taken: no draft (no clock, no card) before.
        assert (table.waiting_until is None) is full
        assert EntryDraft.objects.filter(table=table).exists() is full
    assert len({t.pk for t in tables}) == 1
    assert _seats(tables[0]) == {s: u.username for s, u in zip(seats, users, strict=False)}
    # Starting again answers with his table: one play a board.
    again = play.online_board_start(event=event, user=users[1], number=1)
    assert again.pk == tables[0].pk
    # The table is full: the next arrival waits at a new table, at the first seat.
    fourth = play.online_board_start(event=event, user=users[len(seats)], number=1)
    assert fourth.pk != tables[0].pk and fourth.number == tables[0].number + 1
    assert _seats(fourth) == {seats[0]: users[len(seats)].username}
    assert fourth.waiting_until is not None
    assert AuditEntry.objects.filter(event=event, action="online.board_start").count() == 4
    assert AuditEntry.objects.filter(event=event, action="online.table_full").count() == 1


def test_a_waiting_table_shows_who_joined_and_no_card() -> None:
    event, _td, (ann, bob, _cy) = online_event(entrants=3, boards=1, tables=True)
    board = event.boards.get(number=1)
    table = play.online_board_start(event=event, user=ann, number=1)
    play.online_board_start(event=event, user=bob, number=1)
    device = play.entrant_device(ann, event.slug, 1)
    # No step before the table is full.
    with pytest.raises(OnlineRefused):
        play.step_and_robots(
            table=table, board=board, seat=device.seat, step="pass", at=0, actor=device.bearer
        )
    assert not EntryDraft.objects.filter(table=table).exists()
    client = Client()
    client.force_login(ann)
    answer = client.get(reverse("online:device_position", args=[event.slug, 1])).json()
    seats = rules_of(event).seats
    assert "view" not in answer
    assert answer["waiting"]["seats"] == [
        {"seat": seats[0], "name": "Entrant 1"},
        {"seat": seats[1], "name": "Entrant 2"},
        {"seat": seats[2], "name": None},
    ]
    assert 0 < answer["waiting"]["seconds"] <= event.seat_wait_seconds
    page = client.get(reverse("online:device_board", args=[event.slug, 1])).content.decode()
    assert "Entrant 2" in page and 'id="waiting-seats"' in page
    for seat in seats:
        assert board.hands[seat] not in page  # no hand, not even his own


def test_leaving_a_waiting_table_frees_the_seat_for_the_next_arrival() -> None:
    event, _td, (ann, bob, cy) = online_event(entrants=3, boards=1, tables=True)
    seats = rules_of(event).seats
    table = play.online_board_start(event=event, user=ann, number=1)
    play.online_board_start(event=event, user=bob, number=1)
    assert play.online_board_leave(event=event, user=ann, number=1) is None
    assert _seats(table) == {seats[1]: bob.username}
    # The first free seat in the rules' order is the one he left.
    play.online_board_start(event=event, user=cy, number=1)
    assert _seats(table) == {seats[0]: cy.username, seats[1]: bob.username}
    # The last entrant leaving removes the table; he may start the board again.
    play.online_board_leave(event=event, user=bob, number=1)
    play.online_board_leave(event=event, user=cy, number=1)
    assert not Table.objects.filter(pk=table.pk).exists()
    again = play.online_board_start(event=event, user=ann, number=1)
    assert _seats(again) == {seats[0]: ann.username}
    leaves = AuditEntry.objects.filter(event=event, action="online.table_leave")
    assert leaves.count() == 3


def _mp(mine: int, others: list[int]) -> int:
    """Matchpoints by the rule (DESIGN.md): 2 for each table beaten in the seat, 1 a tie."""
    return sum(2 if mine > o else 1 if mine == o else 0 for o in others)


def test_two_tables_of_three_entrants_are_compared_seat_by_seat() -> None:
    event, _td, users = online_event(entrants=6, boards=1, tables=True)
    seats = rules_of(event).seats
    first = online_table_play(event, users[:3], 1)
    second = online_table_play(event, users[3:], 1)
    assert first.table_id != second.table_id
    for game in (first, second):
        assert game.source == "seat"
        players = Seat.objects.filter(table=game.table).select_related("player")
        assert not any(s.player.robot for s in players)  # three entrants, no robot
        assert not any(s.robot_from is not None for s in players)
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    games = {g.table_id: g for g in Game.objects.filter(board__event=event)}
    assert all(g.status == Status.VERIFIED for g in games.values())
    standings_recompute(event_id=event.pk)
    rows = {
        s.player.user_id: s
        for s in Standing.objects.filter(event=event, stage__isnull=True).select_related("player")
    }
    for table_users, mine, other in ((users[:3], first, second), (users[3:], second, first)):
        for seat, user in zip(seats, table_users, strict=True):
            score = games[mine.table_id].score[seat]
            expected = _mp(score, [games[other.table_id].score[seat]])
            assert Fraction(rows[user.pk].total) == expected, (seat, games)
            assert rows[user.pk].boards == 1


def test_a_board_of_a_table_of_three_is_played_by_its_three_devices() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    game = online_table_play(event, users, 1)
    state = live.live_state(table=game.table, board=game.board)
    assert state.game is not None and state.game.pk == game.pk
    # Each entrant's page lists the board finished at his own seat.
    seats = rules_of(event).seats
    for seat, user in zip(seats, users, strict=True):
        player = Seat.objects.get(table=game.table, seat=seat).player
        row = play.entrant_boards(event, player)[0]
        assert (row.seat, row.state, row.robot_from) == (seat, "finished", None)
        assert player.user_id == user.pk


def test_the_table_is_the_rules_own_size() -> None:
    event, _td, users = online_event(entrants=4, boards=1, tables=True, rules="four_player")
    seats = rules_of(event).seats
    assert len(seats) == 4
    tables = {play.online_board_start(event=event, user=u, number=1).pk for u in users}
    assert len(tables) == 1
    table = Table.objects.get(pk=tables.pop())
    assert table.waiting_until is None
    assert _seats(table) == {s: u.username for s, u in zip(seats, users, strict=True)}
