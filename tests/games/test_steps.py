"""games.steps: the live check of each step by the engine, rendered for a referee, and the
quick result checked against the deal. Hands are fixed by hand so that every expected value
follows from the rules (RULES.md), not from the code's output."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import quick_result
from games import steps as entry_steps
from games.engine import RuleSet, parse_cards

# A classic deal (R-DECK: 54 cards) written so that the facts below are plain to see:
# S holds four 3s (a bomb, R-T11), E both jokers (the rocket, R-T12), W four 2s.
HANDS = {
    "S": "333344556677889TJ",
    "E": "4557899TJQQKKAABR",
    "W": "46789TJQKA2222JQK",
}
BOTTOM = "TA6"


def deal(rules: str = "classic", first: str = "S") -> entry_steps.EntryDeal:
    rs = RuleSet.from_spec(rules)
    hands = {s: "".join(sorted(h, key="3456789TJQKA2BR".index)) for s, h in HANDS.items()}
    return entry_steps.EntryDeal(rules=rs, hands=hands, bottom=BOTTOM, first_bidder=first)


def test_the_deal_is_the_deck() -> None:
    counts = [parse_cards(h) for h in HANDS.values()] + [parse_cards(BOTTOM)]
    assert [sum(c[i] for c in counts) for i in range(15)] == [4] * 13 + [1, 1]


def test_bidding_then_play_with_remaining_cards_and_counts() -> None:
    # R-BID-AUCTION: S 1, E 2, W pass, S 3 ends it at once; S is landlord at 3 (R-BOTTOM).
    position = entry_steps.rebuild(deal(), ["1", "2", "p", "3"])
    view = entry_steps.view(position)
    assert (view["phase"], view["landlord"], view["bid"], view["to_move"]) == ("play", "S", 3, "S")
    assert view["counts"] == {"S": 20, "E": 17, "W": 17}
    assert view["calls"] == [["S", "1"], ["E", "2"], ["W", "pass"], ["S", "3"]]
    # S leads his bomb of 3s typed with separators (R-NOTE), E passes with 不要.
    position = entry_steps.apply_step(position, "3-3-3-3")
    position = entry_steps.apply_step(position, "不要")
    view = entry_steps.view(position)
    assert view["counts"]["S"] == 16 and view["plays"] == [["S", "3333"], ["E", "pass"]]
    assert view["open"] == {"seat": "S", "cards": "3333"} and view["to_move"] == "W"


def test_calls_in_chinese_are_the_records_calls() -> None:
    position = entry_steps.rebuild(deal("rob"), ["叫地主", "抢地主", "不抢", "不抢"])
    assert position.bidding.calls[:2] == (("S", "call"), ("E", "rob"))


@pytest.mark.parametrize(
    "steps, step, rule, words",
    [
        (["1", "2", "p", "3"], "p", "R-LEAD", "must play cards"),  # the leader may not pass
        (["1", "2", "p", "3"], "BR", "R-VERIFY", "does not hold"),  # E holds the jokers
        (["1", "2", "p", "3"], "3456", "R-T6", "not a combination"),  # a chain needs 5 (R-T6)
        (["1", "2", "p", "3", "4"], "4", "R-CMP", "does not beat 4"),  # equal rank: no (R-CMP)
        (["1"], "1", "R-BID-AUCTION", "allowed: pass, bid 2, bid 3"),  # a bid must be higher
        (["1", "2", "p", "3"], "3z", "R-NOTE", "position 2"),
    ],
)
def test_an_illegal_step_is_refused_with_its_rule(steps, step, rule, words) -> None:
    position = entry_steps.rebuild(deal(), steps)
    with pytest.raises(entry_steps.EntryError) as caught:
        entry_steps.apply_step(position, step)
    assert caught.value.rule.startswith(rule) and words in caught.value.message
    assert caught.value.index == len(steps)


def test_the_message_is_in_the_referees_language() -> None:
    position = entry_steps.rebuild(deal(), ["1", "2", "p", "3"])
    with translation.override("zh-hans"), pytest.raises(entry_steps.EntryError) as caught:
        entry_steps.apply_step(position, "BR")
    assert "没有" in caught.value.message and caught.value.rule == "R-VERIFY"


def test_a_passed_out_deal_is_done_and_scores_zero() -> None:
    # R-PASSOUT with all_pass zero (the tournament default).
    view = entry_steps.view(entry_steps.rebuild(deal(), ["p", "p", "p"]))
    assert view["phase"] == "done" and view["result"]["score"] == {"S": 0, "E": 0, "W": 0}


def test_seats_low_on_cards_are_marked() -> None:
    # R-BID-AUCTION: W bids 1 and the others pass; W is landlord (20 cards) and leads his
    # bomb of 2s, then solos while S and E pass. Seed 002: a seat with two or fewer cards
    # is announced, and the page marks it.
    position = entry_steps.rebuild(deal(), ["p", "p", "1", "p", "p", "2222", "p", "p"])
    assert position.game.landlord == "W" and entry_steps.view(position)["counts"]["W"] == 16
    while entry_steps.view(position)["counts"]["W"] > 2:
        assert entry_steps.view(position)["low"] == []
        position = entry_steps.apply_step(position, position.game.hands["W"][0])
        position = entry_steps.apply_step(entry_steps.apply_step(position, "p"), "p")
    assert entry_steps.view(position)["low"] == ["W"]


def test_a_played_out_game_ends_with_the_engines_score() -> None:
    # W, landlord at 1, plays everything as solos after his bomb; nobody beats him.
    position = entry_steps.rebuild(deal(), ["p", "p", "1", "p", "p", "2222", "p", "p"])
    while not position.finished:
        position = entry_steps.apply_step(position, position.game.hands["W"][0])
        if not position.finished:
            position = entry_steps.apply_step(entry_steps.apply_step(position, "p"), "p")
    result = entry_steps.view(position)["result"]
    # R-SC-MULT: bid 1 × 2 (one bomb) × spring? no option: 2 per farmer; landlord +4.
    # R-SPRING: no farmer played a card, but spring doubles only with spring_multiplier.
    assert result["status"] == "verified" and result["spring"] is True
    assert result["score"] == {"S": -2, "E": -2, "W": 4}


def test_undo_is_the_position_of_one_step_fewer() -> None:
    steps = ["1", "2", "p", "3", "3333"]
    assert entry_steps.view(entry_steps.rebuild(deal(), steps[:-1])) == entry_steps.view(
        entry_steps.rebuild(deal(), steps)
    ) | {
        "steps": steps[:-1],
        "hands": entry_steps.view(entry_steps.rebuild(deal(), steps[:-1]))["hands"],
        "offline": entry_steps.view(entry_steps.rebuild(deal(), steps[:-1]))["offline"],
        "counts": {"S": 20, "E": 17, "W": 17},
        "plays": [],
        "open": None,
        "allowed": [],
        "to_move": "S",
    }


def test_a_claim_ends_the_entry_and_the_record_carries_it() -> None:
    position = entry_steps.rebuild(deal(), ["1", "2", "p", "3", "claim"])
    assert position.finished and position.end == {"claim": "S"}
    assert entry_steps.to_record(position)["end"] == {"claim": "S"}


# -- quick result ----------------------------------------------------------------------------


def test_quick_result_is_scored_by_the_engine() -> None:
    # R-SC-MULT, seed 000's example: bid 3, two bombs and a rocket, landlord wins → 48/-24/-24.
    # The hands hold the bombs of 3 (S) and 2 (W) and the rocket (E).
    quick = quick_result.QuickResult(
        landlord="S", bid=3, winner="landlord", bombs=("3", "2"), rockets=1
    )
    assert quick_result.check_quick(deal(), quick).score == {"S": 48, "E": -24, "W": -24}
    record = quick_result.quick_record(deal(), quick)
    assert record["bidding"] is None and record["declared"] == {"S": 48, "E": -24, "W": -24}
    fields = quick_result.quick_fields(record)
    assert fields["status"] == "verified" and fields["facts"]["quick"] is True


@pytest.mark.parametrize(
    "claims, rule",
    [
        ({"bombs": ("7",)}, "R-T11"),  # no hand holds four 7s
        ({"bombs": ("3", "3")}, "R-T11"),  # one deck has one bomb of 3s
        ({"rockets": 2}, "R-T12"),
        ({"landlord": "N"}, "R-SEAT"),
        ({"bid": 4}, "R-BID-AUCTION"),
        ({"spring": True, "winner": "farmers"}, "R-SPRING"),
        ({"doubles": ("S",)}, "R-DOUBLE-ORDER"),  # the landlord does not double
    ],
)
def test_an_implausible_quick_result_is_refused(claims, rule) -> None:
    base = {"landlord": "S", "bid": 2, "winner": "landlord"}
    with pytest.raises(entry_steps.EntryError) as caught:
        quick_result.check_quick(deal(), quick_result.QuickResult(**(base | claims)))
    assert caught.value.rule == rule


def test_a_bomb_in_the_bottom_counts_for_the_landlord() -> None:
    # The bottom TA6 gives E, who holds AA, no bomb; W holds one A: none of A anywhere.
    with pytest.raises(entry_steps.EntryError):
        quick_result.check_quick(
            deal(), quick_result.QuickResult(landlord="E", bid=1, winner="landlord", bombs=("A",))
        )


@pytest.mark.parametrize("preset", ["two_player", "four_player"])
def test_seats_come_from_the_rules(preset) -> None:
    import random

    from games.engine import deal_random

    rs = RuleSet.from_spec(preset)
    d = deal_random(rs, random.Random(5), first_bidder=rs.seats[0])
    ed = entry_steps.EntryDeal(
        rules=rs, hands=d.rank_hands(), bottom=d.rank_bottom(), first_bidder=rs.seats[0]
    )
    view = entry_steps.view(entry_steps.start(ed))
    assert view["seats"] == list(rs.seats) and set(view["counts"]) == set(rs.seats)
    assert view["counts"][rs.seats[0]] == rs.hand_size
