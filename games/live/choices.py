"""Move menus: the buttons a seat device shows so that a player records a step with one tap.

Vocabulary:

- *choice*: one button. Its ``step`` is the exact text the live entry takes
  (games.steps.apply_step): a call word, ``pass``, or canonical cards (R-NOTE); a play whose
  readings differ in type (R-AMBIG) gets one choice per type, step ``cards@type``, so that the
  tap also settles the reading.
- *menu*: the ``primary`` buttons shown at once, and the other legal choices in ``groups``, one
  group per type name (RULES.md §2): opening a group is one more tap. Every legal move of the
  position is in the menu (primary or a group), and every choice is a move the engine accepts.
- *natural split*: a decomposition of a hand into few combinations, as players sort their
  cards before a lead (see `natural_split`).
- *taps*: what a step costs in the interface (see `taps`).

Pure: the standard library and games.engine only. Rule ids (R-…) refer to docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engine import Move, Reading, RuleSet, check_hand, classify, legal_plays, parse_hand
from games.engine.bidding import normalize_call
from games.engine.cards import (
    ACE,
    BIG_JOKER,
    NRANKS,
    RANKS,
    SMALL_JOKER,
    TWO,
    Counts,
    format_cards,
    is_pass_text,
    parse_cards,
)
from games.engine.combos import TYPE_ORDER, bomb_power, classify_counts
from games.engine.moves import legal_moves

__all__ = [
    "PRIMARY_SIZE",
    "Choice",
    "Menu",
    "call_menu",
    "natural_split",
    "play_menu",
    "taps",
]

# Primary buttons a 375 px phone shows at once: three columns of 44 px high tap targets (the
# usual minimum for a finger) are about 115 px wide each, enough for a play of a dozen ranks
# in a 14 px font (longer ones wrap), and three rows of them leave room under the hand and the
# table for the group tabs and the typed-entry fallback. Nine buttons: pass plus eight plays when
# following, the whole natural split of a typical hand when leading.
PRIMARY_SIZE = 9

_CACHE_SIZE = 4096  # menus kept: a table's positions repeat while a page refreshes
_BOMBS = ("bomb", "rocket")
# Cards of one rank in a unit of the body of each kickered type (R-T4, R-T5, R-T9, R-T10,
# R-T13a, R-T13b, R-SHUTTLE); the other types have no kickers, their body is the whole play.
_BODY_PER_UNIT = {
    "trio_with_solo": 3,
    "trio_with_pair": 3,
    "airplane_with_solos": 3,
    "airplane_with_pairs": 3,
    "four_with_two_solos": 4,
    "four_with_two_pairs": 4,
    "space_shuttle_with_solos": 4,
    "space_shuttle_with_pairs": 4,
}


@dataclass(frozen=True)
class Choice:
    """One button: ``step`` (the live-entry text: call word, ``pass``, cards or
    ``cards@type``), ``kind`` (``call``, ``pass`` or the RULES.md type name of the play) and
    ``cards`` (canonical cards, "" for a call or a pass)."""

    step: str
    kind: str
    cards: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"step": self.step, "kind": self.kind, "cards": self.cards}


@dataclass(frozen=True)
class Menu:
    """The buttons of one position: ``primary`` (shown at once, in order) and ``groups``
    (``(type name, choices)`` in RULES.md type order, each opened by one tap)."""

    primary: tuple[Choice, ...]
    groups: tuple[tuple[str, tuple[Choice, ...]], ...] = ()

    def choices(self) -> Iterable[Choice]:
        """Every choice of the menu, primary first."""
        yield from self.primary
        for _kind, group in self.groups:
            yield from group

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: ``{"primary": [choice], "groups": [{"kind", "choices": [choice]}]}``,
        each choice ``{"step", "kind", "cards"}``."""
        return {
            "primary": [c.to_dict() for c in self.primary],
            "groups": [
                {"kind": kind, "choices": [c.to_dict() for c in group]}
                for kind, group in self.groups
            ],
        }


def call_menu(calls: Sequence[str]) -> Menu:
    """The bidding buttons: every allowed call is a primary button, in the engine's order.

    Args:
        calls: the engine's words, ``Bidding.legal_calls()`` during the bidding (R-BID-*,
            R-DOUBLE-ORDER) or ``Bidding.optional_calls()`` before the first lead (show,
            surrender, reveal: R-SC-ROB, R-SURRENDER, R-5P).

    Returns:
        A menu without groups; a pass word is a choice of kind ``pass``, any other ``call``.
    """
    primary = []
    for call in calls:
        word = normalize_call(call)
        primary.append(Choice(word, "pass" if word == "pass" else "call"))
    return Menu(tuple(primary))


