"""games.live.choices when following an open play: pass first, then the plays that beat it lowest
first (R-CMP, R-AMBIG), the rest grouped by type; and the property that every choice is a turn
the engine accepts and every legal turn is a choice. Expected menus are worked out from
RULES.md by hand."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import EngineError, GameState, RuleSet, legal_plays
from games.engine.cards import RANKS, deck_counts
from games.live.choices import Menu, play_menu

CLASSIC = RuleSet.from_spec("classic")


def steps(choices: tuple[Any, ...]) -> list[str]:
    return [c.step for c in choices]


def group_steps(menu: Menu) -> list[tuple[str, list[str]]]:
    return [(kind, steps(group)) for kind, group in menu.groups]


def test_following_a_pair_offers_pass_then_the_higher_pairs_then_the_rocket() -> None:
    # R-T2, R-CMP: 66 and QQ beat 55 (33 does not); the rocket BR beats everything (R-T12).
    menu = play_menu("3366QQBR", "55", CLASSIC)
    assert steps(menu.primary) == ["pass", "66", "QQ", "BR"]
    assert [c.kind for c in menu.primary] == ["pass", "pair", "pair", "rocket"]
    assert [c.cards for c in menu.primary] == ["", "66", "QQ", "BR"]
    assert menu.groups == ()


def test_bombs_come_after_the_plays_of_the_open_type_and_the_rocket_last() -> None:
    # Over a solo 5: the solos 6 7 9 and each joker alone (R-T1), then the bomb of 4s (R-T11:
    # a bomb beats any non-bomb), then the rocket. The solo 4 does not beat 5.
    menu = play_menu("4444679BR", "5", CLASSIC)
    assert steps(menu.primary) == ["pass", "6", "7", "9", "B", "R", "4444", "BR"]


def test_primary_is_cut_at_primary_size_and_the_rest_is_grouped_by_type() -> None:
    # Twelve solos beat the 3 and so does the bomb of 3s; nine buttons: pass and the eight
    # lowest solos; the other solos and the bomb wait in their groups, in RULES.md type order.
    menu = play_menu("3333456789TJQKA2", "3", CLASSIC, primary_size=9)
    assert steps(menu.primary) == ["pass", "4", "5", "6", "7", "8", "9", "T", "J"]
    assert group_steps(menu) == [("solo", ["Q", "K", "A", "2"]), ("bomb", ["3333"])]


def test_trios_with_a_kicker_come_by_trio_rank_then_kicker_low_first() -> None:
    # R-T4 compared by the trio: 555 and 666 beat 333; each takes any other card as its
    # kicker (R-KICK 2 lets the kicker be a card of the other trio's rank); cards are written
    # in canonical order (R-NOTE), so 666 with the kicker 5 is 5666.
    menu = play_menu("55566679", "3334", CLASSIC)
    assert steps(menu.primary) == ["pass", "5556", "5557", "5559", "5666", "6667", "6669"]
    assert {c.kind for c in menu.primary[1:]} == {"trio_with_solo"}


def test_a_play_that_beats_in_two_types_gives_one_button_per_reading() -> None:
    # R-AMBIG: 333444555666 is open as a chain of four trios (top 6) and as airplanes with
    # solos (3 trios, top 5 or 6). 777888999TTT beats it as a chain (top T) and as an airplane
    # with solos (777888999 + TTT, top 9): the tap declares which.
    menu = play_menu("777888999TTT", "333444555666", CLASSIC)
    assert steps(menu.primary) == [
        "pass",
        "777888999TTT@chain_of_trios",
        "777888999TTT@airplane_with_solos",
    ]
    assert [c.cards for c in menu.primary[1:]] == ["777888999TTT"] * 2


def test_the_readings_the_trick_still_has_narrow_the_menu() -> None:
    # R-AMBIG: S led 333444555666 declared as airplanes with solos, so the chain reading is no
    # longer open and 777888999TTT beats only as an airplane (top 9 or T over top 5 or 6).
    hands = {"S": "333444555666J", "E": "777888999TTT", "W": "K"}
    state = GameState.start(CLASSIC, hands, "", "S").apply(
        "S", "333444555666", "airplane_with_solos"
    )
    menu = play_menu("777888999TTT", "333444555666", CLASSIC, open_readings=state.open)
    assert [(c.step, c.kind) for c in menu.primary] == [
        ("pass", "pass"),
        ("777888999TTT", "airplane_with_solos"),
    ]
    with pytest.raises(EngineError):  # what a menu blind to the narrowing would offer
        state.apply("E", "777888999TTT", "chain_of_trios")


def test_nothing_beats_the_rocket() -> None:
    menu = play_menu("2222", "BR", CLASSIC)  # R-CMP: the rocket beats every play, bombs too
    assert steps(menu.primary) == ["pass"] and menu.groups == ()


def test_four_players_a_longer_bomb_and_the_four_jokers() -> None:
    # R-4P: a bomb of more cards beats one of fewer; 5555 (four cards) does not beat 33333;
    # the four jokers are the rocket.
    rules = RuleSet.from_spec("four_player")
    menu = play_menu("444445555BBRR", "33333", rules)
    assert steps(menu.primary) == ["pass", "44444", "BBRR"]
    assert [c.kind for c in menu.primary] == ["pass", "bomb", "rocket"]


def test_primary_size_below_two_is_refused() -> None:
    with pytest.raises(ValueError, match="primary_size"):
        play_menu("3366", "55", CLASSIC, primary_size=1)


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


def after_previous(rules: RuleSet, hand: str, previous: str) -> tuple[GameState, str]:
    """A state where the seat after the landlord holds ``hand`` and must answer ``previous``,
    just led by the landlord (who keeps a card, so the game goes on)."""
    leader, actor = rules.seats[0], rules.seats[1]
    hands = {seat: "" for seat in rules.seats}
    hands[leader] = previous + "3"
    hands[actor] = hand
    return GameState.start(rules, hands, "", leader).apply(leader, previous), actor


def assert_menu_matches_engine(menu: Menu, state: GameState, seat: str, size: int) -> None:
    choices = list(menu.choices())
    assert len(choices) == len(set(choices)), "a choice is offered twice"
    assert len(menu.primary) <= size
    for choice in choices:  # every button is a turn the engine takes
        cards, _at, reading = choice.step.partition("@")
        state.apply(seat, cards, reading or None)
    offered = {(c.cards, c.kind) for c in choices}
    for move in state.legal_plays():  # every legal turn, in each of its types, is a button
        kinds = {r.type for r in move.readings} or {"pass"}
        assert {(move.cards, k) for k in kinds} <= offered, str(move)
    for kind, group in menu.groups:
        assert group and all(c.kind == kind for c in group)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.sampled_from(SPECS),
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(2, 12),
    data=st.data(),
)
def test_every_follow_choice_is_accepted_and_every_legal_turn_is_offered(
    spec: Any, seed: int, size: int, data: st.DataObject
) -> None:
    rules = RuleSet.from_spec(spec)
    cards = deck(rules)
    random.Random(seed).shuffle(cards)
    n = data.draw(st.integers(1, rules.hand_size + rules.bottom_size), label="hand size")
    hand, other = "".join(cards[:n]), "".join(cards[n : n + rules.hand_size])
    leads = legal_plays(other, None, rules)
    previous = leads[data.draw(st.integers(0, len(leads) - 1), label="lead")].cards
    state, actor = after_previous(rules, hand, previous)
    menu = play_menu(state.hands[actor], previous, rules, primary_size=size)
    assert menu.primary[0].step == "pass"
    assert_menu_matches_engine(menu, state, actor, size)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32 - 1))
def test_a_game_played_by_random_taps_on_the_menus_is_always_legal(spec: Any, seed: int) -> None:
    # Each turn taps a random button, so ambiguous plays get declared readings (R-AMBIG) and
    # the open readings narrow; the menus follow the trick through ``open_readings``.
    rules = RuleSet.from_spec(spec)
    rng = random.Random(seed)
    cards = deck(rules)
    rng.shuffle(cards)
    n = rules.hand_size
    hands = {seat: "".join(cards[i * n : (i + 1) * n]) for i, seat in enumerate(rules.seats)}
    bottom = "".join(cards[len(rules.seats) * n :][: rules.bottom_size])
    state = GameState.start(rules, hands, bottom, rules.seats[0])
    while not state.finished:
        seat = state.to_move or ""
        previous = None
        if not state.leading:
            previous = next(t for _s, t in reversed(state.plays) if t != "pass")
        size = rng.randint(2, 12)
        hand = state.hands[seat]
        menu = play_menu(hand, previous, rules, primary_size=size, open_readings=state.open)
        assert_menu_matches_engine(menu, state, seat, size)
        choice = rng.choice(list(menu.choices()))
        cards_text, _at, reading = choice.step.partition("@")
        state = state.apply(seat, cards_text, reading or None)
