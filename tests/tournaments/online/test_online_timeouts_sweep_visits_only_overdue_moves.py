"""The timeouts' sweep reads only the moves that are overdue by their own event's seconds per
move: a board whose entrant is still within his time is not visited at all, so the sweep's
cost follows the moves that ran out, not every board in play (10,000 entrants at once leave
10,000 drafts older than a few seconds, each read again and passed over: the trial's scale
finding). The move that did run out is still played by the robot."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import EntryDraft
from tests.factories import online_event
from tournaments.online import play
from tournaments.online.close import online_timeouts_sweep

pytestmark = pytest.mark.django_db


def test_moves_within_their_time_are_not_visited() -> None:
    event, _td, users = online_event(entrants=12, boards=1, move_seconds=60)
    for user in users:
        play.online_board_start(event=event, user=user, number=1)
    # Every entrant's turn began 30 s ago: older than the smallest time a move may have (5 s),
    # within this event's 60.
    EntryDraft.objects.filter(board__event=event).update(
        updated_at=timezone.now() - timedelta(seconds=30)
    )
    with CaptureQueriesContext(connection) as queries:
        assert online_timeouts_sweep() == 0
    assert len(queries) <= 3, [q["sql"][:120] for q in queries]


def test_the_one_overdue_move_among_them_is_played() -> None:
    event, _td, users = online_event(entrants=4, boards=1, move_seconds=60)
    tables = [play.online_board_start(event=event, user=u, number=1) for u in users]
    EntryDraft.objects.filter(board__event=event).update(
        updated_at=timezone.now() - timedelta(seconds=30)
    )
    EntryDraft.objects.filter(table=tables[2]).update(
        updated_at=timezone.now() - timedelta(seconds=61)
    )
    assert online_timeouts_sweep() == 1
    tables[2].refresh_from_db()
    assert tables[2].robot_moves == 1
