"""Two-, four- and five-player rules (RULES.md R-2P, R-4P, R-5P; seeds 000, 002, 003, 004).

Each case is taken from the seed text it cites.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import (
    Bidding,
    Contract,
    GameState,
    IllegalPlayError,
    RuleSet,
    beats,
    classify,
    deal_random,
    legal_plays,
    replay,
    settle,
)
from games.engine.combos import Reading
from games.engine.deal import deal_from_order

FOUR = RuleSet.from_spec("four_player")
FIVE = RuleSet.from_spec("five_player")
TWO = RuleSet.from_spec("two_player")
ROOT = Path(__file__).resolve().parents[2]


def types(cards: str, rules: RuleSet) -> set[str]:
    return {r.type for r in classify(cards, rules)}


def test_r_seat_seat_labels() -> None:
    assert TWO.seats == ("S", "N")
    assert FOUR.seats == ("S", "E", "N", "W")
    assert FIVE.seats == ("P1", "P2", "P3", "P4", "P5")


# -- R-4P: seed 000 (欢快斗地主四人斗地主) ------------------------------------------------------


@pytest.mark.parametrize("cards", ["3334", "33344456", "333345", "33334455"])
def test_r_4p_no_trio_with_solo_airplane_with_solos_or_four_with_two(cards: str) -> None:
    """Seed 000: types 4 and 9 (三张带一张, 飞机带小翼) and 13 (四带二) are excluded."""
    assert classify(cards, FOUR) == frozenset()


def test_r_4p_kept_types() -> None:
    assert types("33344", FOUR) == {"trio_with_pair"}
    assert types("3334445566", FOUR) == {"airplane_with_pairs"}
    assert types("34567", FOUR) == {"chain_of_solos"}
    assert types("333444", FOUR) == {"chain_of_trios"}


def test_r_4p_bombs_more_cards_beat_fewer_then_rank() -> None:
    """Seed 000: bombs of four or more cards; more cards beat fewer whatever the rank."""
    assert classify("55555", FOUR) == {Reading("bomb", 5, "5")}
    assert beats("33333", "2222", FOUR)
    assert not beats("2222", "33333", FOUR)
    assert beats("44444", "33333", FOUR)
    assert beats("333333", "22222", FOUR)
    assert beats("33333333", "2222222", FOUR)


def test_r_4p_rocket_is_four_jokers_and_jokers_pair() -> None:
    """Seed 000: the rocket needs four jokers; B+R is not a pair, BB and RR are, also as kickers."""
    assert types("BBRR", FOUR) == {"rocket"}
    assert beats("BBRR", "22222222", FOUR)
    assert types("BB", FOUR) == {"pair"} and types("RR", FOUR) == {"pair"}
    assert classify("BR", FOUR) == frozenset()
    assert beats("RR", "BB", FOUR) and beats("BB", "22", FOUR)
    assert types("333RR", FOUR) == {"trio_with_pair"}


def test_r_4p_only_rockets_and_bombs_of_six_or_more_double() -> None:
    """Seed 000: only the rocket and bombs of 6+ cards double; bid 2 here."""
    bombs = (Reading("bomb", 4, "3"), Reading("bomb", 5, "4"), Reading("bomb", 6, "5"))
    s = settle(
        FOUR,
        Contract("S", 2),
        winner="landlord",
        bombs=3,
        rockets=1,
        spring=False,
        anti_spring=False,
        bomb_readings=bombs,
    )
    assert s.unit == 2 * 2**2
    assert s.score == {"S": 24, "E": -8, "N": -8, "W": -8}


def test_r_4p_trick_ends_after_three_passes_and_bottom_of_eight() -> None:
    deal = deal_random(FOUR, random.Random(4), "S")
    assert all(len(h.split()) == 25 for h in deal.hands.values())
    assert len(deal.bottom.split()) == 8
    state = GameState.start(FOUR, deal.rank_hands(), deal.rank_bottom(), "S")
    assert sum(state.hands_counts[0]) == 33
    lead = legal_plays(state.hands["S"], None, FOUR)[0]
    state = state.apply("S", lead.cards)
    for seat in ("E", "N"):
        state = state.apply(seat, "pass")
    assert not state.leading  # two passes are not enough with four players
    state = state.apply("W", "pass")
    assert state.leading and state.to_move == "S"


def test_r_4p_auction_ends_after_three_passes() -> None:
    b = Bidding.start(FOUR, "E")
    for seat, call in (("E", "1"), ("N", "2"), ("W", "pass"), ("S", "pass"), ("E", "pass")):
        b = b.apply(seat, call)
    assert b.done and b.landlord == "N" and b.bid == 2


def test_r_deck_two_decks_exactly_108_cards() -> None:
    deal = deal_random(FOUR, random.Random(7), "S")
    rec = {
        "id": "4p",
        "rules": "four_player",
        "hands": dict(deal.hands),
        "bottom": deal.bottom,
        "first_bidder": "S",
        "bidding": [["S", "pass"]],
        "plays": [],
        "end": None,
        "declared": None,
    }
    assert replay(rec).status == "incomplete"  # the deal itself is fine
    hands = dict(deal.hands)
    cards = hands["E"].split()
    hands["E"] = " ".join([hands["S"].split()[0], *cards[1:]])  # one card twice, one missing
    rec["hands"] = hands
    out = replay(rec)
    assert out.status == "illegal" and out.error is not None
    assert out.error.stage == "deal" and out.error.rule == "R-DECK"


# -- R-5P: seeds 002, 003 (五人斗地主) --------------------------------------------------------


def test_r_5p_types() -> None:
    """Seed 002: no joker pairs; three with a pair; airplanes with pairs; no trio_with_solo."""
    assert types("BB", FIVE) == {"bomb"}  # 双王炸弹: two equal jokers
    assert classify("BR", FIVE) == frozenset()
    assert classify("3334", FIVE) == frozenset()
    assert types("55577", FIVE) == {"trio_with_pair"}
    assert classify("555BB", FIVE) == frozenset()
    assert types("333444JJKK", FIVE) == {"airplane_with_pairs"}


def test_r_5p_bomb_order() -> None:
    """Seed 002: 4炸 < 双王 < 5炸 < 6炸 < 三王 < 7炸 < 8炸 < 天王炸弹; equal kind by rank."""
    order = ["2222", "BB", "RR", "33333", "333333", "BBR", "3333333", "33333333", "BBRR"]
    for low, high in zip(order, order[1:], strict=False):
        assert beats(high, low, FIVE), (high, low)
        assert not beats(low, high, FIVE), (low, high)
    assert beats("44444", "33333", FIVE)


def _five_deal(seed: int) -> dict[str, object]:
    rng = random.Random(seed)
    deal = deal_random(FIVE, rng)
    return {
        "id": f"5p-{seed}",
        "rules": "five_player",
        "hands": dict(deal.hands),
        "bottom": deal.bottom,
        "first_bidder": deal.first_bidder,
        "marked": deal.marked,
    }


def test_r_5p_marked_card_open_and_hidden_landlord() -> None:
    """Seed 002/RULES.md: the marked card's holder is the open landlord, its twin's holder the
    hidden one, unless the open landlord holds both."""
    from games.engine.cards import SUITED_TWO_DECKS

    rest = [c for c in SUITED_TWO_DECKS if c not in ("S3a", "S3b")]
    order = ["S3a", *rest[:20], "S3b", *rest[20:]]  # P1 holds S3a, P2 holds S3b
    deal = deal_from_order(FIVE, order, marked_index=0)
    assert deal.marked == "S3a" and deal.first_bidder == "P1"
    from games.engine.replay import marked_landlords

    assert marked_landlords(FIVE, deal.hands, "S3a") == ("P1", "P2")
    assert marked_landlords(FIVE, deal.hands, "S3b") == ("P2", "P1")


def test_r_5p_settlement_two_landlords() -> None:
    """RULES.md decision: each landlord–farmer pair settles one unit: farmers ∓2u, landlords ±3u."""
    s = settle(
        FIVE,
        Contract("P1", 1, partner="P3"),
        winner="farmers",
        bombs=0,
        rockets=0,
        spring=False,
        anti_spring=False,
    )
    assert s.score == {"P1": -3, "P2": 2, "P3": -3, "P4": 2, "P5": 2}
    s = settle(
        FIVE,
        Contract("P1", 1),
        winner="landlord",
        bombs=0,
        rockets=0,
        spring=False,
        anti_spring=False,
    )
    assert s.score == {"P1": 4, "P2": -1, "P3": -1, "P4": -1, "P5": -1}


def test_r_5p_doubling_bombs_doubles_reveal_and_spring() -> None:
    """Bombs of 5+ and three or four jokers double; 4-card bombs and two jokers do not; each
    double and the reveal ×2; spring ×2."""
    bombs = (
        Reading("bomb", 4, "3"),
        Reading("bomb", 2, "B"),
        Reading("bomb", 5, "4"),
        Reading("bomb", 3, "R"),
    )
    s = settle(
        FIVE,
        Contract("P2", 1, doubles=("P4",), reveals=1, partner="P5"),
        winner="landlord",
        bombs=4,
        rockets=0,
        spring=True,
        anti_spring=False,
        bomb_readings=bombs,
    )
    assert s.unit == 2**2 * 2 * 2 * 2
    assert s.score["P1"] == -2 * s.unit and s.score["P2"] == 3 * s.unit


def test_r_5p_bidding_doubles_and_reveal() -> None:
    b = Bidding.start(FIVE, "P3", partner="P1")
    calls = {"P3": "pass", "P4": "double", "P5": "pass", "P1": "double", "P2": "pass"}
    for seat in ("P3", "P4", "P5", "P1", "P2"):
        b = b.apply(seat, calls[seat])
    assert b.done and b.doubles == ("P4", "P1") and b.optional_calls() == ["reveal"]
    b = b.apply("P1", "reveal")
    assert b.reveals == 1


def test_r_5p_record_replays_with_the_hidden_landlord() -> None:
    from games.engine.replay import marked_landlords

    rec = _five_deal(3)
    first, partner = marked_landlords(FIVE, rec["hands"], rec["marked"])  # type: ignore[arg-type]
    seats = list(FIVE.seats)
    i = seats.index(first)
    wrong = seats[(i + 1) % 5]
    rec.update(bidding=[[wrong, "pass"]], plays=[], end=None, declared=None)
    out = replay(rec)
    assert out.status == "illegal" and out.error is not None and out.error.rule == "R-5P"
    rec["bidding"] = [[seats[(i + k) % 5], "pass"] for k in range(5)]
    out = replay(rec)
    assert out.status == "incomplete" and out.landlord == first


def test_r_5p_random_games_are_zero_sum_with_partner() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from test_properties import play_random_game

    partners = 0
    for seed in range(12):
        out = replay(play_random_game(seed, "five_player", check_agreement=False))
        assert out.status == "verified" and out.score is not None
        assert sum(out.score.values()) == 0
        if out.partner is not None:
            partners += 1
            assert out.score[out.partner] == out.score[out.landlord]  # type: ignore[index]
    assert partners > 0


# -- R-2P: seeds 002, 003 (二人斗地主) --------------------------------------------------------


def test_r_2p_deal_call_and_trick() -> None:
    """Seed 002: 20 cards each, 3 bottom, 11 set aside; call or pass, the first call wins; a
    trick ends after one pass."""
    deal = deal_random(TWO, random.Random(2), "S")
    assert all(len(h.split()) == 20 for h in deal.hands.values())
    assert len(deal.bottom.split()) == 3 and deal.aside is not None
    assert len(deal.aside.split()) == 11
    b = Bidding.start(TWO, "S").apply("S", "pass").apply("N", "call")
    assert b.done and b.landlord == "N"
    assert Bidding.start(TWO, "N").apply("N", "pass").apply("S", "pass").passed_out
    state = GameState.start(TWO, deal.rank_hands(), deal.rank_bottom(), "N")
    lead = legal_plays(state.hands["N"], None, TWO)[0]
    state = state.apply("N", lead.cards).apply("S", "pass")
    assert state.leading and state.to_move == "N"
    with pytest.raises(IllegalPlayError):
        state.apply("S", "pass")


def test_r_2p_scoring_doubles_per_bomb_and_rocket() -> None:
    s = settle(
        TWO,
        Contract("S", 1),
        winner="landlord",
        bombs=2,
        rockets=1,
        spring=False,
        anti_spring=False,
    )
    assert s.score == {"S": 8, "N": -8}


def test_r_2p_aside_completes_the_deck() -> None:
    deal = deal_random(TWO, random.Random(5), "S")
    rec = {
        "id": "2p",
        "rules": "two_player",
        "hands": dict(deal.hands),
        "bottom": deal.bottom,
        "aside": deal.aside,
        "first_bidder": "S",
        "bidding": [["S", "call"]],
        "plays": [],
        "end": None,
        "declared": None,
    }
    assert replay(rec).status == "incomplete"
    rec["aside"] = " ".join((deal.aside or "").split()[:10])
    out = replay(rec)
    assert out.status == "illegal" and out.error is not None and out.error.rule == "R-2P"


def test_cli_rules_cover_the_other_sizes() -> None:
    def run(*args: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-m", "games.engine", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return json.loads(done.stdout)  # type: ignore[no-any-return]

    assert run("classify", "BBRR", "--rules", "four_player")["readings"] == [
        {"type": "rocket", "length": 1, "rank": "R"}
    ]
    assert run("beats", "BBR", "666666", "--rules", "five_player") == {"beats": True}
    moves = run("moves", "3BB", "--rules", "five_player")["moves"]
    assert moves == ["3", "B", "BB"]
