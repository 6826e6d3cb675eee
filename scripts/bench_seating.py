"""`make bench` (seating part): movements for large fields, timed, with their measures.

Prints one line per case: players × rounds at tables of k, seconds, repeat pairs beside the
lower bound, seat imbalance, club conflicts. The first case is the target of the issue: 300
players × 10 rounds seated within 10 s. Exit 1 when a case misses its time.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tournaments.seating import movement  # noqa: E402

CASES = [
    # players, rounds, seats, players per club (0: no clubs), search time limit, budget (s)
    (300, 10, 3, 0, 8.0, 10.0),
    (300, 10, 3, 10, 8.0, 10.0),
    (301, 10, 3, 0, 8.0, 10.0),
    (200, 10, 4, 0, 8.0, 10.0),
    (21, 10, 3, 0, 5.0, 10.0),
    (18, 8, 3, 0, 5.0, 10.0),
]


def main() -> int:
    late = 0
    print(f"{'case':<24}{'seconds':>8}{'repeats':>9}{'bound':>7}{'seats':>7}{'clubs':>7}  method")
    for players, rounds, seats, per_club, limit, budget in CASES:
        clubs = (
            {p: f"club{(p - 1) // per_club}" for p in range(1, players + 1)} if per_club else None
        )
        started = time.perf_counter()
        schedule = movement(players, rounds, seats=seats, seed=1, clubs=clubs, time_limit=limit)
        seconds = time.perf_counter() - started
        late += seconds > budget
        name = f"{players}x{rounds} k={seats}" + (f" clubs/{per_club}" if per_club else "")
        print(
            f"{name:<24}{seconds:>8.2f}{schedule.repeat_pairs:>9}{schedule.lower_bound:>7}"
            f"{schedule.seat_imbalance:>7}{schedule.club_conflicts:>7}  {schedule.method}"
        )
    return 1 if late else 0


if __name__ == "__main__":
    sys.exit(main())
