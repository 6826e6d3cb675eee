"""games.live.choices.taps: what a step costs with a menu (1 on a primary button, 2 in a group, else
one tap a card plus one to play, plus one for the reading of an ambiguous play), the bidding
buttons, and the goal on the real recorded games: at most 1.2 taps a step."""

from __future__ import annotations

import json

import pytest

from games.engine import EngineError, GameState, RuleSet
from games.live.choices import call_menu, play_menu, taps
from tests.paths import DATA_DIR

CLASSIC = RuleSet.from_spec("classic")


@pytest.mark.parametrize(
    "step, cost",
    [
        ("66", 1),  # a primary button
        ("BR", 1),  # the rocket beats the pair (R-T12): primary too
        ("pass", 1),
        ("p", 1),  # any pass word of R-NOTE is the pass button
        ("不要", 1),
        ("QQ", 1),
        ("q q", 1),  # compared as canonical cards (R-NOTE: lower case, separators)
        ("33", 3),  # not a legal follow (33 does not beat 55): two cards typed and play
    ],
)
def test_taps_following_a_pair(step: str, cost: int) -> None:
    menu = play_menu("3366QQBR", "55", CLASSIC)
    assert taps(menu, step, CLASSIC) == cost


@pytest.mark.parametrize(
    "step, cost",
    [
        ("J", 1),  # the eighth lowest solo: still a primary button (pass + eight)
        ("10", 1),  # R-NOTE: 10 is T, a primary button
        ("k", 2),  # the group of solos, then the K
        ("3333", 2),  # the group of bombs, then the bomb
        ("34567", 6),  # not in the menu: five cards typed, and play
    ],
)
def test_taps_beyond_the_primary_buttons(step: str, cost: int) -> None:
    menu = play_menu("3333456789TJQKA2", "3", CLASSIC, primary_size=9)
    assert taps(menu, step, CLASSIC) == cost


def test_taps_of_an_ambiguous_play() -> None:
    # R-AMBIG: both readings of 777888999TTT are buttons; the plain cards match either, a
    # declared reading matches its own.
    menu = play_menu("777888999TTT", "333444555666", CLASSIC)
    assert taps(menu, "777888999TTT", CLASSIC) == 1
    assert taps(menu, "777888999TTT@airplane_with_solos", CLASSIC) == 1
    # Typed where the menu does not have it: twelve cards, play, and the reading to choose.
    lone = play_menu("3", None, CLASSIC)
    assert taps(lone, "333444555666", CLASSIC) == 12 + 1 + 1
    assert taps(lone, "3456789", CLASSIC) == 7 + 1  # one reading only (R-T6)


def test_every_allowed_call_is_a_primary_button() -> None:
    # R-BID-AUCTION: pass or a bid above the current one; the engine's words.
    menu = call_menu(["pass", "1", "2", "3"])
    assert [(c.step, c.kind, c.cards) for c in menu.primary] == [
        ("pass", "pass", ""),
        ("1", "call", ""),
        ("2", "call", ""),
        ("3", "call", ""),
    ]
    assert menu.groups == ()
    assert taps(menu, "2", CLASSIC) == 1
    assert taps(menu, "不叫", CLASSIC) == 1  # a pass word of the bidding
    double = call_menu(["double", "pass"])  # R-DOUBLE-ORDER
    assert taps(double, "double", CLASSIC) == 1 and taps(double, "p", CLASSIC) == 1


def _replay_taps() -> tuple[int, int, int]:
    """Steps, taps and the most one step cost, over the real games of tests/data (plays only:
    these records give the landlord and no bidding; a game stops at a refused step)."""
    steps = total = worst = 0
    for name in ("rlcard_rule_agents.jsonl", "botzone_ftl1.jsonl"):
        for line in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            rules = RuleSet.from_spec(record["rules"])
            state = GameState.start(rules, record["hands"], record["bottom"], record["landlord"])
            for seat, step in record["plays"]:
                previous = None
                if not state.leading:
                    previous = next(t for _s, t in reversed(state.plays) if t != "pass")
                try:
                    after = state.apply(seat, step)
                except EngineError:
                    break
                menu = play_menu(state.hands[seat], previous, rules, open_readings=state.open)
                cost = taps(menu, step, rules)
                steps, total, worst = steps + 1, total + cost, max(worst, cost)
                state = after
    return steps, total, worst


def test_the_real_games_need_at_most_1_2_taps_a_step() -> None:
    steps, total, worst = _replay_taps()
    # 500 RLCard games and 22 Botzone games; one Botzone game stops at a pass on a lead.
    assert steps > 23_000
    assert total / steps <= 1.2
    # Every legal turn is a button, so no recorded (legal) step needs typing.
    assert worst <= 2
