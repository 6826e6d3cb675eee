"""games.live.choices when leading: the natural split of the hand (bombs and rocket whole, chains,
trios with the smallest kickers, pairs, solos) as the first buttons, then the likeliest other
leads; and the property that every choice is a lead the engine accepts and every legal lead is
a choice. Expected splits are worked out by hand from the heuristic's rules and RULES.md."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GameState, RuleSet
from games.engine.cards import RANKS, deck_counts
from games.live.choices import Menu, natural_split, play_menu

CLASSIC = RuleSet.from_spec("classic")


def split(hand: str, rules: RuleSet = CLASSIC) -> list[str]:
    return [c.step for c in natural_split(hand, rules)]


@pytest.mark.parametrize(
    "hand, expected",
    [
        # A trio takes the smallest solo (R-T4); the pair stays a pair.
        ("33357QQ", ["3335", "7", "QQ"]),
        # Two consecutive trios fly with the two smallest solos (R-T9).
        ("333444569K", ["33344456", "9", "K"]),
        # No solo to spare: the trio takes the smallest pair (R-T5).
        ("77799KK", ["77799", "KK"]),
        # A 2 is never given away as a kicker: players keep it to win a trick.
        ("8882", ["888", "2"]),
        # A straight through a trio leaves a pair: 2 combinations instead of 777+3, 4, 5, 6.
        ("3456777", ["34567", "77"]),
        # The straight leaves out the end rank whose pair it can do without (R-T6: 5 ranks).
        ("3345678", ["33", "45678"]),
        # A pair chain (R-T7) leaves 3 combinations where the straight 34567 would leave 4.
        ("33445567", ["334455", "6", "7"]),
        # Bombs are kept whole even where a straight could use a card of them (R-T11).
        ("33334567", ["4", "5", "6", "7", "3333"]),
        # Straight, trio (no kicker below the 2), pair chain, the 2, then the rocket last.
        ("34567999JJQQKK2BR", ["34567", "999", "JJQQKK", "2", "BR"]),
    ],
)
def test_natural_split_of_a_classic_hand(hand: str, expected: list[str]) -> None:
    assert split(hand) == expected


def test_natural_split_declares_the_reading_of_an_ambiguous_combination() -> None:
    # R-AMBIG: four consecutive trios also read as airplanes with solos; the split means the
    # chain of trios (R-T8) and says so.
    (only,) = natural_split("333444555666", CLASSIC)
    assert (only.step, only.kind, only.cards) == (
        "333444555666@chain_of_trios",
        "chain_of_trios",
        "333444555666",
    )


def test_natural_split_at_other_table_sizes() -> None:
    # R-4P: five 3s are one bomb, BB is a pair; R-5P: two equal jokers are a bomb.
    assert split("3333344BB", RuleSet.from_spec("four_player")) == ["44", "BB", "33333"]
    five = natural_split("5BB", RuleSet.from_spec("five_player"))
    assert [(c.step, c.kind) for c in five] == [("5", "solo"), ("BB", "bomb")]


def test_lead_primary_is_the_split_then_its_variants_then_the_lowest_leads() -> None:
    # Split 3335, 7, QQ; then the kicker 5 alone and the bare trio 333; then the lowest solo
    # and pair; then the other leads holding the lowest card, fewest cards first.
    menu = play_menu("33357QQ", None, CLASSIC)
    assert [c.step for c in menu.primary] == [
        "3335",
        "7",
        "QQ",
        "5",
        "333",
        "3",
        "33",
        "3337",
        "333Q",
    ]
    groups = [(kind, [c.step for c in group]) for kind, group in menu.groups]
    assert groups == [("solo", ["Q"]), ("trio_with_pair", ["333QQ"])]


def test_a_hand_that_is_one_combination_leads_with_it_first() -> None:
    menu = play_menu("33344456", None, CLASSIC)  # R-T9: airplane with the solos 5 and 6
    assert menu.primary[0].step == "33344456"
    assert menu.primary[0].kind == "airplane_with_solos"


def test_a_lead_never_offers_pass() -> None:
    menu = play_menu("3", None, CLASSIC)  # R-LEAD: the leader must play
    assert [c.step for c in menu.primary] == ["3"] and menu.groups == ()


def test_menu_to_dict_is_plain_json() -> None:
    menu = play_menu("33357QQ", None, CLASSIC, primary_size=2)
    data = menu.to_dict()
    assert data["primary"] == [
        {"step": "3335", "kind": "trio_with_solo", "cards": "3335"},
        {"step": "7", "kind": "solo", "cards": "7"},
    ]
    assert data["groups"][0] == {
        "kind": "solo",
        "choices": [
            {"step": "3", "kind": "solo", "cards": "3"},
            {"step": "5", "kind": "solo", "cards": "5"},
            {"step": "Q", "kind": "solo", "cards": "Q"},
        ],
    }


# -- the property ------------------------------------------------------------------------------

SPECS: list[Any] = [
    "classic",
    {"preset": "classic", "options": {"space_shuttle": True}},
    {"preset": "classic", "options": {"bomb_in_kickers": True, "rocket_in_kickers": True}},
    {"preset": "classic", "options": {"solo_kickers_may_pair": False}},
    "two_player",
    "four_player",
    "five_player",
]


def deck(rules: RuleSet) -> list[str]:
    return [RANKS[r] for r, n in enumerate(deck_counts(rules.decks)) for _ in range(n)]


def leading(rules: RuleSet, hand: str) -> tuple[GameState, str]:
    """The state where the landlord, holding ``hand``, leads the first trick (R-LEAD)."""
    seat = rules.seats[0]
    hands = {s: "" for s in rules.seats}
    hands[seat] = hand
    return GameState.start(rules, hands, "", seat), seat


def assert_lead_menu_matches_engine(menu: Menu, state: GameState, seat: str, size: int) -> None:
    choices = list(menu.choices())
    assert len(choices) == len(set(choices)), "a choice is offered twice"
    assert 0 < len(menu.primary) <= size
    for choice in choices:  # every button is a lead the engine takes
        assert choice.kind != "pass"
        cards, _at, reading = choice.step.partition("@")
        state.apply(seat, cards, reading or None)
    offered = {(c.cards, c.kind) for c in choices}
    for move in state.legal_plays():  # every legal lead, in each of its types, is a button
        assert {(move.cards, r.type) for r in move.readings} <= offered, str(move)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.sampled_from(SPECS),
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(2, 12),
    data=st.data(),
)
def test_every_lead_choice_is_accepted_and_every_legal_lead_is_offered(
    spec: Any, seed: int, size: int, data: st.DataObject
) -> None:
    rules = RuleSet.from_spec(spec)
    cards = deck(rules)
    random.Random(seed).shuffle(cards)
    n = data.draw(st.integers(1, rules.hand_size + rules.bottom_size), label="hand size")
    state, seat = leading(rules, "".join(cards[:n]))
    hand = state.hands[seat]
    menu = play_menu(hand, None, rules, primary_size=size)
    assert_lead_menu_matches_engine(menu, state, seat, size)
    # The natural split uses every card once, each part a legal lead in its intended type.
    parts = natural_split(hand, rules)
    assert "".join(sorted("".join(p.cards for p in parts), key=RANKS.index)) == hand
    for part in parts:
        cards_text, _at, reading = part.step.partition("@")
        state.apply(seat, cards_text, reading or None)
