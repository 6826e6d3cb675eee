"""The exact search of a movement for small fields: how good a movement is, proved.

Counting (schedule.lower_bound, schedule.club_floor) often allows fewer repeats or club
meetings than any movement has: 12 players in tables of three over 5 rounds may meet 60 times
among 66 pairs, yet no movement has fewer than 3 repeats. `prove` settles such a field by
search: for a target t from the counting bound up, it searches every movement for one with at
most t; a search that ends without one proves t + 1, and one that finds it proves t optimal
(and hands the movement over when it beats the one given).

Vocabulary: a *seating* of a round is one split of its playing players into tables (tables
unordered, seat order ignored: seats are given later); a *relabelling* is a permutation of the
players that keeps what a movement's cost depends on (the rounds each player sits out, and the
club partition when club meetings count), so it maps every movement to one of the same cost.
The search is a branch and bound over whole rounds, each round chosen among the seatings of
its players whose repeats and club meetings still fit the target; it breaks the symmetry of
relabellings and of interchangeable rounds (all rounds have the same players when nobody sits
out) by *orbits*: at each depth, the relabellings that fix the rounds chosen so far (a
subgroup, enumerated) split the seatings left into orbits, one seating of each orbit is tried,
and, rounds being interchangeable, the next rounds are drawn from orbits not before it
(whatever the movement, the rounds can be put in that order and relabelled so). The bound of a
branch is the repeats forced by counting, player by player, and each round's fewest club
meetings. A field is *small* when each round has at most MAX_SEATINGS seatings (12 playing
players in tables of three: 15,400) and there are at most MAX_ROUNDS rounds. The search is
counted in steps (a seating weighed, a relabelling applied), never in seconds, so the same
arguments prove the same on any machine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product
from math import comb, factorial

from tournaments.seating.schedule import Table

Rounds = list[list[list[int]]]  # a movement's tables of players, round by round, seats unordered

# The exact search's budget in movements.movement is this many times the local search's: at
# its default, 1,000,000 steps, a few seconds of one core at most (a step is a seating weighed
# or a relabelling applied). The 12 players of five rounds in tables of three (three targets
# refuted) take about 350,000; 12 players of four clubs of three over four rounds (three
# refuted, one met) about 390,000.
STEPS_PER_SEARCH_STEP = 5
MAX_SEATINGS = 20_000  # more seatings of one round: not a small field, counting only
MAX_ROUNDS = 40  # more rounds: not a small field either (the search goes a round deeper a call)
# The relabellings that fix a first round are enumerated when there are at most this many
# (12 players at 3 tables of 4: 82,944); otherwise only the first round's symmetry is broken.
MAX_RELABELLINGS = 100_000


@dataclass(frozen=True)
class Proof:
    """What the exact search proved about a field, given a movement of it.

    ``repeat_bound``: no movement has fewer repeat meetings (schedule.repeat_pairs);
    ``repeats_optimal``: the movement (``rounds`` when not None, else the one given) has that
    many. ``club_bound``: no movement with as few repeats as it has fewer club meetings
    (schedule.club_conflicts); ``clubs_optimal``: it has that many. ``rounds``: a movement
    with fewer repeats, or as few and fewer club meetings, than the one given (tables of
    players, seat order unbalanced), else None. ``complete``: the search settled every
    target it tried within its steps. ``steps``: the steps taken.
    """

    repeat_bound: int
    repeats_optimal: bool
    club_bound: int
    clubs_optimal: bool
    rounds: Rounds | None = None
    complete: bool = True
    steps: int = 0


class _OutOfSteps(Exception):
    """The budget is spent: the target being tried is left unsettled."""


def seatings(players: Sequence[int], seats: int) -> Iterator[tuple[Table, ...]]:
    """Every split of ``players`` into tables of ``seats``, each table in increasing order and
    the tables in the order of their first player, each split once.

    >>> list(seatings([1, 2, 3, 4], 2))
    [((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3))]
    """
    order = sorted(players)
    if not order:
        yield ()
        return
    first, rest = order[0], order[1:]
    for others in combinations(rest, seats - 1):
        taken = set(others)
        for more in seatings([p for p in rest if p not in taken], seats):
            yield ((first, *others), *more)


def seating_count(players: int, seats: int) -> int:
    """How many seatings ``players`` (a multiple of ``seats``) have: N! / (k!^T · T!)."""
    return factorial(players) // _wreath_order(players // seats, seats)


def _small(players: int, seats: int) -> bool:
    """Whether ``players`` have at most MAX_SEATINGS seatings (counted table by table: the
    first player's partners, then the next unseated one's, …; stopped once past it)."""
    count = 1
    for left in range(players, 0, -seats):
        count *= comb(left - 1, seats - 1)
        if count > MAX_SEATINGS:
            return False
    return True


def _wreath_order(tables: int, seats: int) -> int:
    """How many ways to rename the players of one seating and keep it: T! · k!^T."""
    order = factorial(tables)
    for _ in range(tables):
        order *= factorial(seats)
    return order


Perm = tuple[int, ...]  # a relabelling: perm[p] is the new name of player p (perm[0] unused)


class _Field:
    """The seatings of each round's players with their pair masks and club meetings, and the
    relabellings of the field: by generators, by a membership test, and those that fix the
    rounds chosen so far (kept for the next targets, which meet the same rounds again)."""

    def __init__(
        self,
        players: int,
        playing: Sequence[Sequence[int]],
        seats: int,
        clubs: Mapping[int, str],
    ) -> None:
        self.players = players
        self.seats = seats
        self.playing = [tuple(sorted(r)) for r in playing]
        self.same_rounds = all(r == self.playing[0] for r in self.playing)
        bit: dict[tuple[int, int], int] = {}
        for a, b in combinations(range(1, players + 1), 2):
            bit[(a, b)] = 1 << len(bit)
        self.bit = bit
        self.clubs = dict(clubs)
        # Per set of playing players: its seatings, their pair masks and club meetings, and
        # the index of each seating by its key.
        self.lists: dict[tuple[int, ...], list[tuple[Table, ...]]] = {}
        self.masks: dict[tuple[int, ...], list[int]] = {}
        self.clashes: dict[tuple[int, ...], list[int]] = {}
        self.index: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
        self.tables: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for r in self.playing:
            if r not in self.lists:
                found = list(seatings(r, seats))
                self.lists[r] = found
                self.tables[r] = [tuple(sum(1 << p for p in t) for t in s) for s in found]
                self.masks[r] = [self._mask(s) for s in found]
                self.clashes[r] = [self._clash(s) for s in found]
                self.index[r] = {_key(s): i for i, s in enumerate(found)}
        # The rounds each player sits out.
        self.pattern = {
            p: tuple(i for i, r in enumerate(self.playing) if p not in r)
            for p in range(1, players + 1)
        }
        self.full_wreath = _wreath_order(len(self.playing[0]) // seats, seats)
        self._fixing: dict[tuple[bool, tuple[int, ...]], list[Perm] | None] = {}
        self._first_orbits: dict[bool, list[int]] = {}

    def _mask(self, seating: Sequence[Table]) -> int:
        m = 0
        for t in seating:
            for a, b in combinations(t, 2):
                m |= self.bit[(a, b)]
        return m

    def _clash(self, seating: Sequence[Table]) -> int:
        c = self.clubs
        return sum(
            1 for t in seating for a, b in combinations(t, 2) if c.get(a) and c.get(a) == c.get(b)
        )

    def alike(self, with_clubs: bool) -> bool:
        """Whether every relabelling is one of the field: nobody sits out and no club counts."""
        return (
            self.same_rounds
            and len(self.playing[0]) == self.players
            and not (with_clubs and self.clubs)
        )

    def _classes(self, with_clubs: bool) -> list[list[int]]:
        classes: dict[tuple[object, ...], list[int]] = {}
        for p in range(1, self.players + 1):
            club = self.clubs.get(p, "") if with_clubs else ""
            classes.setdefault((self.pattern[p], club), []).append(p)
        return list(classes.values())

    def generators(self, with_clubs: bool) -> list[Perm]:
        """Relabellings that generate the field's: a swap and a cycle of the players alike
        (the same rounds out and, with clubs, the same club or both without one), and, when
        nobody sits out, a swap and a cycle of the clubs of one size."""
        gens = []
        for members in self._classes(with_clubs):
            gens += self._swap_and_cycle([[p] for p in members])
        if with_clubs and self.same_rounds:
            sizes: dict[int, list[list[int]]] = {}
            for club in sorted(set(self.clubs.values())):
                members = [p for p in range(1, self.players + 1) if self.clubs.get(p) == club]
                sizes.setdefault(len(members), []).append(members)
            for group in sizes.values():
                gens += self._swap_and_cycle(group)
        return gens

    def first_orbits(self, with_clubs: bool) -> tuple[list[int], int]:
        """For each seating of the first round, the index of the first seating of its orbit
        under the field's relabellings, with the steps taken (none when kept from a target
        before)."""
        if with_clubs in self._first_orbits:
            return self._first_orbits[with_clubs], 0
        players = self.playing[0]
        count = len(self.lists[players])
        if self.alike(with_clubs):
            # Every seating of the first round is every other one renamed.
            found, cost = [0] * count, 0
        else:
            gens = self.generators(with_clubs)
            found, cost = self.orbits(players, list(range(count)), gens), count * len(gens)
        self._first_orbits[with_clubs] = found
        return found, cost

    def orbits(self, players: tuple[int, ...], among: list[int], gens: Sequence[Perm]) -> list[int]:
        """For each seating of ``among`` (indices of seatings of ``players``, closed under the
        relabellings ``gens`` generate), the position in ``among`` of the first seating of its
        orbit under them (a union-find over the generators' images)."""
        position = {i: j for j, i in enumerate(among)}
        index, tables = self.index[players], self.tables[players]
        parent = list(range(len(among)))

        def root(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for g in gens:
            renamed = _Renaming(g)
            for j, i in enumerate(among):
                a, b = root(j), root(position[index[renamed.key(tables[i])]])
                if a != b:
                    parent[max(a, b)] = min(a, b)
        return [root(j) for j in range(len(among))]

    def wreath(self, seating: Sequence[Table]) -> list[Perm]:
        """Generators of every relabelling that maps ``seating`` to itself when all players
        are alike: a swap and a cycle of the first table's players, and of the tables."""
        return self._swap_and_cycle([[p] for p in seating[0]]) + self._swap_and_cycle(
            [list(t) for t in seating]
        )

    def _swap_and_cycle(self, blocks: Sequence[Sequence[int]]) -> list[Perm]:
        """The swap of the first two ``blocks`` (of one size, member by member) and the cycle of
        them all: together they generate every permutation of the blocks."""
        if len(blocks) < 2:
            return []
        swap = list(range(self.players + 1))
        for p, q in zip(blocks[0], blocks[1], strict=True):
            swap[p], swap[q] = q, p
        out = [tuple(swap)]
        if len(blocks) > 2:
            cycle = list(range(self.players + 1))
            for a, b in zip(blocks, [*blocks[1:], blocks[0]], strict=True):
                for p, q in zip(a, b, strict=True):
                    cycle[p] = q
            out.append(tuple(cycle))
        return out

    def keeps(self, perm: Sequence[int], with_clubs: bool) -> bool:
        """Whether ``perm`` is a relabelling of the field (see the module docstring)."""
        clubs = self.clubs
        image: dict[str, str] = {}
        for p in range(1, self.players + 1):
            q = perm[p]
            if self.pattern[q] != self.pattern[p]:
                return False
            if with_clubs:
                c, d = clubs.get(p, ""), clubs.get(q, "")
                if bool(c) != bool(d) or (c and image.setdefault(c, d) != d):
                    return False
                if c and not self.same_rounds and c != d:
                    return False
        return True

    def fixing(self, path: tuple[int, ...], with_clubs: bool) -> tuple[list[Perm] | None, int]:
        """The relabellings that map the seating ``path[d]`` of each round d of ``path`` to
        itself (the players out of the first round left in place), with the steps taken to
        list them; None when the first round has more than MAX_RELABELLINGS to enumerate."""
        key = (with_clubs, path)
        if key in self._fixing:
            return self._fixing[key], 0
        depth = len(path) - 1
        players = self.playing[depth]
        seating = self.lists[players][path[-1]]
        if depth == 0:
            found, cost = self._fixing_first(seating, with_clubs)
        else:
            above, cost = self.fixing(path[:-1], with_clubs)
            found = None
            if above is not None:
                mine = _key(seating)
                found = [g for g in above if _relabel(seating, g) == mine]
                cost += len(above)
        self._fixing[key] = found
        return found, cost

    def _fixing_first(
        self, seating: Sequence[Table], with_clubs: bool
    ) -> tuple[list[Perm] | None, int]:
        """The relabellings of the field among those that move the first round's tables among
        themselves and the players within each: every one that keeps ``seating``."""
        tables = len(seating)
        if self.full_wreath > MAX_RELABELLINGS:
            return None, 1
        out = []
        orders = list(permutations(range(self.seats)))
        alike = self.alike(with_clubs)
        for moved in permutations(range(tables)):
            for inner in product(orders, repeat=tables):
                perm = list(range(self.players + 1))
                for ti, t in enumerate(seating):
                    target = seating[moved[ti]]
                    for j, p in enumerate(t):
                        perm[p] = target[inner[ti][j]]
                if alike or self.keeps(perm, with_clubs):
                    out.append(tuple(perm))
        return out, self.full_wreath


def _key(seating: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """A seating's tables as sorted bit masks: equal for the same split in any order."""
    return tuple(sorted(sum(1 << p for p in t) for t in seating))


def _relabel(seating: Sequence[Table], perm: Sequence[int]) -> tuple[int, ...]:
    """The key (see _key) of ``seating`` with each player p renamed perm[p]: for a relabelling
    applied to a few seatings (_Renaming pays for itself over many)."""
    return tuple(sorted(sum(1 << perm[p] for p in t) for t in seating))


class _Renaming:
    """A relabelling applied to tables given as bit masks, a byte of players at a time."""

    def __init__(self, perm: Sequence[int]) -> None:
        self.parts = []
        for low in range(0, len(perm), 8):
            part = [0] * 256
            for byte in range(1, 256):
                m = 0
                for b in range(8):
                    if byte >> b & 1 and low + b < len(perm):
                        m |= 1 << perm[low + b]
                part[byte] = m
            self.parts.append(part)

    def key(self, tables: Sequence[int]) -> tuple[int, ...]:
        """The key (see _key) of the seating of these tables, its players renamed."""
        out = []
        for t in tables:
            m, shift = 0, 0
            for part in self.parts:
                m |= part[t >> shift & 255]
                shift += 8
            out.append(m)
        return tuple(sorted(out))


class _Search:
    """One target: is there a movement with at most ``max_repeats`` repeats and, when
    ``max_clashes`` is not None, at most that many club meetings?"""

    def __init__(
        self, field: _Field, max_repeats: int, max_clashes: int | None, budget: list[int]
    ) -> None:
        self.f = field
        self.max_repeats = max_repeats
        self.max_clashes = max_clashes
        self.with_clubs = max_clashes is not None
        self.budget = budget
        self.rounds = len(field.playing)
        self.fewest = [min(field.clashes[r]) for r in field.playing]
        # plays[d][p]: how many rounds from d on player p plays.
        self.plays = [
            [sum(1 for r in field.playing[d:] if p in r) for p in range(field.players + 1)]
            for d in range(self.rounds + 1)
        ]
        self.path: list[int] = []

    def _spend(self, n: int) -> None:
        self.budget[0] -= n
        if self.budget[0] < 0:
            raise _OutOfSteps

    def run(self) -> Rounds | None:
        """A movement within the target, or None when there is none.

        Raises:
            _OutOfSteps: the budget ran out first.
        """
        f = self.f
        first = f.playing[0]
        if self._round(0, list(range(len(f.lists[first]))), 0, 0, 0, [0] * (f.players + 1)):
            return [[list(t) for t in f.lists[f.playing[d]][i]] for d, i in enumerate(self.path)]
        return None

    def _forced(self, depth: int, met: Sequence[int]) -> int:
        """Repeats the rounds from ``depth`` on must add, by counting player by player: a
        player who plays m more rounds meets (k − 1)·m more players, and each beyond those he
        has not met is a repeat (each repeat seen by its two players)."""
        f, plays = self.f, self.plays[depth]
        k1 = f.seats - 1
        total = 0
        for p in range(1, f.players + 1):
            total += max(0, k1 * plays[p] - (f.players - 1 - met[p].bit_count()))
        return (total + 1) // 2

    def _round(
        self,
        depth: int,
        candidates: list[int],
        covered: int,
        repeats: int,
        clashes: int,
        met: list[int],
    ) -> bool:
        """Choose the seating of round ``depth`` among ``candidates`` (indices of seatings of
        its players) and go on; True once a movement within the target is complete."""
        f = self.f
        if depth == self.rounds:
            return True
        if repeats + self._forced(depth, met) > self.max_repeats:
            return False
        players = f.playing[depth]
        masks, clash = f.masks[players], f.clashes[players]
        room = self.max_repeats - repeats
        self._spend(len(candidates))
        if self.max_clashes is None:
            fits = [i for i in candidates if (masks[i] & covered).bit_count() <= room]
        else:
            # The club meetings this round may add: the target less those so far and the
            # fewest of each later round.
            clash_room = self.max_clashes - clashes - sum(self.fewest[depth + 1 :])
            fits = [
                i
                for i in candidates
                if clash[i] <= clash_room and (masks[i] & covered).bit_count() <= room
            ]
        if not fits:
            return False
        orbit = self._orbits(players, fits, depth)
        for o in sorted(set(orbit)):
            i = fits[o]
            if f.same_rounds:
                # Rounds are interchangeable: the later ones come from orbits not before this.
                following = [fits[j] for j in range(len(fits)) if orbit[j] >= o]
            elif depth + 1 < self.rounds:
                following = list(range(len(f.lists[f.playing[depth + 1]])))
            else:
                following = []
            now = list(met)
            for t in f.lists[players][i]:
                m = sum(1 << p for p in t)
                for p in t:
                    now[p] |= m & ~(1 << p)
            self.path.append(i)
            inc = (masks[i] & covered).bit_count()
            if self._round(
                depth + 1, following, covered | masks[i], repeats + inc, clashes + clash[i], now
            ):
                return True
            self.path.pop()
        return False

    def _orbits(self, players: tuple[int, ...], fits: list[int], depth: int) -> list[int]:
        """For each seating of ``fits``, the position in ``fits`` of the first seating of its
        orbit under the relabellings of the field (depth 0) or under those that fix the rounds
        chosen so far (deeper). The orbits are exact: the order of the later rounds relies on
        each relabelling used below this depth keeping them. ``fits`` is closed under them: a
        relabelling keeps every cost."""
        f = self.f
        if depth == 0:
            first, cost = f.first_orbits(self.with_clubs)
            self._spend(cost)
            at: dict[int, int] = {}
            return [at.setdefault(first[i], j) for j, i in enumerate(fits)]
        group, cost = f.fixing(tuple(self.path), self.with_clubs)
        self._spend(cost)
        if group is None or len(group) <= 1:
            return list(range(len(fits)))
        if depth == 1 and len(group) == f.full_wreath:
            gens = f.wreath(f.lists[f.playing[0]][self.path[0]])
            self._spend(len(fits) * len(gens))
            return f.orbits(players, fits, gens)
        position = {i: j for j, i in enumerate(fits)}
        index, listed = f.index[players], f.lists[players]
        parent = list(range(len(fits)))
        seen = [False] * len(fits)
        for j, i in enumerate(fits):
            if not seen[j]:
                self._spend(len(group))
                for g in group:
                    other = position[index[_relabel(listed[i], g)]]
                    parent[other], seen[other] = j, True
        return parent


def prove(
    players: int,
    sit_out: Sequence[Sequence[int]],
    seats: int,
    clubs: Mapping[int, str],
    *,
    repeats: int,
    clashes: int,
    repeat_floor: int,
    club_floor: int,
    steps: int,
) -> Proof:
    """Prove how good a movement of players 1..N is, given its ``repeats`` and ``clashes``
    (club meetings) and the counting bounds ``repeat_floor`` and ``club_floor``.

    Repeats first: targets from ``repeat_floor`` up to ``repeats`` − 1 (club meetings
    ignored); then, once the repeats are proved optimal, club meetings among the movements
    with that few repeats, from ``club_floor`` up. Each target refuted raises the bound; a
    target met ends that part with the movement found (``Proof.rounds``). A field that is not
    small, or ``steps`` spent, leaves the bounds proved so far (``Proof.complete`` false when
    the steps ran out). ``sit_out`` lists who sits out each round (schedule.sit_out_schedule).

    Raises:
        ValueError: ``steps`` negative.
    """
    if steps < 0:
        raise ValueError("the exact search's steps are not negative")
    clubs = {p: c for p, c in clubs.items() if c}
    proof = Proof(repeat_floor, repeats <= repeat_floor, club_floor, clashes <= club_floor)
    playing = players - (len(sit_out[0]) if sit_out else 0)
    if (
        (proof.repeats_optimal and proof.clubs_optimal)
        or len(sit_out) > MAX_ROUNDS
        or not _small(playing, seats)
    ):
        return proof
    everyone = set(range(1, players + 1))
    field = _Field(players, [sorted(everyone - set(r)) for r in sit_out], seats, clubs)
    budget = [steps]
    bound, best, found, complete = _tighten(
        repeat_floor, repeats, lambda target: _Search(field, target, None, budget).run()
    )
    club_bound, club_best = club_floor, clashes if found is None else _clashes(found, clubs)
    if complete and clubs:
        club_bound, club_best, better, complete = _tighten(
            club_floor, club_best, lambda target: _Search(field, best, target, budget).run()
        )
        found = better or found
    return Proof(
        repeat_bound=bound,
        repeats_optimal=bound == best,
        club_bound=club_bound,
        clubs_optimal=club_bound == club_best,
        rounds=found,
        complete=complete,
        steps=steps - max(budget[0], 0),
    )


def _tighten(
    bound: int, best: int, search: Callable[[int], Rounds | None]
) -> tuple[int, int, Rounds | None, bool]:
    """Raise the proved `bound` towards the `best` count known, trying each target from the
    bound up with `search` (a movement reaching it, or None: none can): (the bound proved, the
    best count, the movement reaching it when the search found one, whether the search
    finished within its budget rather than running out of steps)."""
    found: Rounds | None = None
    try:
        while bound < best:
            movement = search(bound)
            if movement is not None:
                found, best = movement, bound
            else:
                bound += 1
    except _OutOfSteps:
        return bound, best, found, False
    return bound, best, found, True


def _clashes(movement: Rounds, clubs: Mapping[int, str]) -> int:
    return sum(
        1
        for r in movement
        for t in r
        for a, b in combinations(t, 2)
        if clubs.get(a) and clubs.get(a) == clubs.get(b)
    )
