"""Helpers of the robot tests: deals, and games played by robots to some turn."""

from __future__ import annotations

import random

from games.engine import Bidding, GameState, RuleSet, deal_random
from games.robots import Robot


def deal_of(rules: RuleSet, seed: int) -> tuple[dict[str, str], str, str]:
    """Hands (rank text), bottom and first bidder of the deal drawn from ``seed``."""
    first = rules.seats[seed % len(rules.seats)]
    deal = deal_random(rules, random.Random(seed), first_bidder=first)
    return deal.rank_hands(), deal.rank_bottom(), deal.first_bidder


def bid(rules: RuleSet, hands: dict[str, str], first: str, robots: dict[str, Robot]) -> Bidding:
    """The bidding of ``robots``, each call checked against ``legal_calls``."""
    bidding = Bidding.start(rules, first)
    while not bidding.done:
        seat = bidding.to_move
        assert seat is not None
        call = robots[seat].call(bidding, hands[seat])
        assert call in bidding.legal_calls()
        bidding = bidding.apply(seat, call)
    return bidding


def play_to(
    rules: RuleSet,
    seed: int,
    robots: dict[str, Robot],
    turns: int | None = None,
    landlord: str = "S",
) -> tuple[GameState, str]:
    """The state after ``turns`` turns (all, when None) of a game on the deal of ``seed``
    with ``landlord``, every turn checked against ``legal_plays``; and the bottom."""
    hands, bottom, _ = deal_of(rules, seed)
    state = GameState.start(rules, hands, bottom, landlord)
    done = 0
    while not state.finished and (turns is None or done < turns):
        seat = state.to_move
        assert seat is not None
        cards = robots[seat].play(state, bottom=bottom)
        assert cards in [str(m) for m in state.legal_plays()]
        state = state.apply(seat, cards)
        done += 1
    return state, bottom
