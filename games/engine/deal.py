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

HAND_SIZE = 17


@dataclass(frozen=True)
class Deal:
    """``hands`` (seat → suited text, 17 cards), ``bottom`` (suited text, 3 cards),
    ``first_bidder`` (seat)."""

    hands: dict[str, str]
    bottom: str
    first_bidder: str

    def rank_hands(self) -> dict[str, str]:
        """Each hand in canonical rank notation (R-NOTE)."""
        return {s: format_cards(suited_to_counts(parse_suited(h))) for s, h in self.hands.items()}

    def rank_bottom(self) -> str:
        return format_cards(suited_to_counts(parse_suited(self.bottom)))

    def to_dict(self) -> dict[str, Any]:
        return {"hands": dict(self.hands), "bottom": self.bottom, "first_bidder": self.first_bidder}


def deal_from_order(rules: RuleSet | None, cards: list[str], first_bidder: str = "S") -> Deal:
    """Deal a shuffled list of the 54 suited cards: 17 each in seat order, in blocks, then the
    last 3 as the bottom (R-DEAL)."""
    rs = rules or CLASSIC
    hands = {}
    for i, seat in enumerate(rs.seats):
        hands[seat] = format_suited(cards[i * HAND_SIZE : (i + 1) * HAND_SIZE])
    bottom = format_suited(cards[len(rs.seats) * HAND_SIZE :])
    return Deal(hands=hands, bottom=bottom, first_bidder=first_bidder)


def deal_random(rules: RuleSet | None, rng: random.Random, first_bidder: str = "S") -> Deal:
    """A deal drawn from ``rng`` (an unbiased shuffle of the 54 cards, R-DECK)."""
    return deal_from_order(rules, shuffled_deck(rng), first_bidder)
