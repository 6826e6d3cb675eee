"""Cards and their notation (R-RANK, R-DECK, R-NOTE, R-SUIT).

Vocabulary:

- *rank*: one of ``3 4 5 6 7 8 9 T J Q K A 2 B R`` (R-RANK), low to high; ``B`` is the small
  joker and ``R`` the big joker. Internally a rank is its index 0..14 in that order.
- *counts* (``Counts``): a tuple of 15 ints, how many cards of each rank; the engine's value for
  a hand, a play or a deck. Suits never matter in play (R-RANK).
- *canonical text*: ranks ascending, no separators (``333444TJ``); formatting then parsing is
  the identity (R-NOTE).
- *suited card*: a physical card of a deal (R-SUIT): suit letter ``S H D C`` and a rank
  (``S3``, ``HT``), or a joker ``BJ`` / ``RJ``; written separated by single spaces. With two
  decks each card carries its deck, ``a`` or ``b`` (``S3a``, ``S3b``, ``BJb``).

Invariant: a ``Counts`` value never has a negative entry; a one-deck value has at most 4 of each
rank 3..2 and at most one of each joker.
"""

from __future__ import annotations

import operator
import random
import re
from collections.abc import Iterable
from typing import Any

from .errors import DealError, NotationError

__all__ = [
    "RANKS",
    "NRANKS",
    "Counts",
    "ONE_DECK",
    "TWO_DECKS",
    "deck_counts",
    "check_hand",
    "parse_hand",
    "parse_cards",
    "format_cards",
    "parse_play",
    "is_pass_text",
    "contains",
    "subtract",
    "add",
    "SUITED_DECK",
    "parse_suited",
    "format_suited",
    "suited_to_counts",
    "looks_suited",
    "shuffled_deck",
]

RANKS = "3456789TJQKA2BR"
NRANKS = 15
TWO, SMALL_JOKER, BIG_JOKER = 12, 13, 14
ACE = 11

Counts = tuple[int, ...]
ONE_DECK: Counts = (4,) * 13 + (1, 1)
TWO_DECKS: Counts = (8,) * 13 + (2, 2)

# Single characters accepted for each rank (R-NOTE), upper-cased before lookup.
_CHAR_RANK: dict[str, int] = {c: i for i, c in enumerate(RANKS)}
_CHAR_RANK.update({"X": SMALL_JOKER, "☆": SMALL_JOKER, "D": BIG_JOKER, "★": BIG_JOKER})
_WORD_RANK: dict[str, int] = {
    "10": 7,
    "小王": SMALL_JOKER,
    "小怪": SMALL_JOKER,
    "大王": BIG_JOKER,
    "大怪": BIG_JOKER,
}
_SEPARATORS = frozenset(" ,-\t")
# R-NOTE's words for a pass in the play (is_pass_text; the live entry page's checker too).
PASS_WORDS = ("pass", "p", "-", "不要", "过", "過", "不出")
_PASS_WORDS = frozenset(PASS_WORDS)

_PARSE_CACHE: dict[str, Counts] = {}
CACHE_LIMIT = 50_000  # entries per memo table: bounded memory whatever the input


