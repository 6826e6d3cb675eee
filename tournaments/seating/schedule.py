"""The vocabulary of seating and the checks of a movement: a Table is the players of one table
in seat order, a Movement is the tables of every round, a Schedule a movement with its
figures; repeat_pairs counts the meetings beyond the first, lower_bound the fewest possible,
seat_imbalance the spread of seats, club_conflicts the club members seated together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Table = tuple[int, ...]
Movement = list[list[Table]]

SEATS = ("S", "E", "W")

# The four directions of AG(2, 3), one per parallel class (round).
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, 2))


class SeatingError(ValueError):
    """A movement that cannot be made: too few players, a bad table size or team."""


def repeat_pairs(movement: Sequence[Sequence[Sequence[int]]]) -> int:
    """Meetings of a pair of players beyond its first, summed over pairs."""
    met: Counter[tuple[int, int]] = Counter()
    for round_ in movement:
        for table in round_:
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] += 1
    return sum(n - 1 for n in met.values() if n > 1)


def seat_imbalance(movement: Sequence[Sequence[Sequence[int]]], seats: int | None = None) -> int:
    """The largest, over players, of (most − fewest times in one of the ``seats`` seats).

    ``seats`` defaults to the largest table of the movement (3 for S, E, W).
    """
    held: dict[int, Counter[int]] = {}
    size = seats or 0
    for round_ in movement:
        for table in round_:
            size = max(size, len(table)) if seats is None else size
            for seat, player in enumerate(table):
                held.setdefault(player, Counter())[seat] += 1
    if not held:
        return 0
    return max(
        max(c[s] for s in range(size)) - min(c[s] for s in range(size)) for c in held.values()
    )


def club_conflicts(
    movement: Sequence[Sequence[Sequence[int]]], clubs: Mapping[int, str] | None
) -> int:
    """Pairs of players of one (non-empty) club at one table, summed over tables and rounds."""
    if not clubs:
        return 0
    return sum(
        1
        for round_ in movement
        for table in round_
        for a, b in combinations(table, 2)
        if clubs.get(a) and clubs.get(a) == clubs.get(b)
    )


@dataclass(frozen=True)
class RoundCheck:
    """What one round adds to a movement: ``repeats``, the pairs (a < b) at one of its tables
    who met at a table of an earlier round; ``clashes``, the pairs of one club at one of its
    tables. Both sorted."""

    repeats: list[tuple[int, int]]
    clashes: list[tuple[int, int]]


def round_checks(
    movement: Sequence[Sequence[Sequence[int]]], clubs: Mapping[int, str] | None = None
) -> list[RoundCheck]:
    """The repeats and club clashes of each round, in order (summed over the rounds, they are
    repeat_pairs and club_conflicts)."""
    met: set[tuple[int, int]] = set()
    clubs = clubs or {}
    checks = []
    for round_ in movement:
        pairs = sorted(
            (min(a, b), max(a, b)) for table in round_ for a, b in combinations(table, 2)
        )
        checks.append(
            RoundCheck(
                repeats=[pair for pair in pairs if pair in met],
                clashes=[(a, b) for a, b in pairs if clubs.get(a) and clubs.get(a) == clubs.get(b)],
            )
        )
        met.update(pairs)
    return checks


def sit_out_schedule(players: int, rounds: int, seats: int) -> list[list[int]]:
    """Who sits out in each round: N mod k players per round, taken in turn from the players
    in descending order (N, N−1, …), so that sit-out counts differ by at most one.

    >>> sit_out_schedule(10, 4, 3)
    [[10], [9], [8], [7]]
    """
    per_round = players % seats
    order = list(range(players, 0, -1))
    return [
        sorted(order[(r * per_round + i) % players] for i in range(per_round))
        for r in range(rounds)
    ]


def lower_bound(players: int, rounds: int, seats: int = 3) -> int:
    """The fewest repeat pairs any movement of N players, R rounds, tables of k can have.

    Two counting bounds, the larger wins: the meetings of the schedule beyond the C(N, 2)
    distinct pairs; and, player by player, the meetings beyond his N − 1 possible opponents
    (each repeat is seen by two players). Sit-outs are the fair ones of sit_out_schedule.

    >>> lower_bound(9, 4), lower_bound(9, 5), lower_bound(4, 3, 2)
    (0, 9, 0)
    """
    tables = players // seats
    meetings = rounds * tables * seats * (seats - 1) // 2
    total = meetings - players * (players - 1) // 2
    played = Counter[int]()
    sat = Counter(p for r in sit_out_schedule(players, rounds, seats) for p in r)
    for p in range(1, players + 1):
        played[p] = rounds - sat[p]
    per_player = sum(max(0, (seats - 1) * played[p] - (players - 1)) for p in played)
    return max(0, total, (per_player + 1) // 2)


def club_floor(
    clubs: Mapping[int, str], sit_out: Sequence[Sequence[int]], players: int, seats: int
) -> int:
    """The fewest club meetings (club_conflicts) any movement with these sit-outs can have:
    in each round, each club's playing members spread as evenly as the tables allow."""
    tables = players // seats
    total = 0
    for out in sit_out:
        away = set(out)
        for m in Counter(c for p, c in clubs.items() if c and p not in away).values():
            q, rem = divmod(m, tables)
            total += rem * (q + 1) * q // 2 + (tables - rem) * q * (q - 1) // 2
    return total


@dataclass
class Schedule:
    """A movement with its measures (the JSON of ``manage.py ddz_seating``): ``rounds``
    (tables in seat order), ``sit_out`` (per round), ``repeat_pairs``, ``lower_bound`` (no
    movement of the field has fewer repeat pairs: counting, raised by the exact search of a
    small field), ``seat_imbalance``, ``club_conflicts``, ``club_lower_bound`` (no movement with
    at most ``repeat_pairs`` repeats has fewer club meetings), ``optimal`` (both measures at
    their bounds: no movement is better), and ``method`` ("design", "search" or "exact")."""

    rounds: Movement
    sit_out: list[list[int]]
    repeat_pairs: int
    lower_bound: int
    seat_imbalance: int
    club_conflicts: int = 0
    method: str = "search"
    extra: dict[str, int] = field(default_factory=dict)
    club_lower_bound: int = 0

    @property
    def optimal(self) -> bool:
        return (
            self.repeat_pairs == self.lower_bound and self.club_conflicts == self.club_lower_bound
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": [[list(t) for t in r] for r in self.rounds],
            "sit_out": self.sit_out,
            "repeat_pairs": self.repeat_pairs,
            "lower_bound": self.lower_bound,
            "seat_imbalance": self.seat_imbalance,
            "club_conflicts": self.club_conflicts,
            "club_lower_bound": self.club_lower_bound,
            "optimal": self.optimal,
            "method": self.method,
        }
