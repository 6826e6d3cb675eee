"""Exact designs, pure: movements where every pair of players meets at most once — the
nine-player Kirkman movement, affine planes over finite fields, round robins, Kirkman triple
systems and the resolvable designs built from them (resolvable_design).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

from tournaments.seating.schedule import DIRECTIONS, Movement, SeatingError, Table


def kirkman_nine() -> Movement:
    """The 9-player, 4-round, 3-table movement in which every pair meets exactly once.

    Player 3x + y + 1 is the point (x, y) of AG(2, 3); round k holds the three lines of
    direction DIRECTIONS[k]. Seats are rotated per round so that no player holds one seat
    more than twice (seat_imbalance 1, the least possible with 4 rounds and 3 seats).

    >>> from tournaments.seating.schedule import repeat_pairs, seat_imbalance
    >>> m = kirkman_nine()
    >>> len(m), [len(r) for r in m], repeat_pairs(m), seat_imbalance(m)
    (4, [3, 3, 3, 3], 0, 1)
    """
    rounds: Movement = []
    for k, (dx, dy) in enumerate(DIRECTIONS):
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


# --- Designs ------------------------------------------------------------------------------


def _gf(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q) for q in 2, 3, 4, 5 (GF(4) = F2[x]/(x²+x+1),
    elements as 2-bit integers)."""
    if q == 4:
        add = [[a ^ b for b in range(4)] for a in range(4)]

        def mul(a: int, b: int) -> int:
            r = 0
            for i in range(2):
                if b >> i & 1:
                    r ^= a << i
            if r & 4:
                r ^= 0b111
            return r

        return add, [[mul(a, b) for b in range(4)] for a in range(4)]
    return (
        [[(a + b) % q for b in range(q)] for a in range(q)],
        [[a * b % q for b in range(q)] for a in range(q)],
    )


def affine_plane(k: int) -> Movement:
    """AG(2, k) for k = 2, 3, 4, 5: k² players, k + 1 rounds of k tables of k, every pair
    meeting exactly once. Player k·x + y + 1 is the point (x, y).

    >>> from tournaments.seating.schedule import repeat_pairs
    >>> m = affine_plane(4)
    >>> len(m), len(m[0]), repeat_pairs(m)
    (5, 4, 0)

    Raises:
        SeatingError: another k.
    """
    if k not in (2, 3, 4, 5):
        raise SeatingError(f"no affine plane of order {k} here")
    add, mul = _gf(k)
    rounds: Movement = [[tuple(k * x + y + 1 for y in range(k)) for x in range(k)]]
    for slope in range(k):
        lines: list[Table] = []
        for c in range(k):
            # The line y = slope·x + c.
            lines.append(tuple(k * x + add[mul[slope][x]][c] + 1 for x in range(k)))
        rounds.append(lines)
    return rounds


