"""`make bench` (seating part): movements for large fields, timed, with their measures.

Prints one line per case: players × rounds at tables of k, seconds, the search's steps taken,
repeat pairs beside the lower bound, seat imbalance, club conflicts. The search is bounded by
steps, not time (the same seed gives the same movement on any machine); each case has a time
budget all the same: the first is the target of the issue, 300 players × 10 rounds seated
within 10 s. Exit 1 when a case misses its time.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.seating.movements import movement
from tournaments.seating.search import SEARCH_STEPS

CASES = [
    # players, rounds, seats, clubs (0: none; n > 0: n players a club, in a row; n < 0: -n
    # clubs given in turn), search steps, time budget (s)
    (300, 10, 3, 0, SEARCH_STEPS, 10.0),
    (300, 10, 3, 10, SEARCH_STEPS, 10.0),
    (301, 10, 3, 0, SEARCH_STEPS, 10.0),
    (200, 10, 4, 0, SEARCH_STEPS, 10.0),
    (21, 10, 3, 0, SEARCH_STEPS, 10.0),
    (18, 8, 3, 0, SEARCH_STEPS, 10.0),
    (12, 4, 3, -5, SEARCH_STEPS, 1.0),
]


def _clubs(players: int, clubs: int) -> dict[int, str] | None:
    if clubs > 0:
        return {p: f"club{(p - 1) // clubs}" for p in range(1, players + 1)}
    if clubs < 0:
        return {p: f"club{(p - 1) % -clubs}" for p in range(1, players + 1)}
    return None


def main() -> int:
    late = 0
    print(
        f"{'case':<24}{'seconds':>8}{'steps':>8}{'repeats':>9}{'bound':>7}{'seats':>7}"
        f"{'clubs':>7}  method"
    )
    for players, rounds, seats, clubs, steps, budget in CASES:
        started = time.perf_counter()
        schedule = movement(
            players, rounds, seats=seats, seed=1, clubs=_clubs(players, clubs), steps=steps
        )
        seconds = time.perf_counter() - started
        late += seconds > budget
        kind = f" clubs/{clubs}" if clubs > 0 else f" {-clubs} clubs" if clubs < 0 else ""
        name = f"{players}x{rounds} k={seats}{kind}"
        print(
            f"{name:<24}{seconds:>8.2f}{schedule.extra.get('steps', 0):>8}"
            f"{schedule.repeat_pairs:>9}{schedule.lower_bound:>7}"
            f"{schedule.seat_imbalance:>7}{schedule.club_conflicts:>7}  {schedule.method}"
        )
    return 1 if late else 0


if __name__ == "__main__":
    sys.exit(main())
