"""Verifiable deals: every board of an event derived from one secret 256-bit seed.

Pure: plain values in, plain values out, no Django (the services are in tournaments.events.rounds).

Vocabulary (DESIGN.md, Deals): the event's *seed* is 32 secret bytes, written as 64 lowercase
hex digits; its *commitment* is ``SHA-256(seed bytes)`` in hex, published before play. Once the
event is over the seed is *revealed*, and anyone can recompute every board with this module and
compare (``manage.py ddz_verify_deals``, the public deals page).

The method, so that it can be re-implemented from this text alone:

1. *Byte stream of board n* (n = 1, 2, …): an HMAC_DRBG with SHA-256 (NIST SP 800-90A rev. 1,
   section 10.1.2) instantiated with entropy_input = the 32 seed bytes, an empty nonce and
   personalization_string = ``b"ddz-duplicate board " + ascii(n)`` (e.g. ``b"ddz-duplicate
   board 12"``); no prediction resistance, no reseed. Bytes are taken from successive Generate
   calls of 32 bytes each, with no additional input.
2. *Unbiased integer below b* (b ≥ 1): let w = bit length of b − 1; if w is 0 the answer is 0
   and no byte is read; else read ceil(w / 8) bytes, read them big-endian, keep the low w bits,
   and accept the value if it is below b, otherwise draw again (rejection sampling).
3. *Shuffle*: the deck in the engine's order (``games.engine.cards.SUITED_DECK``: 3 to 2, each
   rank in suits S H D C, then BJ RJ; two decks: deck ``a`` then deck ``b``, each card with its
   deck letter) is shuffled by Fisher–Yates: for i from len − 1 down to 1, draw j below i + 1
   and swap the cards at i and j.
4. *Five players only*: one more integer below (players × hand size) picks the marked card
   (R-5P).
5. *Deal*: ``games.engine.deal.deal_from_order(rules, cards, first_bidder, marked_index)``: each
   seat's hand in seat order, then the bottom (and, two players, the cards set aside).
6. *First bidder* (R-BID): the event's fixed seat when the organizer set one, else the seats in
   turn order by board number, ``seats[(n − 1) mod len(seats)]`` (S, E, W, S, … at three
   players); at five players the marked card's holder speaks first whatever the rule.

Every published commitment depends on these steps staying as written, the engine's deck order
and the mapping of step 5 included: tests/test_dealing_known_answers.py pins them (NIST's
HMAC_DRBG vectors, and a fixed seed whose boards are written out as text). A change that fails
there changes every board of every event ever dealt.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from games.engine import RuleSet
from games.engine.cards import SUITED_DECK, SUITED_TWO_DECKS
from games.engine.deal import Deal, deal_from_order

SEED_BYTES = 32
PERSONALIZATION = b"ddz-duplicate board "


class SeedError(ValueError):
    """A seed that is not 64 hex digits (32 bytes)."""


def seed_new() -> str:
    """A fresh secret seed from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def seed_bytes(seed: str) -> bytes:
    """The 32 bytes of a seed written in hex (upper or lower case, surrounding blanks ignored).

    >>> len(seed_bytes("00" * 32))
    32

    Raises:
        SeedError: not exactly 64 hex digits.
    """
    text = seed.strip().lower()
    if len(text) != 2 * SEED_BYTES or any(c not in "0123456789abcdef" for c in text):
        raise SeedError("a deal seed is 64 hex digits (256 bits)")
    return bytes.fromhex(text)


def commitment(seed: str) -> str:
    """The public commitment to a seed: SHA-256 of its 32 bytes, in hex.

    >>> commitment("00" * 32)
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'

    Raises:
        SeedError: not a seed (see seed_bytes).
    """
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


class HmacDrbg:
    """HMAC_DRBG with SHA-256 (NIST SP 800-90A rev. 1, 10.1.2), without reseeding.

    ``generate(n)`` is the standard Generate function (at most 7500 bytes per call, as the
    standard allows for SHA-256); ``read(n)`` is the byte stream of this module (32-byte
    Generate calls, leftover bytes kept for the next read).
    """

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._key = b"\x00" * 32
        self._value = b"\x01" * 32
        self._update(entropy + nonce + personalization)
        self._buffer = b""

    def _hmac(self, key: bytes, data: bytes) -> bytes:
        return hmac.new(key, data, hashlib.sha256).digest()

    def _update(self, data: bytes) -> None:
        self._key = self._hmac(self._key, self._value + b"\x00" + data)
        self._value = self._hmac(self._key, self._value)
        if data:
            self._key = self._hmac(self._key, self._value + b"\x01" + data)
            self._value = self._hmac(self._key, self._value)

    def generate(self, n: int) -> bytes:
        if not 0 < n <= 7500:
            raise ValueError("HMAC_DRBG returns 1 to 7500 bytes per request")
        out = b""
        while len(out) < n:
            self._value = self._hmac(self._key, self._value)
            out += self._value
        self._update(b"")
        return out[:n]

    def read(self, n: int) -> bytes:
        while len(self._buffer) < n:
            self._buffer += self.generate(32)
        out, self._buffer = self._buffer[:n], self._buffer[n:]
        return out

    def below(self, bound: int) -> int:
        """An integer uniform in [0, bound) by rejection sampling (step 2 of the module)."""
        if bound < 1:
            raise ValueError("bound must be positive")
        bits = (bound - 1).bit_length()
        if bits == 0:
            return 0
        size = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self.read(size), "big") & mask
            if value < bound:
                return value


