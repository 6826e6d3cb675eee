"""The basic robot: the policy of games.bot's "heuristic" style, played from a seat's view.

Bidding by ``games.bot.hand_strength`` with a little seeded noise; leading the lowest, longest
combination that is not a bomb or the rocket; following with the cheapest play that beats,
never over a partner's winning play, with a bomb or the rocket kept for when the enemy who
made the open play holds four cards or fewer. The seeded noise (one play in ten passed over,
a bomb now and then) is drawn from the decision's own generator (robot.py), so the same
position always gives the same turn.
"""

from __future__ import annotations

import random

from games.bot import choose_call, hand_strength
from games.engine import RANKS, Move, format_cards

from .strong import compared_rank, is_power
from .view import SeatView

__all__ = ["basic_call", "basic_play"]

Counts = tuple[int, ...]


def basic_call(calls: list[str], hand: Counts, rng: random.Random) -> str:
    """A call of ``calls`` by hand strength (R-BID-AUCTION, R-BID-ONCE: a bid of 0..3 by
    strength; R-BID-ROB, R-BID-COMP, R-DOUBLE-ORDER: call, rob, double, redouble above
    thresholds)."""
    return choose_call(calls, hand_strength(format_cards(hand)), rng)


def basic_play(view: SeatView, rng: random.Random) -> str:
    """The basic robot's turn: canonical cards or ``"pass"``, one of ``view.legal()``."""
    moves = view.legal()
    plays = [m for m in moves if not m.is_pass]
    if not plays:
        return "pass"
    if view.open is None:  # leading (R-LEAD)
        ordinary = [m for m in plays if not is_power(m)] or plays
        lowest = min(_low_rank(m) for m in ordinary)
        candidates = [m for m in ordinary if _low_rank(m) == lowest]
        longest = max(len(m.cards) for m in candidates)
        return str(rng.choice([m for m in candidates if len(m.cards) == longest]))
    if view.owner in view.partners():
        return "pass"
    ordinary = sorted(
        (m for m in plays if not is_power(m)), key=lambda m: (_low_rank(m), len(m.cards))
    )
    if ordinary and rng.random() < 0.9:
        return ordinary[0].cards
    danger = view.owner is not None and view.held(view.owner) <= 4
    power = sorted((m for m in plays if is_power(m)), key=compared_rank)
    if power and (danger or rng.random() < 0.15):
        return power[0].cards
    return "pass"


def _low_rank(move: Move) -> int:
    # games.bot orders by the lowest compared rank among a move's readings.
    return min((RANKS.index(r.rank) for r in move.readings), default=0)
