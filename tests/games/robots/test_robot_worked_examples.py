"""Worked examples from the rules: a hand that is one combination goes out at once (R-END), a
farmer never overtakes his partner's winning play, and a farmer facing a landlord with one
card leads a pair rather than a solo the landlord would beat to go out (R-END, R-CMP)."""

from __future__ import annotations

import pytest

from games.engine import GameState, RuleSet
from games.robots import Robot

RULES = RuleSet.from_spec("classic")
PLANNERS = ("medium", "strong")


@pytest.mark.parametrize("strength", PLANNERS)
@pytest.mark.parametrize("hand", ["333444TJ", "3456789", "33445566", "JJJQQ", "BR"])
def test_a_hand_that_is_one_play_goes_out_at_once(strength: str, hand: str) -> None:
    state = GameState.start(RULES, {"S": hand, "E": "TTQQ", "W": "KKAA"}, "", "S")
    assert Robot(strength, "r-end").play(state) == hand


@pytest.mark.parametrize("strength", PLANNERS)
def test_a_farmer_does_not_overtake_his_partners_winning_play(strength: str) -> None:
    state = GameState.start(RULES, {"S": "35", "E": "9A", "W": "K2"}, "", "S")
    state = state.apply("S", "3").apply("E", "A")
    assert Robot(strength, "partner").play(state) == "pass"


@pytest.mark.parametrize("strength", PLANNERS)
def test_a_farmer_leads_a_pair_when_the_landlord_holds_one_card(strength: str) -> None:
    state = GameState.start(RULES, {"S": "4K", "E": "355A", "W": "6789"}, "", "S")
    state = state.apply("S", "4").apply("E", "A").apply("W", "pass").apply("S", "pass")
    assert state.to_move == "E"
    assert Robot(strength, "stop").play(state) == "55"