def board_stream(seed: str, number: int) -> HmacDrbg:
    """The byte stream of board ``number`` (step 1 of the module).

    Raises:
        SeedError: not a seed. ValueError: a board number below 1.
    """
    if number < 1:
        raise ValueError("board numbers start at 1")
    return HmacDrbg(seed_bytes(seed), b"", PERSONALIZATION + str(number).encode("ascii"))


def first_bidder_of(rules: RuleSet, number: int, fixed: str = "") -> str:
    """The first bidder of board ``number`` (step 6; R-BID): ``fixed`` when it is a seat of
    the rules, else the seats in turn by board number.

    >>> rs = RuleSet.from_spec("classic")
    >>> [first_bidder_of(rs, n) for n in range(1, 5)], first_bidder_of(rs, 1, "W")
    (['S', 'E', 'W', 'S'], 'W')
    """
    seats = rules.seats
    if fixed and fixed in seats:
        return fixed
    return seats[(number - 1) % len(seats)]


def deal_board(rules: RuleSet, seed: str, number: int, fixed_first_bidder: str = "") -> Deal:
    """Board ``number`` of the event whose deal seed is ``seed`` (steps 1 to 6).

    Returns a ``games.engine.Deal``: hands (seat → suited text), bottom, first bidder and, for
    two and five players, the cards set aside and the marked card.

    Raises:
        SeedError: not a seed. ValueError: a board number below 1.
    """
    stream = board_stream(seed, number)
    cards = list(SUITED_DECK if rules.decks == 1 else SUITED_TWO_DECKS)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    marked_index = None
    if rules.family == "five":
        marked_index = stream.below(len(rules.seats) * rules.hand_size)
    first = first_bidder_of(rules, number, fixed_first_bidder)
    return deal_from_order(rules, cards, first, marked_index)


@dataclass(frozen=True)
class BoardCheck:
    """One stored board compared with its recomputation: ``number`` and ``match``, and the
    first differing field ("hands", "bottom", "first_bidder", "aside", "marked") or ""."""

    number: int
    match: bool
    field: str = ""


def _same_cards(a: str, b: str) -> bool:
    return sorted(a.split()) == sorted(b.split())


def check_board(
    rules: RuleSet, seed: str, stored: Mapping[str, Any], fixed_first_bidder: str = ""
) -> BoardCheck:
    """Compare a stored board ``{"number", "hands", "bottom", "first_bidder"[, "aside",
    "marked"]}`` with the deal this seed gives it. Cards compare as sets of suited cards.

    Raises:
        SeedError: not a seed.
    """
    number = int(stored["number"])
    deal = deal_board(rules, seed, number, fixed_first_bidder)
    hands = stored.get("hands") or {}
    if set(hands) != set(deal.hands) or not all(
        _same_cards(str(hands[s]), deal.hands[s]) for s in deal.hands
    ):
        return BoardCheck(number, False, "hands")
    if not _same_cards(str(stored.get("bottom", "")), deal.bottom):
        return BoardCheck(number, False, "bottom")
    if (stored.get("first_bidder") or "") != deal.first_bidder:
        return BoardCheck(number, False, "first_bidder")
    if deal.aside is not None and not _same_cards(str(stored.get("aside") or ""), deal.aside):
        return BoardCheck(number, False, "aside")
    if deal.marked is not None and (stored.get("marked") or "") != deal.marked:
        return BoardCheck(number, False, "marked")
    return BoardCheck(number, True)


def check_boards(
    rules: RuleSet,
    seed: str,
    boards: Iterable[Mapping[str, Any]],
    fixed_first_bidder: str = "",
) -> list[BoardCheck]:
    """check_board for each stored board, in the order given.

    Raises:
        SeedError: not a seed.
    """
    seed_bytes(seed)
    return [check_board(rules, seed, b, fixed_first_bidder) for b in boards]