# -- ordering ---------------------------------------------------------------------------------


def _body(reading: Reading) -> Counts:
    """The compared part of a play read as ``reading`` (its kickers are the rest)."""
    per = _BODY_PER_UNIT.get(reading.type)
    out = [0] * NRANKS
    if per is not None:
        top = RANKS.index(reading.rank)
        span = reading.length if reading.type.startswith(("airplane", "space")) else 1
        for r in range(top - span + 1, top + 1):
            out[r] = per
    return tuple(out)


def _order(cards: str, kind: str, readings: Iterable[Reading]) -> tuple[Any, ...]:
    """Lowest first: ordinary plays by type, length, compared rank, then kickers low first;
    bombs after them by bomb order (R-CMP, R-4P, R-5P); the rocket last."""
    low = _lowest(readings, kind)
    tier = _BOMBS.index(kind) + 1 if kind in _BOMBS else 0
    power = bomb_power(low) if kind == "bomb" else (0, 0)
    counts = parse_cards(cards)
    body = _body(low)
    kickers = tuple(r for r in range(NRANKS) for _ in range(counts[r] - body[r]))
    return (tier, power, TYPE_ORDER[kind], low.length, low.value, kickers if any(body) else ())


def _lowest(readings: Iterable[Reading], kind: str) -> Reading:
    """The reading of type ``kind`` with the fewest units and the lowest compared rank."""
    return min((r for r in readings if r.type == kind), key=lambda r: (r.length, r.value))


def _choices(move: Move) -> list[Choice]:
    """The choices of one legal move: one, or one per type when its readings differ in type
    (R-AMBIG: the tap declares the reading, ``cards@type``)."""
    if move.is_pass:
        return [Choice("pass", "pass")]
    kinds = sorted({r.type for r in move.readings}, key=TYPE_ORDER.__getitem__)
    if len(kinds) == 1:
        return [Choice(move.cards, kinds[0], move.cards)]
    return [Choice(f"{move.cards}@{k}", k, move.cards) for k in kinds]


def _grouped(choices: Iterable[Choice]) -> tuple[tuple[str, tuple[Choice, ...]], ...]:
    by_kind: dict[str, list[Choice]] = {}
    for choice in choices:
        by_kind.setdefault(choice.kind, []).append(choice)
    return tuple(
        (kind, tuple(by_kind[kind])) for kind in sorted(by_kind, key=TYPE_ORDER.__getitem__)
    )


# -- the natural split ------------------------------------------------------------------------


def _kind(counts: Counts, rules: RuleSet, prefer: str) -> str | None:
    """The type ``prefer`` if the cards read so, else their first type; None when they are no
    combination under ``rules`` (R-T…, R-KICK, R-4P, R-5P)."""
    kinds = {r.type for r in classify_counts(counts, rules)}
    if prefer in kinds:
        return prefer
    return min(kinds, key=TYPE_ORDER.__getitem__) if kinds else None


def _runs(c: list[int], per: int, least: int) -> list[tuple[int, int]]:
    """Maximal runs ``(lo, hi)`` of ranks within 3..A holding ``per`` cards or more, at least
    ``least`` long (the chain bodies of R-T6, R-T7, R-T8)."""
    runs = []
    lo = None
    for r in range(ACE + 2):
        if r <= ACE and c[r] >= per:
            lo = r if lo is None else lo
        else:
            if lo is not None and r - lo >= least:
                runs.append((lo, r - 1))
            lo = None
    return runs


def _take_chains(c: list[int], per: int, least: int, most: int) -> list[Counts]:
    """Take chains of ``per`` cards a rank from ``c``, lowest run first. An end rank that holds
    more than ``per`` cards is left out while the chain stays long enough, so that a chain does
    not break a pair or a trio it can do without."""
    chains: list[Counts] = []
    while True:
        runs = _runs(c, per, least)
        if not runs:
            return chains
        lo, hi = runs[0]
        hi = min(hi, lo + most - 1)
        while hi - lo + 1 > least and c[hi] > per:
            hi -= 1
        while hi - lo + 1 > least and c[lo] > per:
            lo += 1
        chain = [0] * NRANKS
        for r in range(lo, hi + 1):
            chain[r] = per
            c[r] -= per
        chains.append(tuple(chain))


