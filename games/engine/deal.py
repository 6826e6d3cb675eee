"""Deals (boards): suited hands, bottom cards and the first bidder (R-DEAL, R-SUIT).

A ``Deal`` records physical cards with suits so that dealers can build identical boards;
play only looks at ranks (R-RANK).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from .cards import format_cards, format_suited, parse_suited, shuffled_deck, suited_to_counts
from .rules import CLASSIC, RuleSet

__all__ = ["Deal", "deal_random", "deal_from_order"]


@dataclass(frozen=True)
class Deal:
    """``hands`` (seat → suited text), ``bottom`` (suited text), ``first_bidder`` (seat);
    ``aside`` (suited text, the two-player cards set aside unseen, R-2P) and ``marked`` (the
    five-player marked card, R-5P; its holder is the open landlord and the first to speak)."""

    hands: dict[str, str]
    bottom: str
    first_bidder: str
    aside: str | None = None
    marked: str | None = None

    def rank_hands(self) -> dict[str, str]:
        """Each hand in canonical rank notation (R-NOTE)."""
        return {s: format_cards(suited_to_counts(parse_suited(h))) for s, h in self.hands.items()}

    def rank_bottom(self) -> str:
        return format_cards(suited_to_counts(parse_suited(self.bottom)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hands": dict(self.hands),
            "bottom": self.bottom,
            "first_bidder": self.first_bidder,
        }
        if self.aside is not None:
            out["aside"] = self.aside
        if self.marked is not None:
            out["marked"] = self.marked
        return out


def deal_from_order(
    rules: RuleSet | None,
    cards: list[str],
    first_bidder: str = "S",
    marked_index: int | None = None,
) -> Deal:
    """Deal a shuffled list of the deck's suited cards: each seat's hand in seat order, in
    blocks of the hand size, then the bottom, then (two players) the cards set aside (R-DEAL,
    R-2P, R-4P, R-5P). Five players: ``marked_index`` picks the marked card among the cards
    dealt to the hands (the first non-joker from there on), and its holder speaks first."""
    rs = rules or CLASSIC
    size = rs.hand_size
    n = len(rs.seats)
    hands = {
        seat: format_suited(cards[i * size : (i + 1) * size]) for i, seat in enumerate(rs.seats)
    }
    dealt = n * size
    bottom = format_suited(cards[dealt : dealt + rs.bottom_size])
    aside = format_suited(cards[dealt + rs.bottom_size :]) if rs.aside else None
    marked = None
    if rs.family == "five":
        i = (marked_index or 0) % dealt
        while cards[i][:2] in ("BJ", "RJ"):
            i = (i + 1) % dealt
        marked = cards[i]
        first_bidder = rs.seats[i // size]
    elif first_bidder not in rs.seats:
        first_bidder = rs.seats[0]
    return Deal(hands=hands, bottom=bottom, first_bidder=first_bidder, aside=aside, marked=marked)


def deal_random(rules: RuleSet | None, rng: random.Random, first_bidder: str = "S") -> Deal:
    """A deal drawn from ``rng`` (an unbiased shuffle of the deck, R-DECK)."""
    rs = rules or CLASSIC
    cards = shuffled_deck(rng, rs.decks)
    marked_index = rng.randrange(rs.players * rs.hand_size) if rs.family == "five" else None
    return deal_from_order(rs, cards, first_bidder, marked_index)
