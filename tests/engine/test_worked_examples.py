"""The worked examples of the seeds and RULES.md, each checked against the text's own numbers."""

from __future__ import annotations

import pytest

from games.engine import Bidding, Contract, GameState, RuleSet, replay, settle


def test_r_trick_seed000_worked_trick() -> None:
    """Seed 000: A leads 333+9, B passes, C 555+7, A KKK+J, B AAA+3, C and A pass, B leads a 4."""
    # A full deck: S holds K K and the third K comes with the bottom, so the landlord has KKK.
    hands = {"S": "3336678899TTJQQKK", "E": "3444567899TJJQAAA", "W": "45556778TJQKA222R"}
    state = GameState.start(RuleSet.from_spec("classic"), hands, "2BK", "S")
    assert state.hands["S"].count("K") == 3
    state = state.apply("S", "3339")  # A: trio_with_solo 3
    state = state.apply("E", "pass")  # B passes
    state = state.apply("W", "5557")  # C: a higher trio_with_solo
    state = state.apply("S", "KKKJ")  # A again
    state = state.apply("E", "AAA3")  # B: AAA+3 (B passed before and may still play, R-LEAD)
    assert state.to_move == "W" and not state.leading
    state = state.apply("W", "pass")
    state = state.apply("S", "pass")
    # R-TRICK: both others passed after B's play, so B leads anything.
    assert state.to_move == "E" and state.leading
    state = state.apply("E", "4")
    assert state.plays[-1] == ("E", "4")


def test_r_sc_mult_seed000_bid3_two_bombs_rocket() -> None:
    """Seed 000: bid 3, two bombs and a rocket: each farmer −24, landlord +48 (either way)."""
    rules = RuleSet.from_spec("classic")
    won = settle(
        rules,
        Contract("S", 3),
        winner="landlord",
        bombs=2,
        rockets=1,
        spring=False,
        anti_spring=False,
    )
    assert won.score == {"S": 48, "E": -24, "W": -24}
    lost = settle(
        rules,
        Contract("S", 3),
        winner="farmers",
        bombs=2,
        rockets=1,
        spring=False,
        anti_spring=False,
    )
    assert lost.score == {"S": -48, "E": 24, "W": 24}


def _bid(preset: str, first: str, calls: list[tuple[str, str]]) -> Bidding:
    b = Bidding.start(RuleSet.from_spec(preset), first)
    for seat, call in calls:
        b = b.apply(seat, call)
    return b


def test_r_bid_comp_seed001_first_example() -> None:
    """Seed 001: S calls 1, E robs 2, W robs 3, S's final rob 4; a farmer's double makes 5."""
    b = _bid("competition", "S", [("S", "call"), ("E", "rob"), ("W", "rob"), ("S", "rob")])
    assert b.landlord == "S" and b.bid == 4
    assert b.to_move == "E" and b.legal_calls() == ["double", "pass"]  # R-DOUBLE-ORDER
    b = b.apply("E", "double").apply("W", "pass")
    assert b.done and b.doubles == ("E",)
    s = settle(
        b.rules,
        Contract("S", b.bid, doubles=b.doubles),
        winner="landlord",
        bombs=0,
        rockets=0,
        spring=False,
        anti_spring=False,
    )
    assert s.unit == 5


def test_r_bid_comp_seed001_second_example() -> None:
    """Seed 001: S passes, E calls 1, W robs 2, S may not rob, E's final rob 3; double → 4."""
    b = _bid("competition", "S", [("S", "pass"), ("E", "call"), ("W", "rob")])
    assert b.to_move == "E"  # S passed the call and is skipped
    b = b.apply("E", "rob")
    assert b.landlord == "E" and b.bid == 3
    b = b.apply("W", "pass").apply("S", "double")
    s = settle(
        b.rules,
        Contract("E", b.bid, doubles=b.doubles),
        winner="farmers",
        bombs=0,
        rockets=0,
        spring=False,
        anti_spring=False,
    )
    assert s.unit == 4
    assert s.score == {"S": 4, "E": -8, "W": 4}


def test_r_sc_add_seed001_scoring_example() -> None:
    """Seed 001: value 3, one bomb, one double: u = (3+1+1) = 5, the landlord wins or loses 10."""
    rules = RuleSet.from_spec("competition")
    s = settle(
        rules,
        Contract("S", 3, doubles=("E",)),
        winner="landlord",
        bombs=1,
        rockets=0,
        spring=False,
        anti_spring=False,
    )
    assert s.unit == 5 and s.score == {"S": 10, "E": -5, "W": -5}
    s = settle(
        rules,
        Contract("S", 3, doubles=("E",)),
        winner="farmers",
        bombs=1,
        rockets=0,
        spring=False,
        anti_spring=False,
    )
    assert s.score == {"S": -10, "E": 5, "W": 5}


