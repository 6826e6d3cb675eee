"""The bounded search of a movement where no exact design exists: simulated annealing over
swaps of players between tables (Search), a greedy first round, and the search that keeps the
members of a club apart (ApartSearch). Bounded by steps, not by time, so the same seed gives
the same movement on any machine.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from decimal import Context, Decimal
from functools import lru_cache
from itertools import combinations

from tournaments.seating.schedule import club_conflicts, repeat_pairs

# --- Search -------------------------------------------------------------------------------

REPEAT_WEIGHT = 1000  # a repeat costs more than any number of club meetings it could save

# The searches' budget and schedule are counted in steps (one proposed swap of the local
# search, one player tried at a table by ApartSearch), never in seconds: the same seed gives the
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


class Search:
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


def movement_cost(movement: Sequence[Sequence[Sequence[int]]], clubs: Mapping[int, str]) -> int:
    """The local search's cost: REPEAT_WEIGHT per repeat pair, 1 per club meeting."""
    return REPEAT_WEIGHT * repeat_pairs(movement) + club_conflicts(movement, clubs)


def apart_possible(
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


class ApartSearch:
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


# The first search of ApartSearch gets this many steps and four per seat to fill (a search that
# backtracks little fills each seat in a few steps); each restart gets twice the one before.
_APART_FIRST = 2_000


def greedy_round(
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


def relabel_for_clubs(
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
