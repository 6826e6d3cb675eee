"""Independent reference classifier for Dou Dizhu plays (one deck, three players).

Built only from the rule book (RULES.md sections 1 and 2) so that the engine's generator can be
checked against a second, deliberately simple method.  It does not import the engine.

Method ("subtract and check"): list every candidate *body* the rule book allows (each type, each
start rank, each length), and for a card multiset try each body in turn: the body must be
contained in the multiset, and what is left over must be exactly a valid kicker set for that type
(R-KICK).  Every body that passes gives one reading (type, length, rank).  No cleverness, no
search order, no shortcuts other than grouping the candidate bodies by total play size.

>>> sorted(classify_text("333444TJ"))
[RefReading(type='airplane_with_solos', length=2, rank='4')]
>>> sorted(classify_text("BR"))
[RefReading(type='rocket', length=1, rank='R')]
>>> classify_text("333444677")
frozenset()
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

# R-RANK: ranks low to high.  Index 0..14.
RANKS = "3456789TJQKA2BR"
N_RANKS = len(RANKS)
IDX_A = RANKS.index("A")  # highest rank a chain body may reach (R-CMP: no 2, no jokers)
IDX_2 = RANKS.index("2")
IDX_B = RANKS.index("B")
IDX_R = RANKS.index("R")
# R-DECK: one deck holds four of each rank 3..2 and one of each joker.
DECK_LIMIT: tuple[int, ...] = (4,) * 13 + (1, 1)
# R-MAX: no play has more cards than the largest hand of the three-player table.
MAX_PLAY = 20

Counts = tuple[int, ...]
KickerKind = Literal["none", "solo", "pair"]


class RefReading(NamedTuple):
    """One reading of a play: RULES.md type name, number of chain units, comparison rank."""

    type: str
    length: int
    rank: str


@dataclass(frozen=True)
class Options:
    """The R-KICK / R-SHUTTLE options, with the rule book's defaults."""

    solo_kickers_may_pair: bool = True
    bomb_in_kickers: bool = False
    rocket_in_kickers: bool = False
    space_shuttle: bool = False

    def as_spec(self) -> dict[str, bool]:
        """The options as an engine option dict (only the ones differing from the default)."""
        default = Options()
        out: dict[str, bool] = {}
        for name in ("solo_kickers_may_pair", "bomb_in_kickers", "rocket_in_kickers"):
            if getattr(self, name) != getattr(default, name):
                out[name] = getattr(self, name)
        if self.space_shuttle != default.space_shuttle:
            out["space_shuttle"] = self.space_shuttle
        return out


DEFAULT = Options()


@dataclass(frozen=True)
class Body:
    """A candidate body: the cards compared, plus what kickers must accompany it."""

    type: str
    length: int
    rank: str
    cards: Counts  # counts per rank of the body itself
    kicker_kind: KickerKind  # "none": nothing may remain; else all solos / all pairs (R-KICK 5)
    n_kickers: int  # number of kicker units (solo cards, or pairs)

    @property
    def size(self) -> int:
        per_unit = 2 if self.kicker_kind == "pair" else 1
        return sum(self.cards) + per_unit * self.n_kickers


def parse(text: str) -> Counts:
    """Counts per rank of a canonical card text (rank letters only, any order, any case).

    >>> parse("333444TJ")
    (3, 3, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0)
    """
    counts = [0] * N_RANKS
    for ch in text.upper():
        counts[RANKS.index(ch)] += 1
    return tuple(counts)


def fmt(counts: Counts) -> str:
    """Canonical text (R-NOTE): ranks ascending.

    >>> fmt(parse("JT433344"))
    '333444TJ'
    """
    return "".join(RANKS[i] * c for i, c in enumerate(counts))


def _unit(start: int, length: int, per_rank: int) -> Counts:
    """Counts of `length` consecutive ranks from `start`, `per_rank` cards each."""
    return tuple(per_rank if start <= i < start + length else 0 for i in range(N_RANKS))


def _single(index: int, n: int) -> Counts:
    return _unit(index, 1, n)


def _chains(per_rank: int, min_len: int) -> Iterator[tuple[int, int, Counts]]:
    """(length, top index, counts) of every chain of `per_rank`-of-a-kind within 3..A."""
    for length in range(min_len, IDX_A + 2):
        for start in range(0, IDX_A - length + 2):
            top = start + length - 1
            assert top <= IDX_A
            yield length, top, _unit(start, length, per_rank)


