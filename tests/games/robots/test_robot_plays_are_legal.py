"""Every call and play a robot makes is one the engine offers (Bidding.legal_calls,
GameState.legal_plays), for random deals, every strength and several rule sets (R-LEAD,
R-CMP, R-AMBIG, R-BID-…)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from robot_games import bid, deal_of, play_to

from games.engine import RuleSet, replay
from games.robots import STRENGTHS, Robot

_PRESETS = ("classic", "classic_once", "rob", "competition", "cn2016", "two_player")


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    strengths=st.lists(st.sampled_from(STRENGTHS), min_size=3, max_size=3),
)
def test_whole_classic_games_of_robots_replay_as_verified(seed: int, strengths: list[str]) -> None:
    rules = RuleSet.from_spec("classic")
    robots = {s: Robot(k, f"{seed}:{s}") for s, k in zip(rules.seats, strengths, strict=True)}
    hands, bottom, first = deal_of(rules, seed)
    bidding = bid(rules, hands, first, robots)
    landlord = bidding.landlord or "S"
    state, _ = play_to(rules, seed, robots, landlord=landlord)
    assert state.finished
    record = {
        "rules": "classic",
        "hands": hands,
        "bottom": bottom,
        "first_bidder": first,
        "bidding": None,
        "landlord": landlord,
        "bid": 1,
        "plays": [[s, c] for s, c in state.plays],
        "end": None,
    }
    assert replay(record).error is None


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    preset=st.sampled_from(_PRESETS),
    strength=st.sampled_from(STRENGTHS),
)
def test_calls_and_plays_are_legal_under_other_presets(
    seed: int, preset: str, strength: str
) -> None:
    rules = RuleSet.from_spec(preset)
    robots = {s: Robot(strength, s) for s in rules.seats}
    hands, _, first = deal_of(rules, seed)
    bid(rules, hands, first, robots)
    state, _ = play_to(rules, seed, robots, landlord=rules.seats[-1])
    assert state.finished


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6), strength=st.sampled_from(STRENGTHS))
def test_four_player_plays_are_legal(seed: int, strength: str) -> None:
    rules = RuleSet.from_spec("four_player")
    robots = {s: Robot(strength, s) for s in rules.seats}
    state, _ = play_to(rules, seed, robots, turns=40, landlord="E")
    assert state.plays