def round_robin(players: int) -> Movement:
    """Tables of two, N even: the circle method, N − 1 rounds, every pair once.

    >>> round_robin(4)
    [[(1, 4), (2, 3)], [(2, 4), (3, 1)], [(3, 4), (1, 2)]]
    """
    if players % 2 or players < 2:
        raise SeatingError("a round robin of tables of two needs an even number of players")
    n = players - 1
    rounds: Movement = []
    for r in range(n):
        tables: list[Table] = [(r + 1, players)]
        for i in range(1, players // 2):
            tables.append(((r + i) % n + 1, (r - i) % n + 1))
        rounds.append(tables)
    return rounds


Point = tuple[int, int]


def _base_class(
    points: Sequence[Point],
    need: set[tuple[int, int, int]],
    pair_class: Callable[[Point, Point], tuple[int, int, int]],
    rng: random.Random,
    budget: list[int],
) -> list[tuple[Point, Point, Point]] | None:
    """A partition of ``points`` into triples whose pair orbits are exactly ``need``, each once
    (backtracking on the first free point; ``budget[0]`` steps at most, decremented)."""
    base: list[tuple[Point, Point, Point]] = []
    free = set(points)
    order = {p: i for i, p in enumerate(points)}

    def search() -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if not free:
            return not need
        first = min(free, key=order.__getitem__)
        rest = sorted(free - {first}, key=order.__getitem__)
        rng.shuffle(rest)
        for i, second in enumerate(rest):
            c1 = pair_class(first, second)
            if c1 not in need:
                continue
            for third in rest[i + 1 :]:
                cover = {c1, pair_class(first, third), pair_class(second, third)}
                if len(cover) < 3 or not cover <= need:
                    continue
                need.difference_update(cover)
                free.difference_update((first, second, third))
                base.append((first, second, third))
                if search():
                    return True
                base.pop()
                free.update((first, second, third))
                need.update(cover)
        return False

    return base if search() else None


def _three_levels(q: int, rng: random.Random, budget: list[int]) -> list[list[Table]] | None:
    """N = 3q, q odd: points (x, level) of Z_q × {0, 1, 2}, player level·q + x + 1; (q − 1)/2
    classes {(i, 0), (i + a, 1), (i + b, 2)} fixed by Z_q, then q translates of a base class."""

    def pair_class(a: Point, b: Point) -> tuple[int, int, int]:
        (x, i), (y, j) = sorted((a, b), key=lambda p: p[1])
        if i == j:
            d = (y - x) % q
            return (i, i, min(d, q - d))
        return (i, j, (y - x) % q)

    def label(points: Sequence[Point]) -> Table:
        return tuple(sorted(lv * q + x % q + 1 for x, lv in points))

    pure = {(lv, lv, d) for lv in range(3) for d in range(1, q // 2 + 1)}
    mixed = {(i, j, d) for i, j in ((0, 1), (0, 2), (1, 2)) for d in range(q)}
    points = [(x, lv) for lv in range(3) for x in range(q)]
    while budget[0] > 0:
        used: set[tuple[int, int, int]] = set()
        fixed: list[tuple[int, int]] = []
        options = [(a, b) for a in range(q) for b in range(q)]
        rng.shuffle(options)
        for a, b in options:
            cover = {(0, 1, a), (0, 2, b), (1, 2, (b - a) % q)}
            if len(fixed) < (q - 1) // 2 and len(cover) == 3 and not cover & used:
                fixed.append((a, b))
                used |= cover
        if len(fixed) < (q - 1) // 2:
            continue
        local = [min(budget[0], 20_000)]
        spent = local[0]
        base = _base_class(points, (pure | mixed) - used, pair_class, rng, local)
        budget[0] -= spent - max(local[0], 0)
        if base is not None:
            rounds = [[label([(i, 0), (i + a, 1), (i + b, 2)]) for i in range(q)] for a, b in fixed]
            for shift in range(q):
                rounds.append([label([(x + shift, lv) for x, lv in t]) for t in base])
            return rounds
    return None


def _one_rotational(m: int, rng: random.Random, budget: list[int]) -> list[list[Table]] | None:
    """N = 2m + 1, m odd: points (x, level) of Z_m × {0, 1} and ∞ = (0, 2); player level·m +
    x + 1 (∞ is N); the m translates of one base class, ∞ fixed."""

    def pair_class(a: Point, b: Point) -> tuple[int, int, int]:
        (x, i), (y, j) = sorted((a, b), key=lambda p: p[1])
        if j == 2:
            return (i, 2, 0)
        if i == j:
            d = (y - x) % m
            return (i, i, min(d, m - d))
        return (i, j, (y - x) % m)

    def label(points: Sequence[Point]) -> Table:
        return tuple(sorted(2 * m + 1 if lv == 2 else lv * m + x % m + 1 for x, lv in points))

    need = {(lv, lv, d) for lv in range(2) for d in range(1, m // 2 + 1)}
    need |= {(0, 1, d) for d in range(m)} | {(0, 2, 0), (1, 2, 0)}
    points = [(0, 2)] + [(x, lv) for lv in range(2) for x in range(m)]
    base = _base_class(points, need, pair_class, rng, budget)
    if base is None:
        return None
    return [
        [label([(x if lv == 2 else x + shift, lv) for x, lv in t]) for t in base]
        for shift in range(m)
    ]


@lru_cache(maxsize=16)
def kirkman(players: int, budget: int = 400_000) -> tuple[tuple[Table, ...], ...] | None:
    """A Kirkman triple system of N ≡ 3 (mod 6) players: (N − 1)/2 rounds in which every pair
    meets exactly once; None when the search (at most ``budget`` steps) finds none.

    Two structures are searched, each a set of base triples whose pair orbits under a cyclic
    group cover every orbit once: N = 2m + 1 with m odd (Z_m × {0, 1} and a fixed point, the m
    translates of one base class), then N = 3q (Z_q × {0, 1, 2}: (q − 1)/2 classes fixed by
    Z_q and the q translates of a base class).

    >>> from tournaments.seating.schedule import repeat_pairs
    >>> [(n, len(kirkman(n)), repeat_pairs(kirkman(n))) for n in (15, 21)]
    [(15, 7, 0), (21, 10, 0)]
    """
    if players % 6 != 3 or players < 9:
        return None
    rng = random.Random(players)
    steps = [budget]
    found: list[list[Table]] | None = None
    m = (players - 1) // 2
    if m % 2 == 1:
        found = _one_rotational(m, rng, [budget // 2])
    if found is None:
        found = _three_levels(players // 3, rng, steps)
    return None if found is None else tuple(tuple(r) for r in found)


# Beyond this many players the design search can take seconds; the local search reaches zero
# repeats on its own whenever the rounds are few next to the players.
KIRKMAN_SEARCH_LIMIT = 45


def resolvable_design(players: int, seats: int) -> Movement | None:
    """The rounds of a resolvable design for N players in tables of k (every pair meets at
    most once), or None when this module knows none (see the module docstring)."""
    if seats == 3 and players == 9:
        return kirkman_nine()
    if seats == 2 and players % 2 == 0 and players >= 2:
        return round_robin(players)
    if players == seats * seats and seats in (2, 3, 4, 5):
        return affine_plane(seats)
    if seats == 3 and players <= KIRKMAN_SEARCH_LIMIT:
        found = kirkman(players)
        if found is not None:
            return [list(r) for r in found]
    return None
