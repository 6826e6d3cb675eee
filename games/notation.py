"""Deal notation on the Django side: cards by rank or with suits, and the identity of a deal.

A deal's cards are written by rank (R-NOTE, e.g. "33445TJ") or with suits (R-SUIT: tokens
`S3 H3 D4 … BJ RJ` separated by spaces). Two deals are *the same deal* when every seat holds the
same ranks, the bottom cards have the same ranks and the first bidder is the same: suits never
affect play (R-RANK), so a board imported by rank and the same board dealt with suits match.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping

from games.engine import format_cards, parse_cards

# With two decks (four and five players) each card also names its deck, a or b (R-SUIT).
_SUITED_TOKEN = re.compile(r"^(?:[SHDC](?:10|[3-9TJQKA2])|BJ|RJ)[ab]?$")


def is_suited(text: str) -> bool:
    """Whether `text` is written with suits (every token a suited card, R-SUIT).

    >>> is_suited("S3 H3 BJ"), is_suited("334BR"), is_suited("BJ")
    (True, False, False)
    """
    tokens = text.split()
    if not tokens or not all(_SUITED_TOKEN.match(t) for t in tokens):
        return False
    # A lone "BJ" or "RJ" also reads by rank (joker and jack), so only a suit letter or several
    # tokens make the text suited.
    return len(tokens) > 1 or tokens[0][0] in "SHDC"


def rank_cards(text: str) -> str:
    """The canonical rank-only notation of cards written by rank or with suits.

    >>> rank_cards("H3 S3 D4 RJ BJ"), rank_cards("4 3 3 x d"), rank_cards("S3a S3b BJb")
    ('334BR', '334BR', '33B')

    Raises:
        games.engine.NotationError: text that is neither (R-NOTE).
    """
    if is_suited(text):
        text = "".join(
            "B" if t.startswith("BJ") else "R" if t.startswith("RJ") else t[1:].rstrip("ab")
            for t in text.split()
        )
    return format_cards(parse_cards(text))


def deal_key(*, hands: Mapping[str, str], bottom: str, first_bidder: str | None) -> str:
    """A 64-hex-digit key naming the deal by rank (see the module docstring).

    Raises:
        games.engine.NotationError: cards that are not notation.
    """
    canonical = {
        "hands": {seat: rank_cards(cards) for seat, cards in sorted(hands.items())},
        "bottom": rank_cards(bottom),
        "first_bidder": first_bidder or "",
    }
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
