"""Template filters of the pages people keep: a score with its sign, and a hand by suit.

A *hand by suit* is how a hand record is read at a dealing table: one line per suit (♠ ♥ ♦
♣, hearts and diamonds drawn in red by the page's CSS), its ranks from the highest down in the
game's order (2 A K … 3, R-RANK), then the jokers (big, small); ten is written T, as everywhere
on the site (R-NOTE). With two decks each card keeps its deck letter (``3a``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import template
from django.utils.translation import pgettext

register = template.Library()

# R-RANK, from the highest down (the jokers come on their own line).
_ORDER = "2AKQJT9876543"
_TOKEN = re.compile(r"([SHDC])(10|[3-9TJQKA2])([ab]?)")
_SUITS = (("S", "♠", "s"), ("H", "♥", "h"), ("D", "♦", "d"), ("C", "♣", "c"))


@register.filter
def signed(value: object) -> str:
    """A score with its sign: 3 → '+3', -6 → '−6' (the minus sign), 0 → '0'."""
    try:
        number = int(str(value))
    except (TypeError, ValueError):
        return "" if value is None else str(value)
    if number > 0:
        return f"+{number}"
    return f"\u2212{-number}" if number < 0 else "0"


@dataclass(frozen=True)
class SuitLine:
    """One suit of a hand: its letter (S H D C, or J for the jokers), symbol, CSS class and
    ranks as shown ('A K T 3'; '—' for a void)."""

    suit: str
    symbol: str
    css: str
    ranks: str


@register.filter
def hand_suits(hand: object) -> list[SuitLine]:
    """'S3 HA HT BJ' → five lines: ♠ '3', ♥ 'A T', ♦ '—', ♣ '—', jokers 'small' (in the
    reader's language: 小王).

    A hand without suits (ranks only, an imported record) gives one line of its text as it is,
    its suit ''.
    """
    text = "" if hand is None else str(hand).strip()
    by_suit: dict[str, list[tuple[int, str]]] = {s: [] for s, _sym, _css in _SUITS}
    jokers: list[str] = []
    for token in text.split():
        if token[:2] in ("BJ", "RJ"):
            jokers.append(token)
            continue
        match = _TOKEN.fullmatch(token)
        if match is None:
            return [SuitLine("", "", "", text)]
        suit, rank, deck = match.groups()
        rank = "T" if rank == "10" else rank
        by_suit[suit].append((_ORDER.index(rank), rank + deck))
    lines = [
        SuitLine(s, symbol, css, " ".join(r for _i, r in sorted(by_suit[s])) or "—")
        for s, symbol, css in _SUITS
    ]
    # The big joker (RJ) before the small one (BJ), as the ranks go down; one word each.
    names = {"RJ": pgettext("joker", "big"), "BJ": pgettext("joker", "small")}
    shown = sorted(jokers, key=lambda j: (j[:2] != "RJ", j))
    lines.append(SuitLine("J", "", "j", " ".join(names[j[:2]] + j[2:] for j in shown) or "—"))
    return lines
