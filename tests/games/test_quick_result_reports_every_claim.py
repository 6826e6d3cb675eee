"""A quick result is checked claim by claim and every refused claim is reported at once, each
with the bound the rules give: the bid 1 to 3 under classic rules (R-BID-AUCTION), at most the
rockets the deck holds (R-DECK, R-T12: one with one deck; R-4P: the four jokers of two decks
make one), bombs each a rank and no rank claimed more often than the deck holds four of it
(R-DECK, R-T11). Hands are fixed by hand so that each expected value follows from the rules."""

from __future__ import annotations

import pytest

from games import quick_result
from games import steps as entry_steps
from games.engine import RuleSet

# A classic deal (R-DECK: 54 cards): S holds four 3s, E both jokers, W four 2s; no hand holds
# four 7s.
HANDS = {
    "S": "333344556677889TJ",
    "E": "4557899TJQQKKAABR",
    "W": "46789TJQKA2222JQK",
}
BOTTOM = "TA6"
ORDER = "3456789TJQKA2BR"


def classic_deal() -> entry_steps.EntryDeal:
    hands = {s: "".join(sorted(h, key=ORDER.index)) for s, h in HANDS.items()}
    return entry_steps.EntryDeal(
        rules=RuleSet.from_spec("classic"), hands=hands, bottom=BOTTOM, first_bidder="S"
    )


def by_field(problems: list[entry_steps.EntryError]) -> dict[str, list[entry_steps.EntryError]]:
    out: dict[str, list[entry_steps.EntryError]] = {}
    for problem in problems:
        out.setdefault(str(problem.field), []).append(problem)
    return out


def test_bid_bombs_and_rockets_are_all_refused_with_their_bounds() -> None:
    quick = quick_result.QuickResult(
        landlord="S", bid=99, winner="landlord", bombs=("7", "7", "Z"), rockets=5
    )
    found = by_field(quick_result.quick_problems(classic_deal(), quick))
    assert set(found) == {"bid", "bombs", "rockets"}
    # R-BID-AUCTION: a bid is 1, 2 or 3.
    (bid,) = found["bid"]
    assert (bid.params["low"], bid.params["high"]) == (1, 3)
    assert bid.rule == "R-BID-AUCTION"
    # R-DECK: one deck, one small and one big joker: one rocket at most.
    (rockets,) = found["rockets"]
    assert (rockets.params["low"], rockets.params["high"]) == (0, 1)
    assert rockets.rule == "R-T12"
    # Z names no rank (R-NOTE); no hand holds four 7s (see HANDS), so no bomb of 7 at all.
    bombs = {(p.error_code, p.params.get("rank")) for p in found["bombs"]}
    assert bombs == {("quick.bomb_rank", "Z"), ("quick.no_bomb", "7")}


def test_the_refusal_raised_carries_every_field() -> None:
    quick = quick_result.QuickResult(
        landlord="S", bid=99, winner="landlord", bombs=("7", "7", "Z"), rockets=5
    )
    with pytest.raises(entry_steps.EntryError) as caught:
        quick_result.quick_record(classic_deal(), quick)
    fields = caught.value.fields or {}
    assert set(fields) == {"bid", "bombs", "rockets"}
    assert len(fields["bombs"]) == 2  # the unknown rank and the second bomb of 7


def test_the_deck_bounds_are_checked_even_when_the_landlord_is_refused() -> None:
    # Without a landlord the hands cannot be checked, but the deck's bounds still hold.
    quick = quick_result.QuickResult(
        landlord="N", bid=2, winner="landlord", bombs=("Z", "3", "3"), rockets=2
    )
    found = by_field(quick_result.quick_problems(classic_deal(), quick))
    assert set(found) == {"landlord", "bombs", "rockets"}
    assert found["rockets"][0].params["high"] == 1
    # One deck holds four 3s: one bomb of 3 at most (R-DECK).
    bombs = {(p.error_code, p.params.get("rank")): p.params for p in found["bombs"]}
    assert set(bombs) == {("quick.bomb_rank", "Z"), ("quick.bombs_count", "3")}
    assert bombs[("quick.bombs_count", "3")]["n"] == 1


def test_two_decks_hold_one_rocket_and_two_bombs_of_a_rank() -> None:
    # R-4P: the rocket is all four jokers, so two decks hold one; eight 7s make two bombs of 7
    # at most. The landlord is left out so that only the deck's bounds are at stake.
    rules = RuleSet.from_spec("four_player")
    deal = entry_steps.EntryDeal(
        rules=rules, hands={s: "" for s in rules.seats}, bottom="", first_bidder="S"
    )
    quick = quick_result.QuickResult(
        landlord="X", bid=1, winner="landlord", bombs=("7", "7", "7"), rockets=2
    )
    found = by_field(quick_result.quick_problems(deal, quick))
    assert found["rockets"][0].params["high"] == 1
    (bomb,) = found["bombs"]
    assert (bomb.error_code, bomb.params["n"]) == ("quick.bombs_count", 2)


@pytest.mark.parametrize(
    "preset, bid, bound",
    [
        ("classic", 4, {"low": 1, "high": 3}),  # R-BID-AUCTION
        ("classic", 0, {"low": 1, "high": 3}),
        ("two_player", 2, {"low": 1, "high": 1}),  # R-2P: the first call makes the landlord
    ],
)
def test_an_impossible_bid_names_the_bids_of_the_rules(preset, bid, bound) -> None:
    rules = RuleSet.from_spec(preset)
    deal = entry_steps.EntryDeal(
        rules=rules, hands={s: "" for s in rules.seats}, bottom="", first_bidder="S"
    )
    quick = quick_result.QuickResult(landlord="X", bid=bid, winner="landlord")
    (problem,) = by_field(quick_result.quick_problems(deal, quick))["bid"]
    assert {k: problem.params[k] for k in bound} == bound
