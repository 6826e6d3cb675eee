"""The seat of each board is fixed by the event and rotates with the board number (R-SEAT order
S E W), and the robots are deterministic: two entrants making the same moves meet the same
robot plays, whoever they are (a robot's seed is the event's, the board's and the seat's)."""

from __future__ import annotations

import pytest

from games.models import EntryDraft
from tests.factories import online_board_play, online_event
from tournaments.models import Seat
from tournaments.online import play
from tournaments.online.robots import robot_seed

pytestmark = pytest.mark.django_db


def test_the_board_seat_rotates_s_e_w() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=4)
    assert [play.board_seat(event, n) for n in (1, 2, 3, 4)] == ["S", "E", "W", "S"]
    for number in (1, 2, 3, 4):
        table = play.online_board_start(event=event, user=ann, number=number)
        mine = Seat.objects.get(table=table, player__user=ann)
        assert mine.seat == play.board_seat(event, number)
        assert table.round.number == number  # one round a board


def test_a_second_start_answers_with_the_same_table() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    first = play.online_board_start(event=event, user=ann, number=1)
    again = play.online_board_start(event=event, user=ann, number=1)
    assert first.pk == again.pk and event.rounds.get(number=1).tables.count() == 1


def test_two_entrants_making_the_same_moves_meet_the_same_robots() -> None:
    event, _td, (ann, bob, cy) = online_event(entrants=3, boards=3, strength="strong")
    for number in (1, 2, 3):
        same = [online_board_play(event, u, number, seed="same") for u in (ann, bob)]
        other = online_board_play(event, cy, number, seed="other")
        assert same[0].record["bidding"] == same[1].record["bidding"]
        assert same[0].record["plays"] == same[1].record["plays"]
        assert same[0].score == same[1].score
        assert other.table_id != same[0].table_id
    # The robot's seed names no entrant.
    assert robot_seed(event, 1, "E") == robot_seed(event, 1, "E") != robot_seed(event, 2, "E")


def test_the_robots_play_up_to_the_entrants_first_turn_when_he_starts() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=3)
    for number in (1, 2, 3):  # first bidders rotate too: robots may speak first
        table = play.online_board_start(event=event, user=ann, number=number)
        device = play.entrant_device(ann, event.slug, number)
        state = play.live_state_now(table=table, board=device.board)
        assert state.position.to_move == play.board_seat(event, number)
        assert EntryDraft.objects.filter(table=table).exists()
