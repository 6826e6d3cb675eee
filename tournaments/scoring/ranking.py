"""Ranking, pure: standings from each player's board points (standings), the rank labels of
tied players ("2="), the event's tie-breaks applied in order (check_tiebreaks, split_ties) and
the lot that separates players the tie-breaks leave equal (lot_value). Exact: each player's
sums are integers over common denominators (Sums), his key an integer; the rows hold Fractions.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import NamedTuple

from tournaments.scoring.methods import (
    Method,
    ScoringError,
    SeatPoints,
    SeatResult,
    datum,
)


class RankedRow(NamedTuple):
    """A ranked row: `rank` like "1" or "2="; `percentage` only for matchpoints.

    `total` is the sum of the board points; `penalty` (kept apart, never inside a board) is
    taken off it for the ranking key; `decided_by` names the tie-break that separated this row
    from the rows of equal key ("" when no tie-break was needed, or none decided). A named
    tuple, not a frozen dataclass: a recomputation makes one per player (a third of the time).
    """

    rank: str
    position: int
    player: Hashable
    total: Fraction
    top: Fraction | None
    percentage: Fraction | None
    boards: int
    penalty: Fraction = Fraction(0)
    decided_by: str = ""


def rank_labels(keys: Sequence[Fraction]) -> list[str]:
    """Competition ranking of keys sorted best first: equal keys share a rank marked "=".

    >>> rank_labels([Fraction(9), Fraction(5), Fraction(5), Fraction(1)])
    ['1', '2=', '2=', '4']
    """
    labels = []
    for i, key in enumerate(keys):
        first = i
        while first > 0 and keys[first - 1] == key:
            first -= 1
        tied = (i > 0 and keys[i - 1] == key) or (i + 1 < len(keys) and keys[i + 1] == key)
        labels.append(f"{first + 1}{'=' if tied else ''}")
    return labels


def standings(
    points: Iterable[SeatPoints],
    *,
    method: Method = "matchpoints",
    results: Iterable[SeatResult] = (),
    penalties: Mapping[Hashable, Fraction] | None = None,
    tiebreaks: Sequence[str] = (),
    seed: str = "",
) -> list[RankedRow]:
    """Sum each player's points over the boards and rank them, best first.

    The key: matchpoints rank by percentage = 100 · (sum MP − penalty) / sum top (0 while no
    top), datum by sum D − penalty. `penalties` maps a player to his penalty in the method's
    unit (MP or datum points), kept apart from the board points. Players of equal key are
    separated by `tiebreaks` in the organizer's order (see TIEBREAKS; `results`, the raw seat
    results behind `points`, feed datum_wins and head_to_head; `seed` the lot); players still
    equal share the rank (1, 2=, 2=, 4) and are listed in player order (str of the player).

    Raises:
        ScoringError: an unknown or repeated tie-break, or a lot without a seed.
    """
    order = check_tiebreaks(tiebreaks, seed)
    listed = points if isinstance(points, list) else list(points)
    sums = Sums()
    sums.add(listed)
    raw = results if isinstance(results, list) else list(results)
    values_of = tie_values(method, lambda: listed, raw, seed)
    return ranked(sums, method=method, penalties=penalties, order=order, values_of=values_of)


class Sums:
    """Each player's sums over the boards, exact in integers over common denominators: his
    total is total[player] / den, his top top[player] / top_den (matchpoints; none in datum),
    and boards[player] counts his seat results. `add` moves them by some boards' points (and
    takes them off with `sign` -1: the incremental standings keep one Sums per scope and
    move it by the boards that changed); a denominator new to the sums rescales them once.
    A player is in the sums while he has a seat result in them."""

    def __init__(self) -> None:
        self.den = 1
        self.top_den = 1
        self.total: dict[Hashable, int] = {}
        self.top: dict[Hashable, int] = {}
        self.boards: dict[Hashable, int] = {}

    def copy(self) -> Sums:
        """An independent copy (the dicts copied)."""
        out = Sums()
        out.den, out.top_den = self.den, self.top_den
        out.total, out.top, out.boards = dict(self.total), dict(self.top), dict(self.boards)
        return out

    def add(self, points: Iterable[SeatPoints], sign: int = 1) -> None:
        """Add the points (`sign` 1) or take them off (-1; points added before)."""
        if sign == 1 and not self.boards:
            listed = points if isinstance(points, list) else list(points)
            players = [p.player for p in listed]
            if len(set(players)) == len(players):
                self._first(listed, players)
                return
            points = listed
        # One pass, numerators per denominator (a few distinct ones: halves, Neuberg's n):
        # no Fraction arithmetic per point. A board's points share a few Fraction objects (one
        # per distinct score), so each object's numerator and bucket are found once (by id,
        # the object held in `parts` so that its id stays its own), not per point: they are
        # properties, a Python call each.
        totals: dict[int, dict[Hashable, int]] = {}
        tops: dict[int, dict[Hashable, int]] = {}
        # Apart for the values and the tops: one Fraction object may be both.
        value_parts: dict[int, _Part] = {}
        top_parts: dict[int, _Part] = {}
        boards = self.boards
        gone: list[Hashable] = []
        for player, value, top in _player_points(points):
            _add_part(value_parts, totals, value, player, keep_zero=True)
            _add_part(top_parts, tops, top, player, keep_zero=False)
            count = boards.get(player, 0) + sign
            boards[player] = count
            if not count:
                gone.append(player)
        self._settle(
            [(d, b, sign) for d, b in totals.items()], [(d, b, sign) for d, b in tops.items()], gone
        )

    def _first(self, points: list[SeatPoints], players: list[Hashable]) -> None:
        """The sums of `points` into empty sums, each player's once (one board's points): a
        few comprehensions instead of a loop of dict updates per point, the numerators of
        each distinct Fraction object found once (by id, held in the comprehension's list)."""
        values = [p.points for p in points]
        self.den, numerators = _numerators(values, keep_zero=True)
        self.total = dict(zip(players, map(numerators.__getitem__, map(id, values)), strict=True))
        tops = [p.top for p in points]
        self.top_den, top_numerators = _numerators(tops, keep_zero=False)
        if len(top_numerators) == len(set(map(id, tops))):  # every seat has a top
            self.top = dict(
                zip(players, map(top_numerators.__getitem__, map(id, tops)), strict=True)
            )
        else:
            self.top = {
                player: top_numerators[id(t)]
                for player, t in zip(players, tops, strict=True)
                if id(t) in top_numerators
            }
        self.boards = dict.fromkeys(players, 1)

    def merge(self, other: Sums, sign: int = 1) -> None:
        """Add the sums `other` (`sign` 1) or take them off (-1; sums added before): the
        incremental standings keep each board's sums and move the event's by them."""
        gone = self._count(other.boards, sign)
        self._settle([(other.den, other.total, sign)], [(other.top_den, other.top, sign)], gone)

    def replace(self, old: Sums, new: Sums) -> None:
        """Take off the sums `old` (added before) and add `new`, in one pass: a board whose
        points changed moves the event's sums by the difference (most often the same players,
        so their board counts need no change)."""
        gone: list[Hashable] = []
        if old.boards != new.boards:
            gone = self._count(old.boards, -1) + self._count(new.boards, 1)
        # A board's tops move only with its tables (Neuberg's N) or its players: most often
        # they are the same, and only the totals move.
        same_tops = old.top_den == new.top_den and old.top == new.top
        self._settle(
            [(old.den, old.total, -1), (new.den, new.total, 1)],
            [] if same_tops else [(old.top_den, old.top, -1), (new.top_den, new.top, 1)],
            gone,
        )

    def _count(self, counts: dict[Hashable, int], sign: int) -> list[Hashable]:
        """Move the board counts by `counts` times `sign`; the players left with none."""
        boards = self.boards
        gone: list[Hashable] = []
        for player, n in counts.items():
            count = boards.get(player, 0) + sign * n
            boards[player] = count
            if not count:
                gone.append(player)
        return gone

    def _settle(self, totals: list[_Signed], tops: list[_Signed], gone: list[Hashable]) -> None:
        boards = self.boards
        self.den = _merge(self.total, self.den, totals)
        self.top_den = _merge(self.top, self.top_den, tops)
        for player in gone:
            if not boards.get(player):
                # His last seat result taken off: every sum of his is back to nothing.
                boards.pop(player, None)
                self.total.pop(player, None)
                self.top.pop(player, None)


# Numerators over a denominator, added with a sign: (denominator, player → numerator, ±1).
_Signed = tuple[int, dict[Hashable, int], int]


def _player_points(
    points: Iterable[SeatPoints],
) -> Iterable[tuple[Hashable, Fraction, Fraction | None]]:
    """(player, points, top) of each seat's points."""
    for p in points:
        yield p.player, p.points, p.top


def _numerators(
    values: Sequence[Fraction | None], *, keep_zero: bool
) -> tuple[int, dict[int, int]]:
    """The common denominator of `values` and, by the id of each distinct object, its
    numerator over it; None, and 0 unless `keep_zero`, are left out (as in Sums.add)."""
    distinct = dict(zip(map(id, values), values, strict=True))
    parts = {
        k: (v.numerator, v.denominator)
        for k, v in distinct.items()
        if v is not None and (keep_zero or v)
    }
    den = lcm(1, *{d for _n, d in parts.values()})
    return den, {k: n * (den // d) for k, (n, d) in parts.items()}


# A Fraction object (held, so that its id stays its own), its numerator, and the bucket its
# denominator adds to (None: it adds nothing).
_Part = tuple[Fraction | None, int, dict[Hashable, int] | None]


def _add_part(
    parts: dict[int, _Part],
    by_den: dict[int, dict[Hashable, int]],
    value: Fraction | None,
    player: Hashable,
    *,
    keep_zero: bool,
) -> None:
    """Add `value`'s numerator to `player` in the bucket of `by_den` its denominator names,
    the object's parts found once in `parts` (by id)."""
    part = parts.get(id(value))
    if part is None:
        part = parts[id(value)] = _part(value, by_den, keep_zero=keep_zero)
    bucket = part[2]
    if bucket is not None:
        bucket[player] = bucket.get(player, 0) + part[1]


def _part(
    value: Fraction | None, by_den: dict[int, dict[Hashable, int]], *, keep_zero: bool
) -> _Part:
    """`value` (held), its numerator and the bucket of `by_den` its denominator adds to; no
    bucket (None) for no value, or 0 unless `keep_zero` (a player's total is in the sums
    from his first board on, 0 or not; a top of 0 adds nothing)."""
    if value is None or (not value and not keep_zero):
        return value, 0, None
    bucket = by_den.get(value.denominator)
    if bucket is None:
        bucket = by_den[value.denominator] = {}
    return value, value.numerator, bucket


def _merge(into: dict[Hashable, int], den: int, signed: list[_Signed]) -> int:
    """Add the numerators `signed` (denominator, player → numerator, sign) into `into`
    (numerators over `den`); the common denominator they are over now."""
    common = lcm(den, *(d for d, _b, _s in signed)) if signed else den
    if common != den:
        factor = common // den
        for player in into:
            into[player] *= factor
    get = into.get
    for d, bucket, sign in signed:
        factor = sign * (common // d)
        if factor == 1:
            for player, numerator in bucket.items():
                into[player] = get(player, 0) + numerator
        else:
            for player, numerator in bucket.items():
                into[player] = get(player, 0) + numerator * factor
    return common


# At most this many distinct tops are brought to one integer key (their lcm); more (an
# unusual event) are compared as Fractions.
_INTEGER_TOPS = 64


def ranked(
    sums: Sums,
    *,
    method: Method,
    penalties: Mapping[Hashable, Fraction] | None,
    order: Sequence[str],
    values_of: TieValues,
) -> list[RankedRow]:
    """The rows of `sums` ranked as `standings` ranks them (order: the checked tie-breaks,
    `values_of` their values, see split_ties). The key of each player is an integer (his net
    times a common multiple over his top, in matchpoints): one sort, one scan for ties."""
    penalty = {pl: Fraction(v) for pl, v in (penalties or {}).items()}
    den = lcm(sums.den, *{v.denominator for v in penalty.values()})
    scale = den // sums.den
    net = {pl: n * scale for pl, n in sums.total.items()}
    for pl, value in penalty.items():
        net[pl] = net.get(pl, 0) - value.numerator * (den // value.denominator)
    matchpoints = method == "matchpoints"
    key: Mapping[Hashable, int | Fraction] = _percentage_keys(net, sums.top) if matchpoints else net
    players = sorted(net, key=lambda pl: (-key[pl], str(pl)))
    make = _Rows(sums, net, den, penalty, matchpoints, _Exact()).row
    out: list[RankedRow] = []
    i = 0
    while i < len(players):
        j = i + 1
        while j < len(players) and key[players[j]] == key[players[i]]:
            j += 1
        # Players of one key are in str order already (the sort's second key): with no
        # tie-break to apply they are one block as they stand.
        blocks = (
            split_ties(players[i:j], order, values_of)
            if j - i > 1 and order
            else [(players[i:j], "")]
        )
        for block, decided_by in blocks:
            label = f"{len(out) + 1}{'=' if len(block) > 1 else ''}"
            for player in block:
                out.append(make(player, label, len(out) + 1, decided_by))
        i = j
    return out


def _percentage_keys(
    net: Mapping[Hashable, int], top: Mapping[Hashable, int]
) -> dict[Hashable, int | Fraction]:
    """Each player's matchpoint key: his net over his top (0 while no top) times the lcm of
    the tops, an integer (a Fraction when the tops are too many to multiply out)."""
    distinct = {t for t in top.values() if t}
    if len(distinct) > _INTEGER_TOPS:
        return {pl: Fraction(n, top[pl]) if top.get(pl) else 0 for pl, n in net.items()}
    common = lcm(*distinct) if distinct else 1
    factor = {t: common // t for t in distinct}
    return {pl: n * factor[top[pl]] if top.get(pl) else 0 for pl, n in net.items()}


class _Exact(dict[tuple[int, int], Fraction]):
    """Fraction(n, d) made once per distinct value (the rows of a large event share many:
    every top, most totals)."""

    def __missing__(self, key: tuple[int, int]) -> Fraction:
        value = self[key] = Fraction(*key)
        return value


@dataclass(frozen=True)
class _Rows:
    """Makes the rows of `ranked`: the exact values of each player out of his sums."""

    sums: Sums
    net: Mapping[Hashable, int]  # total − penalty, over `den`
    den: int
    penalty: Mapping[Hashable, Fraction]
    matchpoints: bool
    exact: _Exact

    def row(self, player: Hashable, label: str, position: int, decided_by: str) -> RankedRow:
        sums, exact = self.sums, self.exact
        top = sums.top.get(player, 0)
        percentage = None
        if self.matchpoints:
            percentage = (
                exact[(100 * self.net[player] * sums.top_den, self.den * top)] if top else _ZERO
            )
        return RankedRow(
            rank=label,
            position=position,
            player=player,
            total=exact[(sums.total.get(player, 0), sums.den)],
            top=exact[(top, sums.top_den)] if self.matchpoints else None,
            percentage=percentage,
            boards=sums.boards.get(player, 0),
            penalty=self.penalty.get(player, _ZERO),
            decided_by=decided_by,
        )


_ZERO = Fraction(0)


# Tie-breaks the organizer orders (DESIGN.md): boards won against the datum, best single
# board, head-to-head, then a lot drawn from a seed published with the event.
TIEBREAKS = ("datum_wins", "best_board", "head_to_head", "lot")


def check_tiebreaks(
    tiebreaks: Sequence[str],
    seed: str,
    *,
    known: Sequence[str] = TIEBREAKS,
    error: type[ValueError] = ScoringError,
    holder: str = "event",
) -> list[str]:
    """The tie-breaks as a list, checked against `known` (an event's TIEBREAKS by default; a
    series passes its own); `holder` names what publishes the lot's seed in the message.

    Raises:
        `error` (ScoringError by default): an unknown or repeated tie-break, a lot without a
        seed.
    """
    order = list(tiebreaks)
    unknown = [t for t in order if t not in known]
    if unknown:
        raise error(f"unknown tie-break {unknown[0]!r}; use {', '.join(known)}")
    if len(set(order)) != len(order):
        raise error("a tie-break is listed twice")
    if "lot" in order and not seed:
        raise error(f"the lot needs the seed published with the {holder}")
    return order


def lot_value(seed: str, player: Hashable) -> str:
    """The lot of `player`: SHA-256 of "seed:player" in hex; the smaller draws the better place.

    Anyone holding the published seed can recompute it.

    >>> lot_value("s", 1)[:12]
    '1b25f38c1aa8'
    """
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()


@dataclass
class _TieContext:
    method: Method
    points: Callable[[], Sequence[SeatPoints]]  # every player's points, read when a tie needs them
    results: list[SeatResult]
    seed: str
    _data: dict[tuple[Hashable, str], Fraction] | None = None
    _per_player: dict[Hashable, list[SeatPoints]] | None = None

    def datum_of(self) -> dict[tuple[Hashable, str], Fraction]:
        if self._data is None:
            scores: dict[tuple[Hashable, str], list[Fraction]] = defaultdict(list)
            for r in self.results:
                if r.adjusted is None:
                    scores[(r.board, r.seat)].append(r.score)
            self._data = {k: datum(v) for k, v in scores.items()}
        return self._data

    def per_player(self) -> dict[Hashable, list[SeatPoints]]:
        if self._per_player is None:
            self._per_player = defaultdict(list)
            for p in self.points():
                self._per_player[p.player].append(p)
        return self._per_player


def tie_values(
    method: Method,
    points: Callable[[], Sequence[SeatPoints]],
    results: list[SeatResult],
    seed: str,
) -> TieValues:
    """The tie-break values `ranked` separates equal keys by: from `results` (the raw seat
    results) and the points `points()` gives, read only when a tie needs them (best_board)."""
    context = _TieContext(method, points, results, seed)
    return lambda name, group: _tiebreak_values(name, group, context)


def _tiebreak_values(
    name: str, group: Sequence[Hashable], ctx: _TieContext
) -> dict[Hashable, Fraction | int | str]:
    """Each player's value under tie-break `name`; a larger value ranks better, except the lot
    (the smaller hash ranks better, returned negated by the caller's sort)."""
    members = set(group)
    if name == "datum_wins":
        data = ctx.datum_of()
        wins: dict[Hashable, Fraction | int | str] = {pl: 0 for pl in group}
        for r in ctx.results:
            if r.player in members and r.adjusted is None and r.score > data[(r.board, r.seat)]:
                wins[r.player] = int(wins[r.player]) + 1
        return wins
    if name == "best_board":
        best: dict[Hashable, Fraction | int | str] = {}
        for pl in group:
            values = [
                (p.points / p.top if p.top else Fraction(0))
                if ctx.method == "matchpoints"
                else p.points
                for p in ctx.per_player().get(pl, [])
            ]
            best[pl] = max(values, default=Fraction(0))
        return best
    if name == "head_to_head":
        # Among the tied players only: at every table where two of them met on a board, 2 to
        # the one who scored more and 1 each for equal scores (matchpoint-style, so a group of
        # any size is ordered by one number each).
        at_table: dict[tuple[Hashable, Hashable], list[SeatResult]] = defaultdict(list)
        for r in ctx.results:
            if r.player in members and r.adjusted is None:
                at_table[(r.board, r.table)].append(r)
        h2h: dict[Hashable, Fraction | int | str] = {pl: 0 for pl in group}
        for met in at_table.values():
            for a in met:
                for b in met:
                    if a is not b:
                        gain = 2 if a.score > b.score else 1 if a.score == b.score else 0
                        h2h[a.player] = int(h2h[a.player]) + gain
        return h2h
    return {pl: lot_value(ctx.seed, pl) for pl in group}


TieValues = Callable[[str, Sequence[Hashable]], Mapping[Hashable, Fraction | int | str]]


def split_ties(
    group: list[Hashable], order: Sequence[str], values_of: TieValues, decided_by: str = ""
) -> list[tuple[list[Hashable], str]]:
    """Blocks of `group` (equal so far) in rank order, each with the tie-break that made it.

    `values_of(name, players)` gives each player's value under tie-break `name`: a larger
    value ranks better, except the lot (the smaller hash ranks better). Players still equal
    after `order` form one block, in str order. Shared by an event's standings and a series'
    (tournaments.league.series)."""
    if len(group) == 1 or not order:
        return [(sorted(group, key=str), decided_by)]
    name, rest = order[0], order[1:]
    values = values_of(name, group)
    distinct = sorted(set(values.values()), reverse=name != "lot")
    if len(distinct) == 1:
        return split_ties(group, rest, values_of, decided_by)
    blocks: list[tuple[list[Hashable], str]] = []
    for value in distinct:
        sub = [pl for pl in group if values[pl] == value]
        blocks.extend(split_ties(sub, rest, values_of, name))
    return blocks
