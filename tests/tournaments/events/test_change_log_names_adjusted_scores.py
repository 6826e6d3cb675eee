"""The change log names what an adjusted score was given on or taken back from: its board,
round, table and seat (a weighted score: the whole table), as a game's line does, never the
bare word "adjustment" (the trial's finding)."""

from __future__ import annotations

import pytest

from tests.factories import duplicate_round
from tournaments.events.audit_lines import change_log, change_log_lines
from tournaments.models import Adjustment
from tournaments.standings.rulings import (
    adjusted_scores_set,
    adjustment_remove,
    weighted_score_set,
)

pytestmark = pytest.mark.django_db


def _whats(event) -> list[str]:
    return [what for _entry, _who, what in change_log_lines(change_log(event=event), event=event)]


def test_an_adjusted_score_given_and_taken_back_names_its_board_table_and_seat() -> None:
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="log-adjust")
    adjusted_scores_set(table=tables[1], board=boards[0], scores={"E": "avg+"}, actor=None)
    adjustment_remove(adjustment_id=Adjustment.objects.get().pk, actor=None)
    removed, given = _whats(event)[:2]  # newest first
    assert given.endswith("Board 1 at round 1, table 2, seat E"), given
    assert removed.endswith("Board 1 at round 1, table 2, seat E"), removed
    assert "adjustment" not in given.split(" · ")[-1]


def test_a_weighted_score_names_its_table() -> None:
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="log-weighted")
    weighted_score_set(
        table=tables[0],
        board=boards[0],
        results=[("1/2", {"S": 6, "E": -3, "W": -3}), ("1/2", {"S": -6, "E": 3, "W": 3})],
        reason="a revoke",
        actor=None,
    )
    assert _whats(event)[0].endswith("Board 1 at round 1, table 1")
