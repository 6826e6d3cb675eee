"""Legal plays of a hand, leading or following an open trick (R-LEAD, R-TRICK, R-CMP, R-AMBIG).

Vocabulary:

- *move*: one distinct legal turn: a play (canonical cards with the readings it takes) or a pass.
- *lead*: the first play of a trick; any combination the hand holds. *follow*: a play that beats
  one of the open readings, or a pass.
- *code*: a play packed into one integer, four bits per rank (``count << 4·rank``), so that a
  body plus its kickers is one addition and a dictionary key hashes fast. Private to this module.

The generator builds candidates shape by shape from the hand, then keeps a candidate iff the
checked classification accepts it (``classify_counts`` and ``beating_readings``), so a play is
generated if and only if the checked transition accepts it. Order is deterministic: by shape in
the order of ``TYPES`` (then length, then the compared rank), then by kickers, low first;
following, the pass comes last.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from .cards import ACE, BIG_JOKER, CACHE_LIMIT, NRANKS, RANKS, SMALL_JOKER, TWO, Counts, parse_cards
from .combos import RANK_VALUE, TYPE_ORDER, Reading, beating_readings, classify_counts
from .rules import CLASSIC, RuleSet

__all__ = ["Move", "PASS", "legal_moves", "decode", "code_text"]

UNIT = tuple(1 << (4 * r) for r in range(NRANKS))
_JOKERS_MASK = (1 << SMALL_JOKER) | (1 << BIG_JOKER)
_DECODE: dict[int, Counts] = {}
_CACHE_LIMIT = 150_000
_TEXT: dict[int, str] = {}


class Move(NamedTuple):
    """A legal turn: ``cards`` canonical text ("" for a pass) and the ``readings`` it takes;
    ``counts`` gives the cards as counts (None for a pass). ``str(move)`` is ``"pass"`` or the
    cards.

    >>> str(Move("333444TJ")), str(PASS), PASS.is_pass
    ('333444TJ', 'pass', True)
    """

    cards: str
    readings: frozenset[Reading] = frozenset()

    @property
    def counts(self) -> Counts | None:
        return parse_cards(self.cards) if self.cards else None

    @property
    def is_pass(self) -> bool:
        return not self.cards

    def __str__(self) -> str:
        return self.cards or "pass"

    def __repr__(self) -> str:
        return f"Move({self.cards!r})"


PASS = Move("")


def decode(code: int) -> Counts:
    """Counts of a packed play (cached)."""
    found = _DECODE.get(code)
    if found is None:
        found = tuple((code >> (4 * r)) & 15 for r in range(NRANKS))
        if len(_DECODE) >= CACHE_LIMIT:
            _DECODE.clear()
        _DECODE[code] = found
    return found


def code_text(code: int) -> str:
    """Canonical text of a packed play (cached)."""
    found = _TEXT.get(code)
    if found is None:
        found = "".join(RANKS[r] * ((code >> (4 * r)) & 15) for r in range(NRANKS))
        if len(_TEXT) >= CACHE_LIMIT:
            _TEXT.clear()
        _TEXT[code] = found
    return found


class _Kickers:
    """Kicker sets a hand can add to a body, by size, as ``(code, rank mask)`` (R-KICK)."""

    __slots__ = ("h", "rules", "_solos", "_pairs")

    def __init__(self, h: Counts, rules: RuleSet) -> None:
        self.h = h
        self.rules = rules
        self._solos: dict[int, list[tuple[int, int]]] = {}
        self._pairs: dict[int, list[tuple[int, int]]] = {}

    def solos(self, size: int) -> list[tuple[int, int]]:
        found = self._solos.get(size)
        if found is None:
            rs = self.rules
            # R-KICK 2: solos may repeat a rank (option); 3: never a whole bomb (option).
            cap = (4 if rs.bomb_in_kickers else 3) if rs.solo_kickers_may_pair else 1
            avail = [(r, min(c, cap)) for r, c in enumerate(self.h) if c]
            found = []
            no_rocket = not rs.rocket_in_kickers
            for code, mask in _multisets(avail, 0, size):
                if no_rocket and mask & _JOKERS_MASK == _JOKERS_MASK:
                    continue  # R-KICK 3: never both jokers
                found.append((code, mask))
            self._solos[size] = found
        return found

    def pairs(self, size: int) -> list[tuple[int, int]]:
        found = self._pairs.get(size)
        if found is None:
            # R-KICK 4: real pairs of 3..2 (BB and RR too with four players, R-4P); two pairs
            # of one rank only with bomb_in_kickers.
            per = (2 if self.rules.decks == 1 else 4) if self.rules.bomb_in_kickers else 1
            top = BIG_JOKER if self.rules.family == "four" else TWO
            avail = [(r, min(c // 2, per)) for r, c in enumerate(self.h[: top + 1]) if c >= 2]
            found = [(code * 2, mask) for code, mask in _multisets(avail, 0, size)]
            self._pairs[size] = found
        return found


def _multisets(avail: list[tuple[int, int]], start: int, size: int) -> Iterator[tuple[int, int]]:
    """Multisets of ``size`` items from ``avail`` ((rank, how many may be taken) pairs)."""
    if size == 1 and start == 0:
        for r, _ in avail:
            yield UNIT[r], 1 << r
        return
    if size == 2 and start == 0:
        for i, (r, a) in enumerate(avail):
            u, b = UNIT[r], 1 << r
            if a >= 2:
                yield 2 * u, b
            for r2, _ in avail[i + 1 :]:
                yield u + UNIT[r2], b | (1 << r2)
        return
    if size == 0:
        yield 0, 0
        return
    for i in range(start, len(avail)):
        r, a = avail[i]
        unit = UNIT[r]
        bit = 1 << r
        for take in range(1, min(a, size) + 1):
            for code, mask in _multisets(avail, i + 1, size - take):
                yield code + take * unit, mask | bit


# Space shuttles: (type, cards per four with its kickers).
SHUTTLES = (("space_shuttle", 4), ("space_shuttle_with_solos", 6), ("space_shuttle_with_pairs", 8))

_PER_UNIT = {
    "chain_of_solos": 1,
    "chain_of_pairs": 2,
    "chain_of_trios": 3,
    "airplane_with_solos": 3,
    "airplane_with_pairs": 3,
    "space_shuttle": 4,
    "space_shuttle_with_solos": 4,
    "space_shuttle_with_pairs": 4,
}


def _shape(h: Counts, kind: str, length: int, above: int, kick: _Kickers) -> Iterator[int]:
    """Codes of the plays of ``kind`` and ``length`` whose compared rank is above ``above``."""
    if kind == "solo":
        for r in range(above + 1, NRANKS):
            if h[r]:
                yield UNIT[r]
    elif kind == "bomb" and kick.rules.decks == 2:
        yield from _two_deck_bombs(h, kick.rules)
    elif kind == "rocket" and kick.rules.decks == 2:
        if h[SMALL_JOKER] == 2 and h[BIG_JOKER] == 2:
            yield 2 * UNIT[SMALL_JOKER] + 2 * UNIT[BIG_JOKER]
    elif kind == "pair" and kick.rules.decks == 2:
        for r in range(above + 1, NRANKS):
            if h[r] >= 2:
                yield 2 * UNIT[r]
    elif kind == "pair" or kind == "trio" or kind == "bomb":
        need = 2 if kind == "pair" else 3 if kind == "trio" else 4
        for r in range(above + 1, TWO + 1):
            if h[r] >= need:
                yield need * UNIT[r]
    elif kind == "rocket":
        if h[SMALL_JOKER] and h[BIG_JOKER]:
            yield UNIT[SMALL_JOKER] + UNIT[BIG_JOKER]
    elif kind == "trio_with_solo" or kind == "trio_with_pair":
        for t in range(above + 1, TWO + 1):
            if h[t] >= 3:
                body, bit = 3 * UNIT[t], 1 << t
                kickers = kick.solos(1) if kind == "trio_with_solo" else kick.pairs(1)
                for code, mask in kickers:
                    if not mask & bit:
                        yield body + code
    elif kind == "four_with_two_solos" or kind == "four_with_two_pairs":
        for f in range(above + 1, TWO + 1):
            if h[f] == 4:
                body, bit = 4 * UNIT[f], 1 << f
                kickers = kick.solos(2) if kind == "four_with_two_solos" else kick.pairs(2)
                for code, mask in kickers:
                    if not mask & bit:
                        yield body + code
    else:
        per = _PER_UNIT[kind]
        for hi in range(max(above + 1, length - 1), ACE + 1):
            lo = hi - length + 1
            body = 0
            wmask = 0
            for r in range(lo, hi + 1):
                if h[r] < per:
                    break
                body += per * UNIT[r]
                wmask |= 1 << r
            else:
                if kind == "airplane_with_solos" or kind == "space_shuttle_with_solos":
                    n = length if kind == "airplane_with_solos" else 2 * length
                    for code, mask in kick.solos(n):
                        if not mask & wmask:  # R-KICK 1: no kicker of a body rank
                            yield body + code
                elif kind == "airplane_with_pairs" or kind == "space_shuttle_with_pairs":
                    n = length if kind == "airplane_with_pairs" else 2 * length
                    for code, mask in kick.pairs(n):
                        if not mask & wmask:
                            yield body + code
                else:
                    yield body


def _two_deck_bombs(h: Counts, rules: RuleSet) -> Iterator[int]:
    """Bombs of 4 to 8 cards of a rank, then the joker sets (R-4P rocket, R-5P joker bombs)."""
    for r in range(TWO + 1):
        for k in range(4, h[r] + 1):
            yield k * UNIT[r]
    for b in range(h[SMALL_JOKER] + 1):
        for r in range(h[BIG_JOKER] + 1):
            if b + r >= 2:
                yield b * UNIT[SMALL_JOKER] + r * UNIT[BIG_JOKER]


def _lead_codes(h: Counts, rules: RuleSet, kick: _Kickers) -> Iterator[int]:
    """Candidate leads in type order (``TYPES``): plain sets, trios with kickers, chains and
    airplanes by lowest rank then length, four-with-two, shuttles, bombs, the rocket."""
    held = [r for r in range(NRANKS) if h[r]]
    for r in held:  # solo
        yield UNIT[r]
    two_decks = rules.decks == 2
    for k in (2, 3):  # pair, trio
        for r in held:
            if h[r] >= k and (r <= TWO or two_decks):
                yield k * UNIT[r]
    trios = [t for t in held if h[t] >= 3 and t <= TWO]
    if trios and two_decks:  # trio_with_pair only (R-4P, R-5P)
        for t in trios:
            body, bit = 3 * UNIT[t], 1 << t
            for code, mask in kick.pairs(1):
                if not mask & bit:
                    yield body + code
    elif trios:
        for kind_kickers in (kick.solos(1), kick.pairs(1)):  # trio_with_solo, trio_with_pair
            for t in trios:
                body, bit = 3 * UNIT[t], 1 << t
                for code, mask in kind_kickers:
                    if not mask & bit:
                        yield body + code
    n = sum(h)
    for per, least in ((1, 5), (2, 3), (3, 2)):  # chains of solos, pairs, trios
        for lo in range(ACE + 1):
            body = 0
            for hi in range(lo, ACE + 1):
                if h[hi] < per:
                    break
                body += per * UNIT[hi]
                if hi - lo + 1 >= least and (hi - lo + 1) * per <= rules.max_play:
                    yield body
    if len(trios) >= 2:  # airplanes with solos, then with pairs (R-T9, R-T10)
        for per_unit, pairs in ((5, True),) if two_decks else ((4, False), (5, True)):
            for lo in range(ACE + 1):
                body = 0
                wmask = 0
                for hi in range(lo, ACE + 1):
                    if h[hi] < 3:
                        break
                    body += 3 * UNIT[hi]
                    wmask |= 1 << hi
                    length = hi - lo + 1
                    if length < 2:
                        continue
                    if length * per_unit > min(rules.max_play, n):
                        break
                    kickers = kick.pairs(length) if pairs else kick.solos(length)
                    for code, mask in kickers:
                        if not mask & wmask:  # R-KICK 1: no kicker of a body rank
                            yield body + code
    if two_decks:
        yield from _two_deck_bombs(h, rules)
        return
    fours = [f for f in held if h[f] == 4 and f <= TWO]
    for kind_kickers in (kick.solos(2), kick.pairs(2)) if fours else ():
        for f in fours:
            body, bit = 4 * UNIT[f], 1 << f
            for code, mask in kind_kickers:
                if not mask & bit:
                    yield body + code
    if rules.space_shuttle and len(fours) >= 2:  # R-SHUTTLE, within R-MAX
        for kind, size in SHUTTLES:
            for length in range(2, min(ACE + 1, rules.max_play // size, n // size) + 1):
                yield from _shape(h, kind, length, -1, kick)
    for f in fours:  # bomb
        yield 4 * UNIT[f]
    if h[SMALL_JOKER] and h[BIG_JOKER]:  # rocket
        yield UNIT[SMALL_JOKER] + UNIT[BIG_JOKER]


def _follow_plan(open_readings: frozenset[Reading]) -> list[tuple[str, int, int]]:
    """The shapes that may beat the open readings: ``(type, length, rank above)`` (R-CMP)."""
    shapes: list[tuple[int, str, int, int]] = []
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
            shapes.append((TYPE_ORDER[o.type], o.type, o.length, RANK_VALUE[o.rank]))
    if shapes:
        bomb_floor = -1  # R-CMP: a bomb beats every non-bomb
        shapes.sort()
    candidates: list[tuple[str, int, int]] = [(k, n, a) for _, k, n, a in shapes]
    if bomb_floor is not None:
        candidates.append(("bomb", 1, bomb_floor))
    if rocket_may:
        candidates.append(("rocket", 1, -1))
    return candidates


def _full_move(code: int, rules: RuleSet) -> Move | None:
    """The move of a packed play with all its readings, or None if not a combination (cached
    per rule set under the key ``~code``, a negative int, beside the readings cache)."""
    cache = rules._cache
    if len(cache) > _CACHE_LIMIT:
        cache.clear()  # bounded memory whatever the input
    readings = cache.get(code)
    if readings is None:
        readings = cache[code] = classify_counts(decode(code), rules)
    move = Move(code_text(code), readings) if readings else None
    cache[~code] = move
    return move


def _legal_codes(
    hand: Counts, open_readings: frozenset[Reading] | None, rules: RuleSet
) -> dict[int, Move]:
    cache = rules._cache
    get = cache.get
    kick = _Kickers(hand, rules)
    found: dict[int, Move] = {}
    if open_readings is None:
        for code in _lead_codes(hand, rules, kick):
            move = get(~code, False)
            if move is False:
                move = _full_move(code, rules)
            if move is not None:
                found[code] = move  # a play met twice is the same move
        return found
    plan = get(open_readings)
    if plan is None:
        plan = cache[open_readings] = _follow_plan(open_readings)
    # With one open reading, a candidate of that shape with a single reading beats it: the
    # generator made it of that type and length, above its rank (bombs above the floor).
    single = len(open_readings) == 1 and rules.decks == 1
    for kind, length, above in plan:
        for code in _shape(hand, kind, length, above, kick):
            if code in found:
                continue
            move = get(~code, False)
            if move is False:
                move = _full_move(code, rules)
            if move is None:
                continue
            readings = move.readings
            if single and len(readings) == 1:
                found[code] = move
            else:
                taken = beating_readings(readings, open_readings)
                if taken:
                    found[code] = move if taken == readings else Move(move.cards, taken)
    return found


def legal_moves(
    hand: Counts, open_readings: frozenset[Reading] | None, rules: RuleSet | None = None
) -> list[Move]:
    """Every distinct legal play of ``hand`` as ``Move`` values, in order: leading when
    ``open_readings`` is None (every combination the hand holds, R-LEAD), else following
    (plays that beat an open reading, R-CMP, R-AMBIG) with the pass last (R-TRICK)."""
    moves = list(_legal_codes(hand, open_readings, rules or CLASSIC).values())
    if open_readings is not None:
        moves.append(PASS)
    return moves
