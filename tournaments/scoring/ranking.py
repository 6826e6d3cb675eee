"""Ranking, pure: standings from each player's board points (standings), the rank labels of
tied players ("2="), the event's tie-breaks applied in order (check_tiebreaks, split_ties) and
the lot that separates players the tie-breaks leave equal (lot_value). Exact: Fractions
throughout.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tournaments.scoring.methods import (
    Method,
    ScoringError,
    SeatPoints,
    SeatResult,
    datum,
    exact_sum,
)


@dataclass(frozen=True)
class RankedRow:
    """A ranked row: `rank` like "1" or "2="; `percentage` only for matchpoints.

    `total` is the sum of the board points; `penalty` (kept apart, never inside a board) is
    taken off it for the ranking key; `decided_by` names the tie-break that separated this row
    from the rows of equal key ("" when no tie-break was needed, or none decided).
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
    per_player: dict[Hashable, list[SeatPoints]] = defaultdict(list)
    for p in points:
        per_player[p.player].append(p)
    totals: dict[Hashable, Fraction] = {
        pl: exact_sum(p.points for p in ps) for pl, ps in per_player.items()
    }
    tops: dict[Hashable, Fraction] = {
        pl: exact_sum(p.top or Fraction(0) for p in ps) for pl, ps in per_player.items()
    }
    boards: dict[Hashable, int] = {pl: len(ps) for pl, ps in per_player.items()}
    penalty = {pl: Fraction((penalties or {}).get(pl, 0)) for pl in totals}
    for pl, value in (penalties or {}).items():
        if pl not in totals:
            totals[pl], tops[pl], boards[pl] = Fraction(0), Fraction(0), 0
            penalty[pl] = Fraction(value)

    def key_of(player: Hashable) -> Fraction:
        net = totals[player] - penalty[player]
        if method == "matchpoints":
            return 100 * net / tops[player] if tops[player] else Fraction(0)
        return net

    # Each player's key once (the sort and the blocks below read it again and again).
    key = {pl: key_of(pl) for pl in totals}
    raw = list(results)
    context = _TieContext(method, per_player, raw, seed)
    players = sorted(totals, key=lambda pl: (-key[pl], str(pl)))
    blocks: list[tuple[list[Hashable], str]] = []
    i = 0
    while i < len(players):
        j = i
        while j < len(players) and key[players[j]] == key[players[i]]:
            j += 1
        blocks.extend(
            split_ties(players[i:j], order, lambda name, g: _tiebreak_values(name, g, context))
        )
        i = j
    out: list[RankedRow] = []
    for block, decided_by in blocks:
        first = len(out) + 1
        label = f"{first}{'=' if len(block) > 1 else ''}"
        for player in block:
            out.append(
                RankedRow(
                    rank=label,
                    position=len(out) + 1,
                    player=player,
                    total=totals[player],
                    top=tops[player] if method == "matchpoints" else None,
                    percentage=key[player] if method == "matchpoints" else None,
                    boards=boards[player],
                    penalty=penalty[player],
                    decided_by=decided_by,
                )
            )
    return out


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
    per_player: Mapping[Hashable, list[SeatPoints]]
    results: list[SeatResult]
    seed: str
    _data: dict[tuple[Hashable, str], Fraction] | None = None

    def datum_of(self) -> dict[tuple[Hashable, str], Fraction]:
        if self._data is None:
            scores: dict[tuple[Hashable, str], list[Fraction]] = defaultdict(list)
            for r in self.results:
                if r.adjusted is None:
                    scores[(r.board, r.seat)].append(r.score)
            self._data = {k: datum(v) for k, v in scores.items()}
        return self._data


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
                for p in ctx.per_player.get(pl, [])
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
