"""Movements: who sits at which table, in which seat, in every round of a stage.

Pure: plain values in, plain values out, no Django.

Vocabulary (DESIGN.md): a *movement* is a list of rounds; a round is a list of tables; a table
is a tuple of players (numbered 1..N) in seat order (R-SEAT: S, E, W at three players; any
table size k from 2 to 5 works the same way, k = len(RuleSet.seats)). Every table of a round
plays the round's boards. Players who share a table *meet*; `repeat_pairs` counts every meeting
of a pair beyond its first, and `seat_imbalance` is the largest, over players, of (most − fewest
times in one of the k seats). When N is not a multiple of k, N mod k players *sit out* each
round, chosen in a fixed cyclic order so that any two players' sit-out counts differ by at most
one (how a sit-out scores is the event's scoring method's business, not this module's).

Designs: when a *resolvable design* exists for N players in tables of k, its parallel classes
are rounds in which every pair meets at most once over the whole schedule (repeat_pairs 0):

- the nine-player Kirkman triple system of the affine plane AG(2, 3) (`kirkman_nine`, 4 rounds),
  and the affine planes AG(2, k) for k = 2, 3, 4, 5 (N = k², k + 1 rounds);
- Kirkman triple systems for N = 3q, q odd (N ≡ 3 mod 6: 15 players 7 rounds, 21 players 10
  rounds, …), found by a search for a *base parallel class* on Z_q × {0, 1, 2} developed by
  Z_q, together with (q − 1)/2 classes fixed by Z_q (`kirkman`);
- at two seats, the round robin by the circle method (N even, N − 1 rounds).

Otherwise a greedy start is improved by two searches, each counted in *steps* and never in
seconds, so that the same seed gives the same movement on any machine (no clock is read): where
counting allows a movement in which nobody meets twice nor meets a club-mate, a depth-first
search for one (`_Apart`); then, if still needed, a local search (simulated annealing over
swaps of two players of one round) for as few repeats as it can, then as few club meetings
(a weight below a repeat's). The result carries the `lower_bound` proven by counting
(`lower_bound`), and `round_checks` lists each round's repeats and club clashes. Seats are
given last, by an edge colouring (`_balance`)
that makes every player hold each seat ⌊m/k⌋ or ⌈m/k⌉ times over his m rounds. Swiss rounds
(`swiss_round`) group players by current standing, avoiding repeats. Team rounds
(`team_round`, `team_match_round`) seat teams so that each team holds each hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal
from functools import lru_cache
from itertools import combinations, permutations

Table = tuple[int, ...]
Movement = list[list[Table]]

SEATS = ("S", "E", "W")

# The four directions of AG(2, 3), one per parallel class (round).
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, 2))


class SeatingError(ValueError):
    """A movement that cannot be made: too few players, a bad table size or team."""


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


def _club_floor(
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


# --- Search -------------------------------------------------------------------------------

REPEAT_WEIGHT = 1000  # a repeat costs more than any number of club meetings it could save

# The searches' budget and schedule are counted in steps (one proposed swap of the local
# search, one player tried at a table by _Apart), never in seconds: the same seed gives the
# same movement on any machine. Spent whole (18 players × 8 rounds, where neither search
# reaches its bound), SEARCH_STEPS takes about a second of one core of a 2020s machine; most
# fields need far fewer.
SEARCH_STEPS = 200_000
_EPOCH = 256  # steps between two listings of the conflicted players and two temperatures
# Decimal arithmetic in its own context: a caller's decimal.getcontext() changes nothing here.
_EXACT = Context(prec=28)


def _temperatures(high: int, low: str, levels: int) -> tuple[Decimal, ...]:
    """``levels`` temperatures (in cost units) falling geometrically from ``high`` to ``low``."""
    ratio = _EXACT.power(_EXACT.divide(Decimal(low), Decimal(high)), _EXACT.divide(1, levels - 1))
    out = [Decimal(high)]
    for _ in range(levels - 1):
        out.append(_EXACT.multiply(out[-1], ratio))
    return tuple(out)


# The annealing cools over its whole budget through these levels: from a repeat's weight (a
# repeat accepted uphill with probability 1/e) to where one more club meeting is accepted
# about once in twenty.
_TEMPERATURES = _temperatures(REPEAT_WEIGHT, "0.33", 256)


@lru_cache(maxsize=8192)
def _acceptance(delta: int, level: int) -> float:
    """exp(−delta / T) at temperature level ``level``: the probability of taking a move that
    raises the cost by ``delta`` > 0. Computed in decimal, whose exp is correctly rounded by
    Python's own code, not by the platform's libm behind math.exp (whose last bit may differ
    between machines): every machine accepts the same moves."""
    x = _EXACT.divide(Decimal(-delta), _TEMPERATURES[level])
    return float(_EXACT.exp(x))


@dataclass
class Schedule:
    """A movement with its measures (the JSON of ``manage.py ddz_seating``): ``rounds``
    (tables in seat order), ``sit_out`` (per round), ``repeat_pairs``, ``lower_bound``,
    ``seat_imbalance``, ``club_conflicts``, and ``method`` ("design" or "search")."""

    rounds: Movement
    sit_out: list[list[int]]
    repeat_pairs: int
    lower_bound: int
    seat_imbalance: int
    club_conflicts: int = 0
    method: str = "search"
    extra: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return {
            "rounds": [[list(t) for t in r] for r in self.rounds],
            "sit_out": self.sit_out,
            "repeat_pairs": self.repeat_pairs,
            "lower_bound": self.lower_bound,
            "seat_imbalance": self.seat_imbalance,
            "club_conflicts": self.club_conflicts,
            "method": self.method,
        }


class _Search:
    """Simulated annealing over a movement's tables (seat order ignored until the end).

    Cost = REPEAT_WEIGHT · repeat pairs + club meetings. A move swaps two players of two tables
    of one round; its cost change needs only the pair counts of the two tables.
    """

    def __init__(
        self,
        rounds: list[list[list[int]]],
        players: int,
        clubs: Mapping[int, str] | None,
        rng: random.Random,
    ) -> None:
        self.rounds = rounds
        self.rng = rng
        self.n = players + 1
        self.count = [[0] * self.n for _ in range(self.n)]
        self.club = [0] * self.n
        names: dict[str, int] = {}
        for p, c in (clubs or {}).items():
            if c and 0 < p < self.n:
                self.club[p] = names.setdefault(c, len(names) + 1)
        for r in rounds:
            for t in r:
                for a, b in combinations(t, 2):
                    self.count[a][b] += 1
                    self.count[b][a] += 1

    def cost(self) -> int:
        total = 0
        for a in range(1, self.n):
            row = self.count[a]
            for b in range(a + 1, self.n):
                c = row[b]
                if c > 1:
                    total += REPEAT_WEIGHT * (c - 1)
                if c and self.club[a] and self.club[a] == self.club[b]:
                    total += c
        return total

    def _leave(self, p: int, others: Sequence[int]) -> int:
        row, club, delta = self.count[p], self.club[p], 0
        for x in others:
            if row[x] > 1:
                delta -= REPEAT_WEIGHT
            if club and club == self.club[x]:
                delta -= 1
        return delta

    def _join(self, p: int, others: Sequence[int]) -> int:
        row, club, delta = self.count[p], self.club[p], 0
        for x in others:
            if row[x] > 0:
                delta += REPEAT_WEIGHT
            if club and club == self.club[x]:
                delta += 1
        return delta

    def delta(self, t1: list[int], i: int, t2: list[int], j: int) -> int:
        a, b = t1[i], t2[j]
        rest1 = [x for x in t1 if x != a]
        rest2 = [x for x in t2 if x != b]
        return (
            self._leave(a, rest1)
            + self._leave(b, rest2)
            + self._join(a, rest2)
            + self._join(b, rest1)
        )

    def swap(self, t1: list[int], i: int, t2: list[int], j: int) -> None:
        a, b = t1[i], t2[j]
        for x in t1:
            if x != a:
                self.count[a][x] -= 1
                self.count[x][a] -= 1
                self.count[b][x] += 1
                self.count[x][b] += 1
        for x in t2:
            if x != b:
                self.count[b][x] -= 1
                self.count[x][b] -= 1
                self.count[a][x] += 1
                self.count[x][a] += 1
        t1[i], t2[j] = b, a

    def conflicted(self) -> list[tuple[int, int, int]]:
        """(round, table, position) of every player with a repeat or club mate at his table."""
        out = []
        for r, tables in enumerate(self.rounds):
            for ti, t in enumerate(tables):
                for i, a in enumerate(t):
                    row, club = self.count[a], self.club[a]
                    if any(x != a and (row[x] > 1 or (club and club == self.club[x])) for x in t):
                        out.append((r, ti, i))
        return out

    def run(self, steps: int, floor: int) -> int:
        """Anneal for at most ``steps`` proposed swaps or until the cost is ``floor``; keep the
        best movement seen. Returns the steps taken.

        The schedule is counted in steps, never in seconds, so that a seed gives the same
        movement on any machine, however fast or loaded: every ``_EPOCH`` steps the conflicted
        players are listed again and the temperature follows ``_TEMPERATURES`` down, the last
        level at the last epoch of the budget.
        """
        current = self.cost()
        best, best_rounds = current, [[list(t) for t in r] for r in self.rounds]
        hot: list[tuple[int, int, int]] = []
        level = 0
        step = 0
        while step < steps and current > floor:
            if step % _EPOCH == 0:
                hot = self.conflicted()
                if not hot:
                    break
                level = step * len(_TEMPERATURES) // steps
            step += 1
            r, ti, i = hot[self.rng.randrange(len(hot))]
            tables = self.rounds[r]
            if len(tables) < 2:
                continue
            tj = self.rng.randrange(len(tables) - 1)
            tj += tj >= ti
            t1, t2 = tables[ti], tables[tj]
            j = self.rng.randrange(len(t2))
            d = self.delta(t1, i, t2, j)
            if d <= 0 or self.rng.random() < _acceptance(d, level):
                self.swap(t1, i, t2, j)
                current += d
                if current < best:
                    best = current
                    best_rounds = [[list(t) for t in rr] for rr in self.rounds]
        self.rounds[:] = best_rounds
        return step


def _cost(movement: Sequence[Sequence[Sequence[int]]], clubs: Mapping[int, str]) -> int:
    """The local search's cost: REPEAT_WEIGHT per repeat pair, 1 per club meeting."""
    return REPEAT_WEIGHT * repeat_pairs(movement) + club_conflicts(movement, clubs)


