"""A move not made within the event's seconds per move is played by the robot of the entrant's
seat (the sweep, or his device reading the board), the robots answer, and his result is marked
with the moves the robot played for him."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import EntryDraft
from tests.factories import online_event
from tournaments.online import play
from tournaments.online.close import online_sweep, online_timeouts_sweep
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _overdue(table: object, seconds: int) -> None:
    # update() leaves auto_now alone: the turn began `seconds` ago.
    EntryDraft.objects.filter(table=table).update(
        updated_at=timezone.now() - timedelta(seconds=seconds)
    )


def test_the_sweep_plays_an_overdue_move_and_marks_it() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, move_seconds=30)
    table = play.online_board_start(event=event, user=ann, number=1)
    device = play.entrant_device(ann, event.slug, 1)
    before = live.live_state(table=table, board=device.board).position
    assert online_timeouts_sweep() == 0  # in time
    _overdue(table, 31)
    assert online_sweep()["timeouts"] == 1
    after = live.live_state(table=table, board=device.board)
    assert len(after.position.steps) > len(before.steps)
    assert after.position.steps[len(before.steps)]  # his move, by the robot
    assert after.game is not None or after.position.to_move == "S"  # the robots answered
    table.refresh_from_db()
    assert table.robot_moves == 1
    # His step on the position he saw is refused now: the table moved on.
    with pytest.raises(live.LiveConflict):
        live.live_step(
            table=table,
            board=device.board,
            seat="S",
            step="pass",
            at=len(before.steps),
            actor=device.bearer,
        )


def test_his_device_reading_the_board_plays_the_overdue_move_too() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, move_seconds=30)
    table = play.online_board_start(event=event, user=ann, number=1)
    board = play.entrant_device(ann, event.slug, 1).board
    steps = len(live.live_state(table=table, board=board).position.steps)
    _overdue(table, 31)
    state = play.live_state_now(table=table, board=board)
    assert len(state.position.steps) > steps
    table.refresh_from_db()
    assert table.robot_moves == 1


def test_a_board_left_alone_is_played_to_its_end_by_timeouts_and_marked() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, move_seconds=30)
    table = play.online_board_start(event=event, user=ann, number=1)
    board = play.entrant_device(ann, event.slug, 1).board
    for _turn in range(60):
        if live.live_state(table=table, board=board).game is not None:
            break
        _overdue(table, 31)
        online_timeouts_sweep()
    game = live.live_state(table=table, board=board).game
    assert game is not None and game.source == "seat"
    table.refresh_from_db()
    assert table.robot_moves >= 1
    assert play.entrant_boards(event, game.table.seats.get(seat="S").player)[0].robot_moves == (
        table.robot_moves
    )
