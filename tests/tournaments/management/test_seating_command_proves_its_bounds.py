"""`manage.py ddz_seating` prints the bounds proved beside the movement. Seven players in tables
of three over three rounds (one sits out each round) meet 18 times among 21 pairs, each at
most 6 times among his 6 others: counting allows no repeat. Trying every movement of them
(tests/tournaments/seating/test_seating_exact_search.py, case 7-3-3) finds none with fewer
than 3, so the command's movement has 3 and says it is optimal."""

from __future__ import annotations

import io
import json

from django.core.management import call_command


def test_the_command_prints_the_proved_bounds_and_whether_the_movement_is_optimal() -> None:
    out = io.StringIO()
    call_command("ddz_seating", "--players", "7", "--rounds", "3", stdout=out)
    data = json.loads(out.getvalue())
    assert data["repeat_pairs"] == data["lower_bound"] == 3
    assert data["club_conflicts"] == data["club_lower_bound"] == 0
    assert data["optimal"] is True