def test_r_sc_add_max_additions_caps() -> None:
    """Seed 001: casual play caps the additions at 3 (option max_additions)."""
    rules = RuleSet.from_spec({"preset": "competition", "options": {"max_additions": 3}})
    s = settle(
        rules,
        Contract("S", 2, doubles=("E", "W")),
        winner="landlord",
        bombs=3,
        rockets=1,
        spring=True,
        anti_spring=False,
    )
    assert s.unit == 2 + 3


def _full_deal() -> dict[str, str]:
    return {"S": "33334444555566667", "E": "77788889999TTTTJJ", "W": "JJQQQQKKKKAAAA222"}


def test_r_surrender_seed001_example_via_replay() -> None:
    """Seed 001: final value 2, one farmer doubles (3); the landlord surrenders and still loses
    2 to each farmer (u − 1)."""
    record = {
        "id": "surrender",
        "rules": "competition",
        "hands": _full_deal(),
        "bottom": "2BR",
        "first_bidder": "S",
        "bidding": [
            ["S", "pass"],
            ["E", "call"],
            ["W", "rob"],
            ["E", "pass"],
            ["S", "double"],
            ["E", "pass"],
            ["W", "surrender"],
        ],
        "plays": [],
        "end": None,
        "declared": {"S": 2, "E": 2, "W": -4},
    }
    out = replay(record)
    assert out.status == "verified", out.to_dict()
    assert out.landlord == "W" and out.score == {"S": 2, "E": 2, "W": -4}


def test_r_sc_cn2016_example() -> None:
    """2016 rules: bid 3, one bomb and the rocket, anti-spring, farmer 1 doubled and the
    landlord redoubled: farmer 1 +96, farmer 2 +24, landlord −120."""
    rules = RuleSet.from_spec("cn2016")
    s = settle(
        rules,
        Contract("S", 3, doubles=("E",), redoubled=True),
        winner="farmers",
        bombs=1,
        rockets=1,
        spring=False,
        anti_spring=True,
    )
    assert s.score == {"S": -120, "E": 96, "W": 24}


def test_r_sc_cn2016_bidding_order() -> None:
    """R-DOUBLE-ORDER: farmers double in turn from the seat after the landlord, then the
    landlord may redouble only if a farmer doubled."""
    b = _bid("cn2016", "S", [("S", "1"), ("E", "pass"), ("W", "3")])
    assert b.landlord == "W" and b.bid == 3 and b.to_move == "S"
    b = b.apply("S", "double").apply("E", "pass")
    assert b.to_move == "W" and b.legal_calls() == ["redouble", "pass"]
    b = b.apply("W", "redouble")
    assert b.done and b.redoubled and b.doubles == ("S",)
    b2 = _bid("cn2016", "S", [("S", "1"), ("E", "pass"), ("W", "3"), ("S", "pass"), ("E", "pass")])
    assert b2.done and not b2.redoubled


@pytest.mark.parametrize(
    ("calls", "landlord", "bid"),
    [
        ([("S", "1"), ("E", "pass"), ("W", "pass")], "S", 1),
        ([("S", "1"), ("E", "2"), ("W", "pass"), ("S", "3")], "S", 3),  # S bids again
        ([("S", "pass"), ("E", "pass"), ("W", "2"), ("S", "pass"), ("E", "pass")], "W", 2),
        ([("S", "3")], "S", 3),
    ],
)
def test_r_bid_auction(calls: list[tuple[str, str]], landlord: str, bid: int) -> None:
    b = _bid("classic", "S", calls)
    assert b.done and b.landlord == landlord and b.bid == bid


def test_r_bid_auction_all_pass_is_passed_out() -> None:
    b = _bid("classic", "E", [("E", "pass"), ("W", "pass"), ("S", "pass")])
    assert b.done and b.passed_out and b.landlord is None


def test_r_bid_once_each_speaks_once() -> None:
    b = _bid("classic_once", "S", [("S", "1"), ("E", "pass"), ("W", "2")])
    assert b.done and b.landlord == "W" and b.bid == 2
    b = _bid("classic_once", "S", [("S", "pass"), ("E", "pass"), ("W", "pass")])
    assert b.passed_out