def _apart_possible(
    players: int, seats: int, sit_out: Sequence[Sequence[int]], clubs: Mapping[int, str]
) -> bool:
    """False when counting alone shows that some pair must meet twice or some club-mates
    must meet: more meetings than pairs of players from different clubs, or a player with
    more meetings than such opponents."""
    size = Counter(clubs.values())
    apart = players * (players - 1) // 2 - sum(m * (m - 1) // 2 for m in size.values())
    per_round = players // seats * seats * (seats - 1) // 2
    if per_round * len(sit_out) > apart:
        return False
    away = Counter(p for out in sit_out for p in out)
    for p in range(1, players + 1):
        opponents = players - 1 - (size[clubs[p]] - 1 if p in clubs else 0)
        if (seats - 1) * (len(sit_out) - away[p]) > opponents:
            return False
    return True


class _Apart:
    """Depth-first search for a movement in which no pair meets twice and no two players of
    one club meet (repeat_pairs 0, club_conflicts 0), a table at a time, round after round.

    The next table starts with the unseated player of the round who has the fewest possible
    partners left (the most constrained: some table must take him), and is tried with each set
    of k − 1 possible partners that may all meet; a table stays only if every unseated player
    of the round can still find k − 1 partners. Complete: a search that ends without a movement
    proves there is none. A step is one player tried at a table. Sets of players are bit masks
    (bit p for player p).
    """

    def __init__(
        self,
        playing: Sequence[Sequence[int]],
        players: int,
        seats: int,
        clubs: Mapping[int, str],
        rng: random.Random,
    ) -> None:
        self.playing = [sum(1 << p for p in r) for r in playing]
        self.per_round = len(playing[0]) // seats
        self.seats = seats
        self.rng = rng
        everyone = sum(1 << p for p in range(1, players + 1))
        club_of: dict[str, int] = {}
        for p, c in clubs.items():
            club_of[c] = club_of.get(c, 0) | 1 << p
        # apart[p]: the players who are not p and not of p's club.
        self.apart = [
            everyone & ~(1 << p) & ~club_of.get(clubs.get(p, ""), 0) for p in range(players + 1)
        ]
        self.may: list[int] = []  # during a search: apart, less those met already
        self.rank = list(range(players + 1))
        self.spent = 0

    def solve(self, steps: int) -> list[list[list[int]]] | None:
        """A movement, or None when there is none (then ``spent`` < ``steps``) or when the
        search took ``steps`` steps without finding one (restarted with twice the steps each
        time, in a new order: a search's early mistakes are the costly ones)."""
        cutoff = _APART_FIRST + 4 * sum(m.bit_count() for m in self.playing)
        while self.spent < steps:
            limit = min(self.spent + cutoff, steps)
            order = list(range(1, len(self.rank)))
            self.rng.shuffle(order)
            for i, p in enumerate(order):
                self.rank[p] = i
            found = self._search(limit)
            if found is not None or self.spent < limit:
                return found
            cutoff *= 2
        return None

    def _tables(self, free: int, limit: int) -> Iterator[tuple[int, ...]]:
        may, rank = self.may, self.rank
        unseated = _members(free)
        first = min(unseated, key=lambda p: ((may[p] & free).bit_count(), rank[p]))
        partners = sorted(
            _members(may[first] & free), key=lambda q: ((may[q] & free).bit_count(), rank[q])
        )

        def extend(table: list[int], mask: int, start: int) -> Iterator[tuple[int, ...]]:
            if len(table) == self.seats:
                yield tuple(table)
                return
            for i in range(start, len(partners)):
                if self.spent >= limit:
                    return
                q = partners[i]
                self.spent += 1
                if may[q] & mask == mask:
                    table.append(q)
                    yield from extend(table, mask | 1 << q, i + 1)
                    table.pop()

        yield from extend([first], 1 << first, 0)

    def _search(self, limit: int) -> list[list[list[int]]] | None:
        self.may = list(self.apart)
        need = self.seats - 1
        depth_all = self.per_round * len(self.playing)
        # At each depth: the unseated players of its round before its table, the table's
        # candidates, and the table placed (0: none yet).
        frees = [self.playing[0]]
        stack = [self._tables(self.playing[0], limit)]
        placed: list[tuple[int, ...]] = [()]
        while stack:
            d = len(stack) - 1
            if placed[d]:
                self._meet(placed[d], False)
                placed[d] = ()
            table = next(stack[d], None) if self.spent < limit else None
            if table is None:
                if self.spent >= limit:
                    return None
                stack.pop()
                placed.pop()
                frees.pop()
                continue
            self._meet(table, True)
            placed[d] = table
            free = frees[d] & ~sum(1 << p for p in table)
            if any((self.may[p] & free).bit_count() < need for p in _members(free)):
                continue
            if d + 1 == depth_all:
                tables = [list(t) for t in placed]
                n = self.per_round
                return [tables[i : i + n] for i in range(0, depth_all, n)]
            if not free:
                free = self.playing[(d + 1) // self.per_round]
            frees.append(free)
            stack.append(self._tables(free, limit))
            placed.append(())
        return None

    def _meet(self, table: Sequence[int], met: bool) -> None:
        """Mark the players of ``table`` as having met (or, ``met`` false, undo it)."""
        mask = sum(1 << p for p in table)
        for p in table:
            if met:
                self.may[p] &= ~mask
            else:
                self.may[p] |= mask & ~(1 << p)


def _members(mask: int) -> list[int]:
    """The players of a bit mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# The first search of _Apart gets this many steps and four per seat to fill (a search that
# backtracks little fills each seat in a few steps); each restart gets twice the one before.
_APART_FIRST = 2_000


def _greedy_round(
    players: list[int],
    seats: int,
    count: list[list[int]],
    club: Mapping[int, str],
    rng: random.Random,
) -> list[list[int]]:
    """Tables of one round, each filled with the players who add the least cost so far."""
    free = list(players)
    rng.shuffle(free)
    tables: list[list[int]] = []
    while free:
        table = [free.pop()]
        while len(table) < seats:
            best_i, best_cost = 0, None
            for idx in range(len(free) - 1, -1, -1):
                p = free[idx]
                row = count[p]
                c = sum(REPEAT_WEIGHT * row[x] for x in table)
                if club.get(p):
                    c += sum(1 for x in table if club.get(x) == club[p])
                if best_cost is None or c < best_cost:
                    best_i, best_cost = idx, c
                    if c == 0:
                        break
            table.append(free.pop(best_i))
        tables.append(table)
    for t in tables:
        for a, b in combinations(t, 2):
            count[a][b] += 1
            count[b][a] += 1
    return tables


def _relabel_for_clubs(
    rounds: list[list[list[int]]],
    players: int,
    clubs: Mapping[int, str],
    rng: random.Random,
    steps: int,
) -> int:
    """Rename players of a design (which keeps every pair's meetings) so that fewer players of
    one club meet: a hill climb over swaps of two names, at most ``steps`` swaps weighed.
    Returns the steps taken."""
    partners: dict[int, set[int]] = {p: set() for p in range(1, players + 1)}
    for r in rounds:
        for t in r:
            for a, b in combinations(t, 2):
                partners[a].add(b)
                partners[b].add(a)
    # name[point] = the player who takes that point of the design.
    name = list(range(players + 1))

    def meets(point: int, player: int, skip: int) -> int:
        c = clubs.get(player)
        if not c:
            return 0
        return sum(1 for q in partners[point] if q != skip and clubs.get(name[q]) == c)

    points = list(range(1, players + 1))
    improved = True
    step = 0
    while improved and step < steps:
        improved = False
        rng.shuffle(points)
        for u in points:
            if not clubs.get(name[u]) or meets(u, name[u], 0) == 0:
                continue
            for v in points:
                if v == u:
                    continue
                step += 1
                a, b = name[u], name[v]
                before = meets(u, a, v) + meets(v, b, u)
                after = meets(u, b, v) + meets(v, a, u)
                if after < before:
                    name[u], name[v] = b, a
                    improved = True
                    break
            if step >= steps:
                break
    for r in rounds:
        for t in r:
            t[:] = [name[p] for p in t]
    return step


def assign_seats(
    tables: Sequence[Sequence[int]], held: dict[int, list[int]], seats: int
) -> list[Table]:
    """Seat order for each table of one round, given each player's seat counts so far
    (``held[p][s]``, updated in place): the order that keeps the counts flattest (least sum
    of squares after the round; ties broken towards the order given)."""
    out: list[Table] = []
    for t in tables:
        best: tuple[int, ...] | None = None
        best_cost = 0
        for order in permutations(t):
            cost = 0
            for s, p in enumerate(order):
                c = held.setdefault(p, [0] * seats)[s]
                cost += 2 * c + 1
            if best is None or cost < best_cost:
                best, best_cost = order, cost
        assert best is not None
        for s, p in enumerate(best):
            held[p][s] += 1
        out.append(tuple(best))
    return out


def _balance(rounds: Sequence[Sequence[Sequence[int]]], seats: int) -> Movement:
    """Seat orders for every round such that each player holds each seat ⌊m/k⌋ or ⌈m/k⌉ times
    over the m rounds he plays (seat_imbalance ≤ 1, and 0 when k divides every m).

    A player's rounds are cut into chunks of k in round order; the bipartite multigraph of
    (player, chunk) nodes and (round, table) nodes, an edge per seat taken, has degree at most
    k, so by König's theorem its edges can be coloured with the k seats, the colours at every
    node distinct: each table gets one player per seat and each chunk holds distinct seats.
    The colouring is the classical one: give an edge a colour free at both ends, after
    swapping two colours along an alternating path when needed.
    """
    Node = tuple[int, int, int]
    colour_at: dict[Node, dict[int, int]] = {}
    ends: list[tuple[Node, Node]] = []
    colour: list[int] = []
    played: Counter[int] = Counter()

    def place(e: int, c: int) -> None:
        colour[e] = c
        for node in ends[e]:
            colour_at.setdefault(node, {})[c] = e

    def lift(e: int) -> None:
        for node in ends[e]:
            del colour_at[node][colour[e]]

    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            for p in table:
                left: Node = (0, p, played[p] // seats)
                played[p] += 1
                right: Node = (1, r, t)
                e = len(ends)
                ends.append((left, right))
                colour.append(-1)
                at_left = colour_at.setdefault(left, {})
                at_right = colour_at.setdefault(right, {})
                a = next(c for c in range(seats) if c not in at_left)
                if a in at_right:
                    b = next(c for c in range(seats) if c not in at_right)
                    # The a/b path from the right end never reaches the left end (bipartite).
                    path, node, want = [], right, a
                    while want in colour_at.get(node, {}):
                        f = colour_at[node][want]
                        path.append(f)
                        u, v = ends[f]
                        node = u if v == node else v
                        want = b if want == a else a
                    for f in path:
                        lift(f)
                    for f in path:
                        place(f, b if colour[f] == a else a)
                place(e, a)
    seated: Movement = []
    e = 0
    for tables in rounds:
        out: list[Table] = []
        for table in tables:
            order = [0] * len(table)
            for p in table:
                order[colour[e]] = p
                e += 1
            out.append(tuple(order))
        seated.append(out)
    return seated


def movement(
    players: int,
    rounds: int,
    *,
    seats: int = 3,
    seed: int | str = 0,
    clubs: Mapping[int, str] | None = None,
    steps: int = SEARCH_STEPS,
) -> Schedule:
    """A movement for players 1..N over R rounds at tables of k seats.

    A resolvable design when one is known with at least R rounds (repeat_pairs 0, players then
    renamed to keep clubs apart); else a greedy start. Where club-mates still meet or pairs
    meet twice, and counting allows a movement without either, a depth-first search for one
    (at most half the steps left); then the local search until it meets the lower bounds or
    the ``steps`` are spent (``Schedule.extra["steps"]``: the steps taken). The same
    arguments give the same movement on any machine: no clock is read, only steps counted.
    ``clubs`` maps a player to his club (empty: none).

    Raises:
        SeatingError: k outside 2..5, fewer players than seats, R < 1 or negative steps.
    """
    if not 2 <= seats <= 5:
        raise SeatingError("tables have 2 to 5 seats")
    if players < seats:
        raise SeatingError(f"a table of {seats} needs at least {seats} players")
    if rounds < 1:
        raise SeatingError("a movement has at least one round")
    if steps < 0:
        raise SeatingError("the search's steps are not negative")
    rng = random.Random(f"ddz-seating:{seed}:{players}:{rounds}:{seats}")
    clubs = {p: c for p, c in (clubs or {}).items() if c}
    sit_out = sit_out_schedule(players, rounds, seats)
    bound = lower_bound(players, rounds, seats)
    floor = REPEAT_WEIGHT * bound + _club_floor(clubs, sit_out, players, seats)
    design = resolvable_design(players, seats) if players % seats == 0 else None
    method = "search"
    used = 0
    tables: list[list[list[int]]]
    if design is not None and len(design) >= rounds:
        method = "design"
        tables = [[list(t) for t in r] for r in design[:rounds]]
        if clubs:
            used = _relabel_for_clubs(tables, players, clubs, rng, steps // 2)
    else:
        count = [[0] * (players + 1) for _ in range(players + 1)]
        tables = []
        for r in range(rounds):
            out = set(sit_out[r])
            tables.append(
                _greedy_round(
                    [p for p in range(1, players + 1) if p not in out], seats, count, clubs, rng
                )
            )
    if (
        _cost(tables, clubs) > floor
        and floor == 0
        and _apart_possible(players, seats, sit_out, clubs)
    ):
        # Nobody need meet twice nor meet a club-mate: an exhaustive search finds such a
        # movement where the local search, whose moves trade one for the other, seldom does.
        playing = [[p for p in range(1, players + 1) if p not in set(out)] for out in sit_out]
        apart = _Apart(playing, players, seats, clubs, rng)
        found = apart.solve((steps - used) // 2)
        used += apart.spent
        if found is not None:
            tables, method = found, "search"
    if _cost(tables, clubs) > floor and method == "search":
        search = _Search(tables, players, clubs, rng)
        used += search.run(steps - used, floor)
    seated = _balance(tables, seats)
    return Schedule(
        rounds=seated,
        sit_out=sit_out,
        repeat_pairs=repeat_pairs(seated),
        lower_bound=bound,
        seat_imbalance=seat_imbalance(seated, seats),
        club_conflicts=club_conflicts(seated, clubs),
        method=method,
        extra={"steps": used},
    )


# --- Swiss and team rounds ----------------------------------------------------------------


def swiss_round(
    ranking: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
    *,
    seats: int = 3,
    sat_out: Mapping[int, int] | None = None,
    clubs: Mapping[int, str] | None = None,
    window: int = 12,
) -> tuple[list[Table], list[int]]:
    """One Swiss round: tables of k by current standing, avoiding players who met before.

    ``ranking`` lists the players best first; ``history`` is the movement so far (for meetings
    and seats held); ``sat_out`` counts each player's sit-outs so far. The N mod k players who
    sat out least (the lowest ranked among equals) sit out. Each table starts with the best
    unseated player and takes, among the next ``window`` unseated players by rank, those who
    add the fewest repeat meetings (then club meetings), nearest in rank first.

    Returns (tables in seat order, players sitting out).

    Raises:
        SeatingError: fewer players than seats, a player twice.
    """
    if len(set(ranking)) != len(ranking):
        raise SeatingError("a player is listed twice in the ranking")
    if len(ranking) < seats:
        raise SeatingError(f"a table of {seats} needs at least {seats} players")
    counts = sat_out or {}
    extra = len(ranking) % seats
    place = {p: i for i, p in enumerate(ranking)}
    out = sorted(ranking, key=lambda p: (counts.get(p, 0), -place[p]))[:extra]
    free = [p for p in ranking if p not in set(out)]
    met: Counter[tuple[int, int]] = Counter()
    held: dict[int, list[int]] = {}
    for r in history:
        for t in r:
            for a, b in combinations(sorted(t), 2):
                met[(a, b)] += 1
            for s, p in enumerate(t):
                if s < seats:
                    held.setdefault(p, [0] * seats)[s] += 1
    club = {p: c for p, c in (clubs or {}).items() if c}

    def cost(p: int, table: Sequence[int]) -> tuple[int, int]:
        return (
            sum(met[(min(p, x), max(p, x))] for x in table),
            sum(1 for x in table if club.get(p) and club.get(x) == club.get(p)),
        )

    groups: list[list[int]] = []
    while free:
        table = [free.pop(0)]
        while len(table) < seats:
            candidates = free[:window]
            best = min(range(len(candidates)), key=lambda i: (cost(candidates[i], table), i))
            table.append(free.pop(best))
        groups.append(table)
    return assign_seats(groups, held, seats), sorted(out)


def team_round(teams: Sequence[Sequence[int]]) -> list[Table]:
    """Teams of k at k tables (k teams): team T's member t sits at table t in seat (T + t) mod
    k, so each team holds each seat, i.e. each hand of every board, exactly once.

    >>> team_round([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    [(1, 4, 7), (8, 2, 5), (6, 9, 3)]

    Raises:
        SeatingError: not k teams of k players each, or a player in two teams.
    """
    k = len(teams)
    if not 2 <= k <= 5 or any(len(t) != k for t in teams):
        raise SeatingError("a team round needs k teams of k players (k = seats per table)")
    if len({p for t in teams for p in t}) != k * k:
        raise SeatingError("a player is in two teams")
    tables: list[Table] = []
    for t in range(k):
        tables.append(tuple(teams[(s - t) % k][t] for s in range(k)))
    return tables


def team_match_round(x: Sequence[int], y: Sequence[int], round_index: int = 0) -> list[Table]:
    """A two-table match of two teams of k: at table 1 one player of X holds seat 1 and k − 1
    players of Y the other seats; at table 2 the reverse, so X holds every hand once per board
    (DESIGN.md: X's net = r(s, table 1) − r(s, table 2)). Who plays alone rotates with
    ``round_index``.

    >>> team_match_round((1, 2, 3), (4, 5, 6))
    [(1, 4, 5), (6, 2, 3)]

    Raises:
        SeatingError: teams of different sizes or of other than 2..5 players, or shared players.
    """
    k = len(x)
    if len(y) != k or not 2 <= k <= 5:
        raise SeatingError("a team match needs two teams of k players (k = seats per table)")
    if set(x) & set(y) or len(set(x)) != k or len(set(y)) != k:
        raise SeatingError("a player is in both teams or twice in one")
    s = round_index % k
    xs = list(x[s:]) + list(x[:s])
    ys = list(y[s:]) + list(y[:s])
    return [(xs[0], *ys[: k - 1]), (ys[k - 1], *xs[1:])]