def _remember(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[key] = value


_STRIP_RANKS = str.maketrans("", "", RANKS)
_FORMAT_CACHE: dict[Counts, str] = {}


def parse_cards(text: str) -> Counts:
    """Parse card notation (R-NOTE) into counts per rank.

    Accepts every alias: ``10`` for ``T``, lower case, separators (space, comma, ``-``),
    ``X ☆ 小王 小怪`` for the small joker and ``D ★ 大王 大怪`` for the big one. A set the deck
    cannot hold (``BB``) parses; it simply has no reading later.

    Raises:
        NotationError: naming the first bad character and its 1-based position.

    >>> format_cards(parse_cards("3-3-3-9"))
    '3339'
    >>> format_cards(parse_cards("10 j q k a"))
    'TJQKA'
    >>> format_cards(parse_cards("小王大王"))
    'BR'
    """
    cached = _PARSE_CACHE.get(text)
    if cached is not None:
        return cached
    if not text.translate(_STRIP_RANKS):  # plain rank letters only: count them in C
        result = tuple(map(text.count, RANKS))
        _remember(_PARSE_CACHE, text, result)
        return result
    counts = [0] * NRANKS
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        r = _CHAR_RANK.get(ch.upper()) if ch.isascii() or ch in "☆★" else None
        if r is not None:
            counts[r] += 1
            i += 1
            continue
        pair = text[i : i + 2]
        r = _WORD_RANK.get(pair)
        if r is not None:
            counts[r] += 1
            i += 2
            continue
        if ch in _SEPARATORS:
            i += 1
            continue
        raise NotationError(text, i + 1, ch)
    result = tuple(counts)
    _remember(_PARSE_CACHE, text, result)
    return result


def format_cards(counts: Iterable[int]) -> str:
    """Canonical text of counts: ranks ascending, no separators (R-NOTE).

    >>> format_cards((3, 3) + (0,) * 5 + (1, 1) + (0,) * 6)
    '333444TJ'
    """
    key = tuple(counts)
    cached = _FORMAT_CACHE.get(key)
    if cached is not None:
        return cached
    text = "".join(RANKS[r] * c for r, c in enumerate(key))
    _remember(_FORMAT_CACHE, key, text)
    return text


def is_pass_text(text: str) -> bool:
    """True when ``text`` is one of R-NOTE's words for a pass (``pass p - 不要 过 過 不出``)."""
    return text.strip().lower() in _PASS_WORDS


def parse_play(text: str) -> Counts | None:
    """Parse a turn: None for a pass (R-NOTE's pass words), else the counts of the cards.

    Raises:
        NotationError: bad character, or an empty play.
    """
    if is_pass_text(text):
        return None
    counts = parse_cards(text)
    if not any(counts):
        raise NotationError(
            text, 1, text[:1] or " ", what="play (no cards)", code="notation.no_cards"
        )
    return counts


def contains(hand: Counts, part: Counts) -> bool:
    """True when ``part`` is a sub-multiset of ``hand``."""
    return all(map(operator.le, part, hand))


def subtract(hand: Counts, part: Counts) -> Counts:
    """``hand`` minus ``part`` (caller checks ``contains`` first)."""
    return tuple(map(operator.sub, hand, part))


def add(a: Counts, b: Counts) -> Counts:
    """Sum of two multisets."""
    return tuple(map(operator.add, a, b))


# ---------------------------------------------------------------------------------------------
# Suited cards (R-SUIT)

SUITS = "SHDC"
SUITED_DECK: tuple[str, ...] = tuple(s + r for r in RANKS[:13] for s in SUITS) + ("BJ", "RJ")
SUITED_TWO_DECKS: tuple[str, ...] = tuple(c + d for d in "ab" for c in SUITED_DECK)
_TOKEN = r"(?:[SHDC](?:10|[3-9TJQKA2])|BJ|RJ)[ab]?"
_SUITED_TOKEN = re.compile(_TOKEN)
_SUITED_TEXT = re.compile(rf"\s*{_TOKEN}(?:[\s,]+{_TOKEN})*\s*")


def deck_counts(decks: int) -> Counts:
    """Counts of one deck or of two decks (R-DECK)."""
    return ONE_DECK if decks == 1 else TWO_DECKS


def looks_suited(text: str) -> bool:
    """True when ``text`` is written as suited cards: two or more tokens like ``S3 HT BJ``.

    A lone token is read as rank notation; ``BJ`` alone is therefore small joker + jack.
    """
    return bool(_SUITED_TEXT.fullmatch(text)) and len(text.split()) > 1


def parse_suited(text: str) -> list[str]:
    """Split suited text into canonical card tokens (``10`` becomes ``T``).

    Raises:
        NotationError: a token that is not a suited card, with its 1-based position.
    """
    tokens: list[str] = []
    for m in re.finditer(r"[^\s,]+", text):
        tok = m.group(0)
        if not _SUITED_TOKEN.fullmatch(tok):
            raise NotationError(
                text, m.start() + 1, tok[:1], what="suited cards", code="notation.bad_suited"
            )
        tokens.append(tok.replace("10", "T"))
    return tokens


def suited_to_counts(tokens: Iterable[str]) -> Counts:
    """Counts per rank of suited card tokens."""
    counts = [0] * NRANKS
    for tok in tokens:
        if tok.startswith("BJ"):
            counts[SMALL_JOKER] += 1
        elif tok.startswith("RJ"):
            counts[BIG_JOKER] += 1
        else:
            counts[_CHAR_RANK[tok[1]]] += 1
    return tuple(counts)


def _suited_key(tok: str) -> tuple[int, int, str]:
    if tok[:2] in ("BJ", "RJ"):
        return (_CHAR_RANK[tok[0]], 0, tok[2:])
    return (_CHAR_RANK[tok[1]], SUITS.index(tok[0]), tok[2:])


def format_suited(tokens: Iterable[str]) -> str:
    """Suited cards sorted by rank then suit (S H D C), separated by single spaces."""
    return " ".join(sorted(tokens, key=_suited_key))


def shuffled_deck(rng: random.Random, decks: int = 1) -> list[str]:
    """The 54 (or 108) suited cards in an order drawn from ``rng`` (an unbiased Fisher–Yates
    shuffle)."""
    deck = list(SUITED_DECK if decks == 1 else SUITED_TWO_DECKS)
    rng.shuffle(deck)
    return deck


def check_hand(counts: Counts, rules: Any = None) -> None:
    """Raise ``DealError`` (R-DECK) when the deck of ``rules`` (a RuleSet; None for one deck)
    cannot hold these cards."""
    deck = deck_counts(rules.decks if rules is not None else 1)
    over = [f"{c} × {RANKS[r]}" for r, (c, d) in enumerate(zip(counts, deck, strict=True)) if c > d]
    if over:
        what = "one deck holds" if deck[0] == 4 else "two decks hold"
        raise DealError(
            f"no hand holds {', '.join(over)}: {what} at most "
            f"{deck[0]} of a rank and {deck[13]} of each joker",
            rule="R-DECK",
            code="deal.too_many_of_rank",
            params={
                "over": [
                    f"{RANKS[r]}×{c}"
                    for r, (c, d) in enumerate(zip(counts, deck, strict=True))
                    if c > d
                ]
            },
        )


def parse_hand(text: str) -> Counts:
    """Counts of a hand written in rank notation (R-NOTE) or as suited cards (R-SUIT).

    Raises:
        NotationError: bad character or token, with its position.
    """
    if " " in text and looks_suited(text):
        return suited_to_counts(parse_suited(text))
    return parse_cards(text)