@pytest.mark.parametrize(
    ("calls", "landlord", "stake"),
    [
        ([("S", "call"), ("E", "pass"), ("W", "pass")], "S", 3),
        ([("S", "call"), ("E", "rob"), ("W", "rob"), ("S", "rob")], "S", 24),  # holder twice
        ([("S", "call"), ("E", "rob"), ("W", "pass"), ("S", "pass")], "E", 6),
        ([("S", "pass"), ("E", "call"), ("W", "rob"), ("E", "rob")], "E", 12),
        ([("S", "call"), ("E", "rob"), ("W", "rob"), ("S", "pass"), ("E", "pass")], "W", 12),
    ],
)
def test_r_bid_rob(calls: list[tuple[str, str]], landlord: str, stake: int) -> None:
    """Seed 004 (抢地主): a call makes the stake ×3, each rob ×2, ends when all others declined
    or a player becomes holder for the second time."""
    b = _bid("rob", "S", calls)
    assert b.done and b.landlord == landlord and b.bid == stake


def test_r_sc_rob_spring_multiplier() -> None:
    """R-SC-ROB: u = base × 3 × 2^robs × 2^(bombs+rockets) × spring (3)."""
    rules = RuleSet.from_spec("rob")
    s = settle(
        rules,
        Contract("S", 6),
        winner="landlord",
        bombs=1,
        rockets=0,
        spring=True,
        anti_spring=False,
    )
    assert s.unit == 6 * 2 * 3 and s.score == {"S": 72, "E": -36, "W": -36}


def test_r_passout_scores_zero() -> None:
    record = {
        "id": "po",
        "rules": "classic",
        "hands": _full_deal(),
        "bottom": "2BR",
        "first_bidder": "S",
        "bidding": [["S", "pass"], ["E", "pass"], ["W", "pass"]],
        "plays": [],
        "end": None,
        "declared": None,
    }
    out = replay(record)
    assert out.status == "verified" and out.score == {"S": 0, "E": 0, "W": 0}
    assert out.landlord is None


SPRING_DEAL = {"S": "333456789TJQKA222", "E": "34445556667778889", "W": "99TTTJJJQQQKKKAAA"}
SPRING_RULES = {"preset": "classic", "options": {"spring_multiplier": 2}}


def test_r_spring_landlord_out_before_any_farmer_plays() -> None:
    """R-SPRING with option spring_multiplier 2: rocket and bomb double too (R-SC-MULT)."""
    rec = {
        "id": "spring",
        "rules": SPRING_RULES,
        "hands": SPRING_DEAL,
        "bottom": "2BR",
        "first_bidder": None,
        "bidding": None,
        "landlord": "S",
        "bid": 1,
        "plays": [
            ["S", "3456789TJQKA"],
            ["E", "pass"],
            ["W", "pass"],
            ["S", "BR"],
            ["E", "pass"],
            ["W", "pass"],
            ["S", "2222"],
            ["E", "pass"],
            ["W", "pass"],
            ["S", "33"],
        ],
        "end": None,
        "declared": {"S": 16, "E": -8, "W": -8},
    }
    out = replay(rec)
    assert out.status == "verified", out.to_dict()
    assert out.spring and out.bombs == 1 and out.rockets == 1 and out.multiplier == 8


def test_r_spring_anti_spring_landlord_made_one_play() -> None:
    rec = {
        "id": "anti",
        "rules": SPRING_RULES,
        "hands": SPRING_DEAL,
        "bottom": "2BR",
        "first_bidder": None,
        "bidding": None,
        "landlord": "S",
        "bid": 1,
        "plays": [["S", "3"], ["E", "4"], ["W", "pass"], ["S", "pass"], ["E", "3445556667778889"]],
        "end": None,
        "declared": {"S": -4, "E": 2, "W": 2},
    }
    out = replay(rec)
    assert out.status == "verified", out.to_dict()
    assert out.anti_spring and out.winner == "farmers"


def test_r_spring_no_effect_by_default_in_classic() -> None:
    rec = {
        "id": "anti",
        "rules": "classic",
        "hands": SPRING_DEAL,
        "bottom": "2BR",
        "first_bidder": None,
        "bidding": None,
        "landlord": "S",
        "bid": 2,
        "plays": [["S", "3"], ["E", "4"], ["W", "pass"], ["S", "pass"], ["E", "3445556667778889"]],
        "end": None,
        "declared": None,
    }
    assert replay(rec).score == {"S": -4, "E": 2, "W": 2}
