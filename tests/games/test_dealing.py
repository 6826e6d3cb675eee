"""Verifiable deals (games.dealing): the derivation is reproducible, unbiased in its
parts, matches the commitment, and deals every table size through the engine."""

from __future__ import annotations

import hashlib
import hmac
from collections import Counter

import pytest

from games import dealing
from games.engine import RuleSet
from games.engine.cards import SUITED_DECK, SUITED_TWO_DECKS

SEED = "3f" * 32


def test_commitment_is_sha256_of_the_seed_bytes() -> None:
    assert dealing.commitment(SEED) == hashlib.sha256(bytes([0x3F] * 32)).hexdigest()
    assert dealing.commitment(SEED.upper()) == dealing.commitment(SEED)


@pytest.mark.parametrize("bad", ["", "00" * 31, "00" * 33, "zz" * 32, "0x" + "00" * 31])
def test_a_seed_is_64_hex_digits(bad: str) -> None:
    with pytest.raises(dealing.SeedError):
        dealing.commitment(bad)


def test_drbg_follows_sp800_90a_hmac_drbg() -> None:
    # The standard's algorithm written out independently: Update with the seed material, then
    # one Generate of 32 bytes (V = HMAC(K, V)), then Update with no input.
    def update(k: bytes, v: bytes, data: bytes) -> tuple[bytes, bytes]:
        k = hmac.new(k, v + b"\x00" + data, hashlib.sha256).digest()
        v = hmac.new(k, v, hashlib.sha256).digest()
        if data:
            k = hmac.new(k, v + b"\x01" + data, hashlib.sha256).digest()
            v = hmac.new(k, v, hashlib.sha256).digest()
        return k, v

    seed = bytes(range(32))
    k, v = update(b"\x00" * 32, b"\x01" * 32, seed + b"ddz-duplicate board 7")
    v = hmac.new(k, v, hashlib.sha256).digest()
    first = v
    k, v = update(k, v, b"")
    v = hmac.new(k, v, hashlib.sha256).digest()
    stream = dealing.board_stream(seed.hex(), 7)
    assert stream.read(32) == first
    assert stream.read(32) == v


def test_integers_below_a_bound_are_uniform_enough() -> None:
    stream = dealing.board_stream(SEED, 1)
    draws = Counter(stream.below(3) for _ in range(3000))
    assert set(draws) == {0, 1, 2}
    assert all(900 < n < 1100 for n in draws.values())
    assert dealing.board_stream(SEED, 1).below(1) == 0


def test_boards_are_reproducible_and_differ() -> None:
    rules = RuleSet.from_spec("classic")
    a = dealing.deal_board(rules, SEED, 5)
    b = dealing.deal_board(rules, SEED, 5)
    c = dealing.deal_board(rules, SEED, 6)
    other = dealing.deal_board(rules, "40" * 32, 5)
    assert a == b
    assert a.hands != c.hands and a.hands != other.hands


def test_a_board_deals_the_whole_deck_once() -> None:
    rules = RuleSet.from_spec("classic")
    deal = dealing.deal_board(rules, SEED, 1)
    cards = [c for hand in deal.hands.values() for c in hand.split()] + deal.bottom.split()
    assert sorted(cards) == sorted(SUITED_DECK)
    assert [len(h.split()) for h in deal.hands.values()] == [17, 17, 17]


def test_first_bidder_rotates_by_board_unless_fixed() -> None:
    rules = RuleSet.from_spec("classic")
    assert [dealing.deal_board(rules, SEED, n).first_bidder for n in range(1, 7)] == list("SEWSEW")
    assert {dealing.deal_board(rules, SEED, n, "E").first_bidder for n in range(1, 4)} == {"E"}


@pytest.mark.parametrize(
    ("preset", "hand", "bottom", "deck"),
    [("two_player", 20, 3, SUITED_DECK), ("four_player", 25, 8, SUITED_TWO_DECKS)],
)
def test_other_table_sizes(preset: str, hand: int, bottom: int, deck: tuple[str, ...]) -> None:
    rules = RuleSet.from_spec(preset)
    deal = dealing.deal_board(rules, SEED, 2)
    assert list(deal.hands) == list(rules.seats)
    assert all(len(h.split()) == hand for h in deal.hands.values())
    assert len(deal.bottom.split()) == bottom
    cards = [c for h in deal.hands.values() for c in h.split()] + deal.bottom.split()
    cards += (deal.aside or "").split()
    assert sorted(cards) == sorted(deck)
    assert deal.first_bidder == rules.seats[1]


def test_five_players_have_a_marked_card_held_by_the_first_bidder() -> None:
    rules = RuleSet.from_spec("five_player")
    deal = dealing.deal_board(rules, SEED, 3)
    assert deal.marked and deal.marked in deal.hands[deal.first_bidder].split()


def test_check_boards_finds_the_board_that_was_changed() -> None:
    rules = RuleSet.from_spec("classic")
    stored = []
    for n in (1, 2, 3):
        d = dealing.deal_board(rules, SEED, n)
        stored.append({"number": n, **d.to_dict()})
    hands = dict(stored[1]["hands"])
    s, e = hands["S"].split(), hands["E"].split()
    s[0], e[0] = e[0], s[0]
    hands["S"], hands["E"] = " ".join(s), " ".join(e)
    stored[1] = {**stored[1], "hands": hands}
    stored[2] = {**stored[2], "first_bidder": "S"}
    checks = dealing.check_boards(rules, SEED, stored)
    assert [(c.number, c.match, c.field) for c in checks] == [
        (1, True, ""),
        (2, False, "hands"),
        (3, False, "first_bidder"),
    ]
