"""A robot decides from its seat's view only: dealing the other seats' remaining cards
differently (the same number each) never changes its choice, so it cannot have looked at them
(fairness; the public bottom, R-BOTTOM, stays with the landlord)."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from robot_games import play_to

from games.engine import GameState, RuleSet
from games.robots import STRENGTHS, Robot, view_of

RULES = RuleSet.from_spec("classic")


def _redealt(state: GameState, seat: str, rng: random.Random) -> GameState:
    """``state`` with the hidden cards of the seats other than ``seat`` dealt anew."""
    me = state.seats.index(seat)
    others = [i for i in range(len(state.seats)) if i != me]
    cards = [r for i in others for r, c in enumerate(state.hands_counts[i]) for _ in range(c)]
    rng.shuffle(cards)
    hands = list(state.hands_counts)
    for i in others:
        size = sum(hands[i])
        taken, cards = cards[:size], cards[size:]
        hands[i] = tuple(taken.count(r) for r in range(15))
    return dataclasses.replace(state, hands_counts=tuple(hands))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 45),
    strength=st.sampled_from(STRENGTHS),
    shuffle=st.integers(0, 10**6),
)
def test_choice_ignores_the_hidden_hands(
    seed: int, turns: int, strength: str, shuffle: int
) -> None:
    robots = {s: Robot(strength, f"{seed}:{s}") for s in RULES.seats}
    state, bottom = play_to(RULES, seed, robots, turns=turns)
    if state.finished:
        return
    seat = state.to_move
    assert seat is not None
    other = _redealt(state, seat, random.Random(shuffle))
    assert view_of(other, seat, bottom=bottom) == view_of(state, seat, bottom=bottom)
    robot = Robot(strength, "board-1:" + seat)
    assert robot.play(other, bottom=bottom) == robot.play(state, bottom=bottom)


def test_the_view_holds_no_other_hand() -> None:
    robots = {s: Robot("basic", s) for s in RULES.seats}
    state, bottom = play_to(RULES, 5, robots, turns=4)
    seat = state.to_move
    assert seat is not None
    view = view_of(state, seat, bottom=bottom)
    assert view.hand == state.hands_counts[state.seats.index(seat)]
    assert dict(view.counts) == {s: len(cards) for s, cards in state.hands.items()}
    hidden = {f.name for f in dataclasses.fields(view)} - {"hand"}
    assert not any(
        getattr(view, name) == state.hands_counts[i]
        for name in hidden
        for i, s in enumerate(state.seats)
        if s != seat
    )
