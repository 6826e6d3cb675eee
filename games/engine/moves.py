"""Legal plays of a hand, leading or following an open trick (R-LEAD, R-TRICK, R-CMP, R-AMBIG).

Vocabulary:

- *move*: one distinct legal turn: a play (canonical cards with the readings it takes) or a pass.
- *lead*: the first play of a trick; any combination the hand holds. *follow*: a play that beats
  one of the open readings, or a pass.

The generator builds candidates type by type from the hand, then keeps a candidate iff the
checked classification accepts it (``classify_counts`` and ``beating_readings``), so a play is
generated if and only if the checked transition accepts it. Order is deterministic: by the
candidate's first reading (type order of ``TYPES``, length, rank), then by its cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from .cards import ACE, BIG_JOKER, NRANKS, SMALL_JOKER, TWO, Counts, format_cards
from .combos import (
    MAX_PLAY,
    RANK_VALUE,
    TYPE_ORDER,
    Reading,
    beating_readings,
    classify_counts,
)
from .rules import CLASSIC, RuleSet

__all__ = ["Move", "PASS", "legal_counts", "legal_moves"]


@dataclass(frozen=True, slots=True)
class Move:
    """A legal turn: ``cards`` canonical text ("" for a pass), ``readings`` it takes, ``counts``.

    ``str(move)`` is ``"pass"`` or the cards.
    """

    cards: str
    readings: frozenset[Reading] = field(default=frozenset())
    counts: Counts | None = None

    @property
    def is_pass(self) -> bool:
        return not self.cards

    def __str__(self) -> str:
        return self.cards or "pass"

    def __repr__(self) -> str:
        return f"Move({self.cards!r})"


PASS = Move("")


def _unit(r: int, k: int) -> Counts:
    c = [0] * NRANKS
    c[r] = k
    return tuple(c)


def _span(lo: int, hi: int, k: int) -> list[int]:
    c = [0] * NRANKS
    for r in range(lo, hi + 1):
        c[r] = k
    return c


def _multisets(avail: list[int], size: int, start: int = 0) -> Iterator[list[int]]:
    """All multisets of ``size`` cards drawn from ``avail`` (counts per rank), as count lists."""
    if size == 0:
        yield [0] * NRANKS
        return
    for r in range(start, NRANKS):
        a = avail[r]
        if not a:
            continue
        for take in range(min(a, size), 0, -1):
            for rest in _multisets(avail, size - take, r + 1):
                rest[r] = take
                yield rest


def _solo_avail(h: Counts, lo: int, hi: int, rules: RuleSet) -> list[int]:
    """Cards usable as solo kickers beside a body on ranks lo..hi (R-KICK 1, 2, 3)."""
    cap = (4 if rules.bomb_in_kickers else 3) if rules.solo_kickers_may_pair else 1
    return [0 if lo <= r <= hi else min(h[r], cap) for r in range(NRANKS)]


def _pair_ranks(h: Counts, lo: int, hi: int, rules: RuleSet) -> list[int]:
    """Ranks usable as pair kickers, a rank listed twice where two pairs of it may go (R-KICK)."""
    out = []
    for r in range(TWO + 1):
        if lo <= r <= hi or h[r] < 2:
            continue
        out.append(r)
        if h[r] == 4 and rules.bomb_in_kickers:
            out.append(r)
    return out


def _with_solos(
    body: list[int], h: Counts, lo: int, hi: int, n: int, rules: RuleSet
) -> Iterator[Counts]:
    for kick in _multisets(_solo_avail(h, lo, hi, rules), n):
        if kick[SMALL_JOKER] and kick[BIG_JOKER] and not rules.rocket_in_kickers:
            continue
        yield tuple(b + k for b, k in zip(body, kick, strict=True))


def _with_pairs(
    body: list[int], h: Counts, lo: int, hi: int, n: int, rules: RuleSet
) -> Iterator[Counts]:
    seen = set()
    for combo in combinations(_pair_ranks(h, lo, hi, rules), n):
        if combo in seen:
            continue
        seen.add(combo)
        c = list(body)
        for r in combo:
            c[r] += 2
        yield tuple(c)


def _candidates(h: Counts, kind: str, length: int, above: int, rules: RuleSet) -> Iterator[Counts]:
    """Plays of ``kind`` and ``length`` whose compared rank is above ``above`` (an index)."""
    if kind == "solo":
        for r in range(above + 1, NRANKS):
            if h[r]:
                yield _unit(r, 1)
    elif kind in ("pair", "trio", "bomb"):
        need = {"pair": 2, "trio": 3, "bomb": 4}[kind]
        for r in range(above + 1, TWO + 1):
            if h[r] >= need:
                yield _unit(r, need)
    elif kind == "rocket":
        if h[SMALL_JOKER] and h[BIG_JOKER]:
            c = [0] * NRANKS
            c[SMALL_JOKER] = c[BIG_JOKER] = 1
            yield tuple(c)
    elif kind in ("trio_with_solo", "trio_with_pair"):
        for t in range(above + 1, TWO + 1):
            if h[t] < 3:
                continue
            body = _span(t, t, 3)
            if kind == "trio_with_solo":
                yield from _with_solos(body, h, t, t, 1, rules)
            else:
                yield from _with_pairs(body, h, t, t, 1, rules)
    elif kind in ("four_with_two_solos", "four_with_two_pairs"):
        for f in range(above + 1, TWO + 1):
            if h[f] == 4:
                body = _span(f, f, 4)
                if kind == "four_with_two_solos":
                    yield from _with_solos(body, h, f, f, 2, rules)
                else:
                    yield from _with_pairs(body, h, f, f, 2, rules)
    else:
        per_unit = {
            "chain_of_solos": 1,
            "chain_of_pairs": 2,
            "chain_of_trios": 3,
            "airplane_with_solos": 3,
            "airplane_with_pairs": 3,
            "space_shuttle": 4,
            "space_shuttle_with_solos": 4,
            "space_shuttle_with_pairs": 4,
        }[kind]
        for hi in range(max(above + 1, length - 1), ACE + 1):
            lo = hi - length + 1
            if all(h[r] >= per_unit for r in range(lo, hi + 1)):
                body = _span(lo, hi, per_unit)
                if kind in ("airplane_with_solos", "airplane_with_pairs"):
                    if kind == "airplane_with_solos":
                        yield from _with_solos(body, h, lo, hi, length, rules)
                    else:
                        yield from _with_pairs(body, h, lo, hi, length, rules)
                elif kind == "space_shuttle_with_solos":
                    yield from _with_solos(body, h, lo, hi, 2 * length, rules)
                elif kind == "space_shuttle_with_pairs":
                    yield from _with_pairs(body, h, lo, hi, 2 * length, rules)
                else:
                    yield tuple(body)


def _lead_shapes(n: int, rules: RuleSet) -> Iterator[tuple[str, int]]:
    """Every (type, length) a hand of ``n`` cards might lead (R-MAX bounds)."""
    for kind in (
        "solo",
        "pair",
        "trio",
        "bomb",
        "rocket",
        "trio_with_solo",
        "trio_with_pair",
        "four_with_two_solos",
        "four_with_two_pairs",
    ):
        yield kind, 1
    limits = (
        ("chain_of_solos", 5, 1),
        ("chain_of_pairs", 3, 2),
        ("chain_of_trios", 2, 3),
        ("airplane_with_solos", 2, 4),
        ("airplane_with_pairs", 2, 5),
    )
    for kind, least, size in limits:
        for length in range(least, min(ACE + 1, MAX_PLAY // size, n // size) + 1):
            yield kind, length
    if rules.space_shuttle:
        for kind, size in (
            ("space_shuttle", 4),
            ("space_shuttle_with_solos", 6),
            ("space_shuttle_with_pairs", 8),
        ):
            for length in range(2, min(ACE + 1, MAX_PLAY // size, n // size) + 1):
                yield kind, length


def _sort_key(item: tuple[Counts, frozenset[Reading]]) -> tuple[int, int, int, Counts]:
    counts, readings = item
    first = min(readings, key=lambda r: (TYPE_ORDER[r.type], r.length, RANK_VALUE[r.rank]))
    return (TYPE_ORDER[first.type], first.length, RANK_VALUE[first.rank], counts)


def legal_counts(
    hand: Counts, open_readings: frozenset[Reading] | None, rules: RuleSet | None = None
) -> list[tuple[Counts, frozenset[Reading]]]:
    """Every distinct legal play of ``hand`` as ``(counts, readings taken)``, in order.

    Leading when ``open_readings`` is None (every combination the hand holds, R-LEAD); else
    following (plays that beat an open reading, R-CMP, R-AMBIG), the pass not included.
    """
    rs = rules or CLASSIC
    found: dict[Counts, frozenset[Reading]] = {}
    n = sum(hand)
    if open_readings is None:
        for kind, length in _lead_shapes(n, rs):
            for cand in _candidates(hand, kind, length, -1, rs):
                if cand not in found:
                    readings = classify_counts(cand, rs)
                    if readings:
                        found[cand] = readings
    else:
        shapes: set[tuple[str, int, int]] = set()
        bomb_floor: int | None = None
        rocket_may = False
        for o in open_readings:
            if o.type == "rocket":
                continue
            rocket_may = True
            if o.type == "bomb":
                v = RANK_VALUE[o.rank]
                bomb_floor = v if bomb_floor is None else min(bomb_floor, v)
            else:
                shapes.add((o.type, o.length, RANK_VALUE[o.rank]))
        # A non-bomb open reading lets every bomb in; an open bomb only higher bombs (R-CMP).
        if shapes:
            bomb_floor = -1
        for kind, length, rank in sorted(shapes):
            for cand in _candidates(hand, kind, length, rank, rs):
                if cand not in found:
                    taken = beating_readings(classify_counts(cand, rs), open_readings)
                    if taken:
                        found[cand] = taken
        if bomb_floor is not None:
            for cand in _candidates(hand, "bomb", 1, bomb_floor, rs):
                if cand not in found:
                    taken = beating_readings(classify_counts(cand, rs), open_readings)
                    if taken:
                        found[cand] = taken
        if rocket_may:
            for cand in _candidates(hand, "rocket", 1, -1, rs):
                found[cand] = beating_readings(classify_counts(cand, rs), open_readings)
    return sorted(found.items(), key=_sort_key)


def legal_moves(
    hand: Counts, open_readings: frozenset[Reading] | None, rules: RuleSet | None = None
) -> list[Move]:
    """``legal_counts`` as ``Move`` values, with the pass last when following (R-TRICK)."""
    moves = [Move(format_cards(c), r, c) for c, r in legal_counts(hand, open_readings, rules)]
    if open_readings is not None:
        moves.append(PASS)
    return moves