def _sets(c: list[int], rules: RuleSet) -> list[tuple[Counts, str]]:
    """What is left once the chains are taken, as airplanes, trios, pairs and solos, the trios
    and airplanes taking the smallest kickers (solos first, then pairs; never a 2 or a joker,
    which players keep to win tricks; R-KICK)."""
    out: list[tuple[Counts, str]] = []
    bodies: list[list[int]] = []
    for lo, hi in _runs(c, 3, 2):  # airplanes (R-T8) within R-MAX with their wings
        hi = min(hi, lo + rules.max_play // 3 - 1)
        bodies.append([r for r in range(lo, hi + 1)])
        for r in range(lo, hi + 1):
            c[r] -= 3
    bodies += [[r] for r in range(TWO + 1) if c[r] == 3]
    for r in range(TWO + 1):
        if c[r] == 3:
            c[r] = 0
    solos = [r for r in range(ACE + 1) if c[r] == 1]
    pairs = [r for r in range(ACE + 1) if c[r] == 2]
    for body in bodies:
        n = len(body)
        base = [0] * NRANKS
        for r in body:
            base[r] = 3
        plain = "trio" if n == 1 else "chain_of_trios"
        for pool, size, kind in (
            (solos, 1, "trio_with_solo" if n == 1 else "airplane_with_solos"),
            (pairs, 2, "trio_with_pair" if n == 1 else "airplane_with_pairs"),
        ):
            if len(pool) >= n and (3 + size) * n <= rules.max_play:
                play = list(base)
                for r in pool[:n]:
                    play[r] = size
                found = _kind(tuple(play), rules, kind)
                if found == kind:
                    for r in pool[:n]:
                        c[r] = 0
                    del pool[:n]
                    out.append((tuple(play), kind))
                    break
        else:
            out.append((tuple(base), plain))
    for r in range(NRANKS):
        while c[r]:
            take = 2 if c[r] >= 2 else 1
            unit = tuple(take if i == r else 0 for i in range(NRANKS))
            if take == 2 and _kind(unit, rules, "pair") != "pair":
                take = 1  # not a pair under these rules (B+R, R-T2): two solos
                unit = tuple(1 if i == r else 0 for i in range(NRANKS))
            c[r] -= take
            out.append((unit, "pair" if take == 2 else "solo"))
    return out


def _whole(c: list[int], rules: RuleSet) -> list[tuple[Counts, str]]:
    """Take the bombs and the rocket (or joker bombs) out of ``c``: players keep them whole."""
    out: list[tuple[Counts, str]] = []
    jokers = tuple(c[r] if r in (SMALL_JOKER, BIG_JOKER) else 0 for r in range(NRANKS))
    kind = _kind(jokers, rules, "rocket") if sum(jokers) >= 2 else None
    for r in range(TWO + 1):
        if c[r] >= 4:
            unit = tuple(c[r] if i == r else 0 for i in range(NRANKS))
            if _kind(unit, rules, "bomb") == "bomb":
                out.append((unit, "bomb"))
                c[r] = 0
    if kind in _BOMBS:
        out.append((jokers, kind or ""))
        c[SMALL_JOKER] = c[BIG_JOKER] = 0
    return out


# The ways players look at a hand, tried in this order: trios kept apart from the chains or
# not, straights (1 card a rank) before pair chains (2) or after, or no chain at all. The way
# that leaves the fewest combinations (then the fewest solos, the hardest cards to get rid of)
# wins; the first in this order on a tie.
_WAYS: tuple[tuple[bool, tuple[int, ...]], ...] = (
    (True, (1, 2)),
    (True, (2, 1)),
    (False, (1, 2)),
    (False, (2, 1)),
    (False, ()),
)


@lru_cache(maxsize=_CACHE_SIZE)
def _split(counts: Counts, rules: RuleSet) -> tuple[tuple[Counts, str], ...]:
    rest = list(counts)
    whole = _whole(rest, rules)
    solo_most = min(ACE + 1, rules.max_play)
    pair_most = min(ACE + 1, rules.max_play // 2)
    best: list[tuple[Counts, str]] = []
    best_key: tuple[int, int] | None = None
    for keep_trios, order in _WAYS:
        c = list(rest)
        kept = [3 if x == 3 and keep_trios else 0 for x in c]
        c = [x - k for x, k in zip(c, kept, strict=True)]
        plays: list[tuple[Counts, str]] = []
        for per in order:
            least, most = (5, solo_most) if per == 1 else (3, pair_most)
            kind = "chain_of_solos" if per == 1 else "chain_of_pairs"
            plays += [(chain, kind) for chain in _take_chains(c, per, least, most)]
        c = [x + k for x, k in zip(c, kept, strict=True)]
        plays += _sets(c, rules)
        key = (len(plays), sum(1 for _p, k in plays if k == "solo"))
        if best_key is None or key < best_key:
            best, best_key = plays, key
    # Lowest card first (leading from the bottom), bombs and the rocket last.
    best.sort(key=lambda p: _low(p[0]))
    return tuple(best + whole)


def _low(counts: Counts) -> int:
    return next(r for r in range(NRANKS) if counts[r])


def natural_split(hand: str, rules: RuleSet | None = None) -> tuple[Choice, ...]:
    """The hand cut into few combinations, the way players sort their cards before a lead.

    Heuristic (deterministic):

    1. bombs and the rocket (the joker bombs at five players) are kept whole (R-T11, R-T12);
    2. chains are taken in five ways (`_WAYS`): with the trios kept apart or not, straights
       (R-T6) before pair chains (R-T7) or after, or no chain; a chain comes from the lowest
       run of the hand and leaves out an end rank whose pair or trio it can do without, as
       long as it stays long enough;
    3. what is left becomes airplanes (consecutive trios, R-T8), trios, pairs and solos; each
       trio or airplane takes the smallest solo kickers, else the smallest pair kickers, never
       a 2 or a joker, which players keep to win tricks (R-T4, R-T5, R-T9, R-T10, R-KICK);
    4. the way with the fewest combinations wins, then the one with the fewest solos, then
       the first.

    Combinations come lowest card first, then bombs and the rocket. Each is a legal lead of
    the hand (R-LEAD); a play that reads in several types (R-AMBIG) declares the intended one.

    Raises:
        NotationError: bad notation (R-NOTE); DealError: more cards than the deck (R-DECK).

    >>> [c.step for c in natural_split("34567999JJQQKK2BR")]
    ['34567', '999', 'JJQQKK', '2', 'BR']
    """
    rs = rules or RuleSet.from_spec("classic")
    counts = parse_hand(hand)
    check_hand(counts, rs)
    out = []
    for play, intended in _split(counts, rs):
        cards = format_cards(play)
        kinds = {r.type for r in classify_counts(play, rs)}
        kind = intended if intended in kinds else min(kinds, key=TYPE_ORDER.__getitem__)
        out.append(Choice(cards if len(kinds) == 1 else f"{cards}@{kind}", kind, cards))
    return tuple(out)


# -- menus of the play --------------------------------------------------------------------------


def play_menu(
    hand: str,
    previous: str | None,
    rules: RuleSet,
    *,
    primary_size: int = PRIMARY_SIZE,
    open_readings: frozenset[Reading] | None = None,
) -> Menu:
    """The buttons of the seat to play (R-LEAD, R-TRICK, R-CMP, R-AMBIG).

    Following (``previous`` is the open play, every reading of it open unless
    ``open_readings`` gives those the trick still has, ``GameState.open``): pass first, always
    in the same place and the most frequent answer, then the plays that beat it lowest first
    (same type by compared rank then kickers low first, then bombs by bomb order, the rocket
    last), up to ``primary_size`` buttons in all; the rest grouped by type.

    Leading (``previous`` None): the natural split of the hand (`natural_split`), then what
    its parts suggest (a trio's kicker alone and the trio bare, a chain at full length), the
    lowest solo, pair and trio of the hand, then the other plays holding the lowest cards
    first, up to ``primary_size``; the rest grouped by type.

    Every legal move is a choice (one per type for a play read in several types), and every
    choice is a step the engine accepts. Menus are cached per position and size.

    Raises:
        ValueError: ``primary_size`` below 2. NotationError, DealError, IllegalPlayError: bad
        cards, or a previous play that is a pass or no combination (as ``legal_plays``).
    """
    if primary_size < 2:
        raise ValueError(f"primary_size must be 2 or more, not {primary_size}")
    if previous is None:
        open_readings = None
    return _play_menu(hand, previous, rules, primary_size, open_readings)


@lru_cache(maxsize=_CACHE_SIZE)
def _play_menu(
    hand: str,
    previous: str | None,
    rules: RuleSet,
    size: int,
    open_readings: frozenset[Reading] | None,
) -> Menu:
    if open_readings:
        counts = parse_hand(hand)
        check_hand(counts, rules)
        moves = legal_moves(counts, open_readings, rules)
    else:
        moves = legal_plays(hand, previous, rules)
    keyed = []
    for move in moves:
        for choice in _choices(move):
            key = (-1,) if move.is_pass else _order(choice.cards, choice.kind, move.readings)
            keyed.append((key, choice))
    keyed.sort(key=lambda kc: kc[0])
    ordered = [choice for _key, choice in keyed]
    primary = ordered[:size] if previous is not None else _lead_primary(hand, ordered, rules, size)
    chosen = set(primary)
    return Menu(tuple(primary), _grouped(c for c in ordered if c not in chosen))


def _lead_primary(hand: str, ordered: list[Choice], rules: RuleSet, size: int) -> list[Choice]:
    """The primary buttons of a lead: the natural split, then the likeliest other leads."""
    by_cards: dict[str, list[Choice]] = {}
    for choice in ordered:
        by_cards.setdefault(choice.cards, []).append(choice)

    def pick(cards: str, kind: str) -> list[Choice]:
        found = by_cards.get(cards, [])
        return [c for c in found if c.kind == kind][:1] or found[:1]

    split = natural_split(hand, rules)
    counts = parse_hand(hand)
    wanted: list[Choice] = []
    for choice in split:
        wanted += pick(choice.cards, choice.kind)
    for choice in split:
        for cards, kind in _variants(choice, counts, rules):
            wanted += pick(cards, kind)
    for kind in ("solo", "pair", "trio"):  # the lowest of each: leads from the bottom
        wanted += [c for c in ordered if c.kind == kind][:1]
    wanted += sorted(ordered, key=lambda c: (_low(parse_cards(c.cards)), len(c.cards)))
    primary: list[Choice] = []
    for choice in wanted:
        if choice not in primary:
            primary.append(choice)
            if len(primary) == size:
                break
    return primary


def _variants(choice: Choice, hand: Counts, rules: RuleSet) -> list[tuple[str, str]]:
    """Other leads a split combination suggests, as ``(cards, type)``: a kickered trio or
    airplane's kickers alone and its body without them; a chain at its full length, as far
    as the hand runs from its lowest rank (it may break a pair or trio the split kept)."""
    low = _lowest(classify(choice.cards, rules), choice.kind)
    counts = parse_cards(choice.cards)
    out: list[tuple[str, str]] = []
    if choice.kind.startswith(("trio_with", "airplane")):
        body = _body(low)
        for r in range(NRANKS):
            if counts[r] and not body[r]:
                out.append((RANKS[r] * counts[r], "solo" if counts[r] == 1 else "pair"))
        out.append((format_cards(body), "trio" if low.length == 1 else "chain_of_trios"))
    elif choice.kind in ("chain_of_solos", "chain_of_pairs"):
        per = 1 if choice.kind == "chain_of_solos" else 2
        lo = _low(counts)
        hi = lo
        while hi + 1 <= ACE and hand[hi + 1] >= per and (hi + 2 - lo) * per <= rules.max_play:
            hi += 1
        if hi > RANKS.index(low.rank):
            out.append(("".join(RANKS[r] * per for r in range(lo, hi + 1)), choice.kind))
    return out


# -- the cost of a step ---------------------------------------------------------------------------


def taps(menu: Menu, step: str, rules: RuleSet) -> int:
    """The taps ``step`` costs with ``menu``: 1 on a primary button, 2 in a group (open it,
    tap), else typed entry: one tap a card plus one to play, plus one to choose the reading
    when the play reads in several types (R-AMBIG); a pass the menu lacks is typed entry's one
    pass key. Steps compare by canonical cards (R-NOTE), a declared reading (``cards@type``)
    by its type too; any pass word is a pass, a call by the engine's word (``normalize_call``).

    Raises:
        NotationError: the step is neither a call of the menu, a pass, nor card notation.
    """
    text = step.strip()
    word = normalize_call(text)
    is_pass = is_pass_text(text) or word == "pass"
    if not is_pass and any(c.kind == "call" and c.step == word for c in menu.primary):
        return 1
    cards_text, _at, declared = text.partition("@")
    cards = "" if is_pass else format_cards(parse_cards(cards_text))
    declared = declared.strip()

    def match(choice: Choice) -> bool:
        if is_pass:
            return choice.kind == "pass"
        return choice.cards == cards and declared in ("", choice.kind)

    if any(match(c) for c in menu.primary):
        return 1
    if any(match(c) for _kind, group in menu.groups for c in group):
        return 2
    if is_pass:
        return 1
    kinds = {r.type for r in classify(cards, rules)}
    return len(cards) + 1 + (1 if len(kinds) > 1 else 0)
