"""Movements: who sits at which table, in which seat, in every round of a stage.

Pure: plain values in, plain values out, no Django.

Vocabulary (DESIGN.md): a *movement* is a list of rounds; a round is a list of tables; a table
is a tuple of players (numbered 1..N) in seat order S, E, W (R-SEAT). Players who share a table
are *met*; `repeat_pairs` counts every meeting of a pair beyond its first, and `seat_imbalance`
is the largest, over players, of (most − fewest times in one of the seats S, E, W).

The nine-player movement is a Kirkman triple system: the points of the affine plane AG(2, 3)
are the players, its 12 lines are the tables and its 4 parallel classes are the rounds, so
every pair of players meets at exactly one table (repeat_pairs 0).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

Table = tuple[int, int, int]
Movement = list[list[Table]]

SEATS = ("S", "E", "W")

# The four directions of AG(2, 3), one per parallel class (round).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, 2))


def kirkman_nine() -> Movement:
    """The 9-player, 4-round, 3-table movement in which every pair meets exactly once.

    Player 3x + y + 1 is the point (x, y) of AG(2, 3); round k holds the three lines of
    direction _DIRECTIONS[k]. Seats are rotated per round so that no player holds one seat
    more than twice (seat_imbalance 1, the least possible with 4 rounds and 3 seats).

    >>> m = kirkman_nine()
    >>> len(m), [len(r) for r in m], repeat_pairs(m), seat_imbalance(m)
    (4, [3, 3, 3, 3], 0, 1)
    """
    rounds: Movement = []
    for k, (dx, dy) in enumerate(_DIRECTIONS):
        lines: list[Table] = []
        seen: set[int] = set()
        for x in range(3):
            for y in range(3):
                start = 3 * x + y + 1
                if start in seen:
                    continue
                points = [(x + t * dx) % 3 * 3 + (y + t * dy) % 3 + 1 for t in range(3)]
                seen.update(points)
                points.sort()
                shift = k % 3
                rotated = points[shift:] + points[:shift]
                lines.append((rotated[0], rotated[1], rotated[2]))
        rounds.append(lines)
    return rounds


def repeat_pairs(movement: Sequence[Sequence[Sequence[int]]]) -> int:
    """Meetings of a pair of players beyond its first, summed over pairs."""
    met: Counter[tuple[int, int]] = Counter()
    for round_ in movement:
        for table in round_:
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] += 1
    return sum(n - 1 for n in met.values() if n > 1)


def seat_imbalance(movement: Sequence[Sequence[Sequence[int]]]) -> int:
    """The largest, over players, of (most − fewest times in one seat of SEATS)."""
    held: dict[int, Counter[int]] = {}
    for round_ in movement:
        for table in round_:
            for seat, player in enumerate(table):
                held.setdefault(player, Counter())[seat] += 1
    if not held:
        return 0
    return max(
        max(c[s] for s in range(len(SEATS))) - min(c[s] for s in range(len(SEATS)))
        for c in held.values()
    )