def candidate_bodies(options: Options = DEFAULT) -> list[Body]:
    """Every body the rule book allows, each with its kicker requirement.

    Bodies whose full play would exceed 20 cards are dropped (R-MAX)."""
    out: list[Body] = []
    for i in range(N_RANKS):
        r = RANKS[i]
        out.append(Body("solo", 1, r, _single(i, 1), "none", 0))  # R-T1
        if i > IDX_2:
            continue  # jokers: one of each in a deck; B+R is the rocket, never a pair (R-T2)
        out.append(Body("pair", 1, r, _single(i, 2), "none", 0))  # R-T2
        out.append(Body("trio", 1, r, _single(i, 3), "none", 0))  # R-T3
        out.append(Body("trio_with_solo", 1, r, _single(i, 3), "solo", 1))  # R-T4
        out.append(Body("trio_with_pair", 1, r, _single(i, 3), "pair", 1))  # R-T5
        out.append(Body("bomb", 1, r, _single(i, 4), "none", 0))  # R-T11
        out.append(Body("four_with_two_solos", 1, r, _single(i, 4), "solo", 2))  # R-T13a
        out.append(Body("four_with_two_pairs", 1, r, _single(i, 4), "pair", 2))  # R-T13b
    rocket = tuple(1 if i in (IDX_B, IDX_R) else 0 for i in range(N_RANKS))
    out.append(Body("rocket", 1, "R", rocket, "none", 0))  # R-T12
    for length, top, cards in _chains(1, 5):  # R-T6
        out.append(Body("chain_of_solos", length, RANKS[top], cards, "none", 0))
    for length, top, cards in _chains(2, 3):  # R-T7
        out.append(Body("chain_of_pairs", length, RANKS[top], cards, "none", 0))
    for length, top, cards in _chains(3, 2):  # R-T8, R-T9, R-T10
        r = RANKS[top]
        out.append(Body("chain_of_trios", length, r, cards, "none", 0))
        out.append(Body("airplane_with_solos", length, r, cards, "solo", length))
        out.append(Body("airplane_with_pairs", length, r, cards, "pair", length))
    if options.space_shuttle:
        for length, top, cards in _chains(4, 2):  # R-SHUTTLE
            r = RANKS[top]
            out.append(Body("space_shuttle", length, r, cards, "none", 0))
            out.append(Body("space_shuttle_with_solos", length, r, cards, "solo", 2 * length))
            out.append(Body("space_shuttle_with_pairs", length, r, cards, "pair", 2 * length))
    return [b for b in out if b.size <= MAX_PLAY]  # R-MAX


@cache
def _bodies_by_size(options: Options) -> dict[int, tuple[Body, ...]]:
    grouped: dict[int, list[Body]] = {}
    for body in candidate_bodies(options):
        grouped.setdefault(body.size, []).append(body)
    return {size: tuple(bodies) for size, bodies in grouped.items()}


def kickers_ok(rest: Counts, body: Body, options: Options = DEFAULT) -> bool:
    """Is `rest` (the cards left after removing the body) exactly a valid kicker set? (R-KICK)"""
    if body.kicker_kind == "none":
        return sum(rest) == 0
    # R-KICK 1: no kicker has the rank of a trio or four of the body.
    if any(rest[i] and body.cards[i] for i in range(N_RANKS)):
        return False
    # R-KICK 3: kickers never contain a whole bomb nor both jokers (unless the options allow).
    if not options.bomb_in_kickers and any(c == 4 for c in rest):
        return False
    if not options.rocket_in_kickers and rest[IDX_B] and rest[IDX_R]:
        return False
    if body.kicker_kind == "solo":
        if sum(rest) != body.n_kickers:
            return False
        # R-KICK 2: solo kickers may repeat a rank, unless the option forbids it.
        return options.solo_kickers_may_pair or all(c <= 1 for c in rest)
    # Pair kickers (R-KICK 4, 5): every kicker card belongs to a real pair of a rank 3..2; a
    # joker can never be paired (one of each; B+R is not a pair).  Two pairs of one rank are a
    # whole bomb, already handled by rule 3 above.
    if sum(rest) != 2 * body.n_kickers:
        return False
    return all(c % 2 == 0 and (c == 0 or i <= IDX_2) for i, c in enumerate(rest))


def classify(counts: Counts, options: Options = DEFAULT) -> frozenset[RefReading]:
    """All readings of the multiset `counts` (per rank) under `options`."""
    if len(counts) != N_RANKS or any(c < 0 for c in counts):
        raise ValueError("counts must be 15 non-negative ints")
    if any(c > lim for c, lim in zip(counts, DECK_LIMIT, strict=True)):
        return frozenset()  # R-NOTE: a set one deck cannot hold has no reading
    found: set[RefReading] = set()
    for body in _bodies_by_size(options).get(sum(counts), ()):
        if any(b > c for b, c in zip(body.cards, counts, strict=True)):
            continue  # body not contained in the play
        rest = tuple(c - b for c, b in zip(counts, body.cards, strict=True))
        if kickers_ok(rest, body, options):
            found.add(RefReading(body.type, body.length, body.rank))
    return frozenset(found)


def classify_text(text: str, options: Options = DEFAULT) -> frozenset[RefReading]:
    """classify() on a card text such as "333444TJ"."""
    return classify(parse(text), options)


def sub_multisets(hand: Counts) -> Iterator[Counts]:
    """Every non-empty sub-multiset of `hand`, each exactly once."""
    for counts in itertools.product(*(range(c + 1) for c in hand)):
        if any(counts):
            yield tuple(counts)


def lead_count(hand: Counts, options: Options = DEFAULT) -> int:
    """Number of distinct legal leads: non-empty sub-multisets of the hand with a reading."""
    return sum(1 for sub in sub_multisets(hand) if classify(sub, options))


def leads(hand: Counts, options: Options = DEFAULT) -> list[str]:
    """The legal leads themselves, canonical text, sorted."""
    return sorted(fmt(sub) for sub in sub_multisets(hand) if classify(sub, options))
