"""When a table is late (tournaments.events.room): the boards its time calls for at an even pace
over the round's minutes and its own extra minutes, or, before the clock starts, the boards the
middle table of the room finished. Worked examples, no database."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tournaments.events.room import boards_due, room_pace

MIN = timedelta(minutes=1)


@pytest.mark.parametrize(
    ("boards", "elapsed", "length", "due"),
    [
        (3, 20 * MIN, 30 * MIN, 2),  # a board every 10 minutes, 20 gone
        (3, 20 * MIN, 60 * MIN, 1),  # the same table with 30 extra minutes
        (3, 0 * MIN, 30 * MIN, 0),  # the clock just started
        (12, 30 * MIN - timedelta(seconds=1), 60 * MIN, 5),  # 5.99…: board 6 is not due yet
        (12, 30 * MIN, 60 * MIN, 6),
        (3, 45 * MIN, 30 * MIN, 3),  # over time: every board is due, never more
        (4, 10 * MIN, 0 * MIN, 4),  # a round of no minutes is over at once
    ],
)
def test_the_boards_due_at_an_even_pace(boards, elapsed, length, due) -> None:
    assert boards_due(boards=boards, elapsed=elapsed, length=length) == due


@pytest.mark.parametrize(
    ("finished", "pace"),
    [
        ([3, 1, 0], 1),
        ([2, 3, 3, 3], 3),
        ([1, 1, 2, 2], 1),  # two and two: no table is behind the middle
        ([0, 1], 0),
        ([5], 5),
        ([], 0),
    ],
)
def test_the_room_pace_is_the_middle_tables(finished, pace) -> None:
    assert room_pace(finished) == pace
