"""A claim search bounded in seconds (R-CLAIM, for a live view that must answer at once): past
its time it answers UNKNOWN, the same position the deterministic budget decides; without a time
bound the verdict never depends on the machine."""

from __future__ import annotations

from claim_positions import claim_records

from games.engine import ClaimVerdict, GameState, prove_claim, replay, search_claim

SLOW = "rlcard-rule-v1-s20240601-g1240"  # a real claim that needs thousands of positions


def _slow_claim() -> tuple[GameState, str, dict]:
    claim = next(c for c in claim_records() if c["id"].startswith(SLOW + "-claim-"))
    before = replay({k: v for k, v in claim.items() if k not in ("end", "claim_side")}, fast=False)
    assert before.state is not None
    seat = claim["end"]["claim"]
    return before.state, ("landlord" if seat == claim["landlord"] else "farmers"), claim


def test_a_claim_out_of_time_is_unknown_and_decided_without_the_time_bound() -> None:
    state, side, _claim = _slow_claim()
    # A deadline already past: the search gives up at its first expansion.
    bounded = search_claim(state, side, seconds=0.0)
    assert bounded.verdict is ClaimVerdict.UNKNOWN and bounded.positions <= 1
    assert prove_claim(state, side, budget=15_000) in (ClaimVerdict.PROVEN, ClaimVerdict.REFUTED)


def test_replay_with_a_claim_out_of_time_flags_it_for_the_referee() -> None:
    _state, _side, claim = _slow_claim()
    record = {k: v for k, v in claim.items() if k != "claim_side"}
    outcome = replay(record, claim_seconds=0.0).to_dict()
    assert outcome["status"] == "flagged"
    assert outcome["error"]["rule"] == "R-CLAIM" and outcome["error"]["code"] == "claim.gave_up"
