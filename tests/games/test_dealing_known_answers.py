"""Deals stay verifiable forever.

A published commitment is only worth something if the boards it commits to can be derived
again years later. Two kinds of known answers pin the derivation of games.dealing:

- the HMAC_DRBG against NIST's own test vectors (CAVP, SP 800-90A), and against a reference
  written here from SP 800-90A section 10.1.2 with hmac and hashlib only;
- a pinned event: a fixed seed whose boards are written below as text (suited card notation,
  R-SUIT), so that a change to the deck order, the shuffle, the rejection sampling, the
  personalization string or the mapping from the shuffled deck to hands and bottom fails here
  instead of silently breaking every published commitment. The literal boards were derived by
  the reference derivation of this file (``_reference_board``, written from the method in
  games.dealing's docstring, importing nothing of the project), and the product must
  agree with both.
"""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from games import dealing
from games.engine import RuleSet
from games.models import Board

# --- HMAC_DRBG known answers --------------------------------------------------------------

# NIST CAVP, drbgvectors_no_reseed.zip, HMAC_DRBG.rsp, section [SHA-256]
# [PredictionResistance = False] [EntropyInputLen = 256] [NonceLen = 128]
# [AdditionalInputLen = 0] [ReturnedBitsLen = 1024]. Each case instantiates with EntropyInput,
# Nonce and PersonalizationString, calls Generate twice for 1024 bits, and ReturnedBits is the
# output of the second call. (entropy, nonce, personalization, returned bits), in hex.
CAVP_SHA256_NO_RESEED = {
    "[PersonalizationStringLen = 0] COUNT = 0": (
        "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488",
        "659ba96c601dc69fc902940805ec0ca8",
        "",
        "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
        "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
        "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
        "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8",
    ),
    "[PersonalizationStringLen = 0] COUNT = 1": (
        "79737479ba4e7642a221fcfd1b820b134e9e3540a35bb48ffae29c20f5418ea3",
        "3593259c092bef4129bc2c6c9e19f343",
        "",
        "cf5ad5984f9e43917aa9087380dac46e410ddc8a7731859c84e9d0f31bd43655"
        "b924159413e2293b17610f211e09f770f172b8fb693a35b85d3b9e5e63b1dc25"
        "2ac0e115002e9bedfb4b5b6fd43f33b8e0eafb2d072e1a6fee1f159df9b51e6c"
        "8da737e60d5032dd30544ec51558c6f080bdbdab1de8a939e961e06b5f1aca37",
    ),
    "[PersonalizationStringLen = 256] COUNT = 0": (
        "5cacc68165a2e2ee20812f35ec73a79dbf30fd475476ac0c44fc6174cdac2b55",
        "6f885496c1e63af620becd9e71ecb824",
        "e72dd8590d4ed5295515c35ed6199e9d211b8f069b3058caa6670b96ef1208d0",
        "f1012cf543f94533df27fedfbf58e5b79a3dc517a9c402bdbfc9a0c0f721f9d5"
        "3faf4aafdc4b8f7a1b580fcaa52338d4bd95f58966a243cdcd3f446ed4bc546d"
        "9f607b190dd69954450d16cd0e2d6437067d8b44d19a6af7a7cfa8794e5fbd72"
        "8e8fb2f2e8db5dd4ff1aa275f35886098e80ff844886060da8b1e7137846b23b",
    ),
}


class _ReferenceDrbg:
    """HMAC_DRBG (SP 800-90A rev. 1, 10.1.2) with SHA-256, outlen 256 bits, written from the
    standard's pseudocode: Update (10.1.2.2), Instantiate (10.1.2.3: Key = 0x00…, V = 0x01…,
    seed_material = entropy_input || nonce || personalization_string), Generate (10.1.2.5,
    no additional input: V = HMAC(Key, V) until enough bits, then Update with no data)."""

    def __init__(self, entropy: bytes, nonce: bytes, personalization: bytes) -> None:
        self.key, self.v = bytes(32), b"\x01" * 32
        self._update(entropy + nonce + personalization)

    def _update(self, provided: bytes) -> None:
        self.key = hmac.new(self.key, self.v + b"\x00" + provided, hashlib.sha256).digest()
        self.v = hmac.new(self.key, self.v, hashlib.sha256).digest()
        if not provided:
            return
        self.key = hmac.new(self.key, self.v + b"\x01" + provided, hashlib.sha256).digest()
        self.v = hmac.new(self.key, self.v, hashlib.sha256).digest()

    def generate(self, length: int) -> bytes:
        temp = b""
        while len(temp) < length:
            self.v = hmac.new(self.key, self.v, hashlib.sha256).digest()
            temp += self.v
        self._update(b"")
        return temp[:length]


@pytest.mark.parametrize("case", list(CAVP_SHA256_NO_RESEED))
def test_hmac_drbg_gives_nists_returned_bits(case: str) -> None:
    entropy, nonce, personalization, returned = (
        bytes.fromhex(h) for h in CAVP_SHA256_NO_RESEED[case]
    )
    product = dealing.HmacDrbg(entropy, nonce, personalization)
    product.generate(128)
    assert product.generate(128) == returned
    reference = _ReferenceDrbg(entropy, nonce, personalization)
    reference.generate(128)
    assert reference.generate(128) == returned


def test_the_board_stream_is_successive_32_byte_generate_calls() -> None:
    # Step 1 of games.dealing: entropy = the seed, empty nonce, personalization
    # "ddz-duplicate board <n>", bytes taken from Generate calls of 32 bytes each.
    seed = bytes(range(32))
    reference = _ReferenceDrbg(seed, b"", b"ddz-duplicate board 12")
    expected = b"".join(reference.generate(32) for _ in range(4))
    stream = dealing.board_stream(seed.hex(), 12)
    assert stream.read(5) + stream.read(59) + stream.read(64) == expected


# --- The pinned event ---------------------------------------------------------------------

PINNED_SEED = "5eed" * 16
# SHA-256 of the 32 seed bytes.
PINNED_COMMITMENT = "f9fa5c699354e46a448f75765ae99bf06741d541ab6c337c0f3722850adbb136"

# Boards 1 to 3 of a classic event (three players, first bidder rotating S, E, W).
PINNED_CLASSIC = {
    1: {
        "hands": {
            "S": "D4 C4 S5 H8 D8 C8 S9 SJ DJ CJ SQ HQ CQ CK CA H2 RJ",
            "E": "S3 S4 H4 H5 C5 C6 H7 C7 DT CT HJ DQ SA HA DA C2 BJ",
            "W": "H3 D3 C3 D5 S6 D6 S7 D7 S8 H9 D9 C9 ST HT HK S2 D2",
        },
        "bottom": "H6 SK DK",
        "first_bidder": "S",
    },
    2: {
        "hands": {
            "S": "C3 S5 C7 S8 H8 D8 S9 ST HJ HQ DQ SK HK CA D2 BJ RJ",
            "E": "S3 H5 D5 C5 H6 S7 H7 C8 H9 HT DT CT SQ DK HA S2 H2",
            "W": "H3 D3 S4 H4 D4 C4 S6 D6 C6 C9 DJ CJ CQ CK SA DA C2",
        },
        "bottom": "D7 D9 SJ",
        "first_bidder": "E",
    },
    3: {
        "hands": {
            "S": "C3 H5 C6 S7 D7 H8 D8 S9 D9 CT SJ HJ CJ DQ CK CA C2",
            "E": "H3 D3 S4 H4 D4 C5 S6 H6 D6 ST HT DJ SQ HA DA H2 D2",
            "W": "S5 D5 H7 C7 C8 H9 C9 DT HQ CQ SK HK DK SA S2 BJ RJ",
        },
        "bottom": "S3 C4 S8",
        "first_bidder": "W",
    },
}
# The same boards by rank (R-NOTE) and their deal keys (games.notation.deal_key: SHA-256 of the
# canonical JSON {"bottom", "first_bidder", "hands"} by rank, keys sorted, no spaces).
PINNED_CLASSIC_RANKS = {
    1: ({"S": "4458889JJJQQQKA2R", "E": "34455677TTJQAAA2B", "W": "333566778999TTK22"}, "6KK"),
    2: ({"S": "3578889TJQQKKA2BR", "E": "355567789TTTQKA22", "W": "3344446669JJQKAA2"}, "79J"),
    3: ({"S": "356778899TJJJQKA2", "E": "334445666TTJQAA22", "W": "5577899TQQKKKA2BR"}, "348"),
}
PINNED_CLASSIC_KEYS = {
    1: "cd8f71b753e04952fb3308b4ab6bf5a4671d919fe8e3356e5e56997ebefea3f5",
    2: "ef6614e54f0e26452b97d439902f6224cf064bece7496651431d1c1adb8aa9e7",
    3: "4741d20db5d8fe8a62d9539614dc047cb1bff0d6e8c9a581f5d2490d1256fe6a",
}
# Board 1 of the same seed at the other table sizes: two players (11 cards set aside),
# four players (two decks, each card with its deck a or b) and five players (the marked card,
# whose holder speaks first).
PINNED_OTHER_SIZES = {
    "two_player": {
        "hands": {
            "S": "S3 D4 C4 S5 H5 H8 D8 C8 S9 SJ DJ CJ SQ HQ CQ CK DA CA H2 RJ",
            "N": "D3 S4 H4 C5 C6 S7 H7 C7 H9 ST DT CT HJ DQ SA HA S2 D2 C2 BJ",
        },
        "bottom": "H3 D5 HK",
        "aside": "C3 S6 H6 D6 D7 S8 D9 C9 HT SK DK",
        "first_bidder": "S",
    },
    "four_player": {
        "hands": {
            "S": "H3b S4a S4b C4a C4b D5b S6a D6a D6b C6a C7a C7b S8a D8a D9b SJb DJb CKa CKb "
            "DAa CAb S2a H2b D2b C2b",
            "E": "S3a C3b H4b D4b S5a C5a C6b S7b H7b H9b SJa HJa HJb CJb SQa HQa DQa DQb CQa "
            "HKa SAa DAb CAa D2a RJa",
            "N": "S3b D3a H4a D4a H5a D5a H6a D7b H8a C8a S9a STa HTb DTa CTa CTb HQb CQb SKb "
            "HKb DKb H2a BJa BJb RJb",
            "W": "H3a D3b C3a S5b H5b C5b S6b H6b S7a H7a D7a S8b H8b D8b H9a C9b HTa DJa CJa "
            "SQb SAb HAa HAb S2b C2a",
        },
        "bottom": "C8b S9b D9a C9a STb DTb SKa DKa",
        "first_bidder": "S",
    },
    "five_player": {
        "hands": {
            "P1": "H3b S4a S4b C4a C4b D5b S6a C6a C7a C7b S8a D9b SJb CKa CKb DAa CAb S2a H2b "
            "D2b C2b",
            "P2": "S3a C3b H4b D4b S5a D6a D6b H7b D8a HJb DJb CJb SQa DQb CQa HKa SAa DAb CAa "
            "D2a RJa",
            "P3": "D4a H5a D5a C5a C6b S7b D7b C8a S9a H9b HTb DTa SJa HJa HQa HQb DQa SKb HKb "
            "DKb BJb",
            "P4": "S3b D3a H4a H6a H7a H8a H8b C9b STa CTa CTb DJa CJa SQb CQb SAb HAa HAb H2a "
            "BJa RJb",
            "P5": "H3a D3b C3a S5b H5b C5b S6b H6b S7a D7a S8b D8b S9b H9a D9a C9a STb HTa DTb "
            "S2b C2a",
        },
        "bottom": "C8b SKa DKa",
        "marked": "SQa",
        "first_bidder": "P2",
    },
}

# The reference derivation: the method of games.dealing's docstring, from its text.
_RANKS = "3456789TJQKA2"
_ONE_DECK = [suit + rank for rank in _RANKS for suit in "SHDC"] + ["BJ", "RJ"]
# preset → (seats in turn order, decks, hand size, bottom size, cards set aside): R-DEAL, R-2P,
# R-4P, R-5P.
_TABLES = {
    "classic": (("S", "E", "W"), 1, 17, 3, 0),
    "two_player": (("S", "N"), 1, 20, 3, 11),
    "four_player": (("S", "E", "N", "W"), 2, 25, 8, 0),
    "five_player": (("P1", "P2", "P3", "P4", "P5"), 2, 21, 3, 0),
}


class _ReferenceStream(_ReferenceDrbg):
    def __init__(self, seed: str, number: int) -> None:
        super().__init__(bytes.fromhex(seed), b"", b"ddz-duplicate board " + str(number).encode())
        self.buffer = b""

    def below(self, bound: int) -> int:
        bits = (bound - 1).bit_length()
        if bits == 0:
            return 0
        while True:
            while len(self.buffer) < (bits + 7) // 8:
                self.buffer += self.generate(32)
            size = (bits + 7) // 8
            value = int.from_bytes(self.buffer[:size], "big") & ((1 << bits) - 1)
            self.buffer = self.buffer[size:]
            if value < bound:
                return value


def _reference_board(preset: str, seed: str, number: int) -> dict[str, object]:
    seats, decks, hand, bottom, aside = _TABLES[preset]
    stream = _ReferenceStream(seed, number)
    deck = _ONE_DECK if decks == 1 else [c + d for d in "ab" for c in _ONE_DECK]
    cards = list(deck)
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    dealt = len(seats) * hand
    board: dict[str, object] = {
        "hands": {s: cards[k * hand : (k + 1) * hand] for k, s in enumerate(seats)},
        "bottom": cards[dealt : dealt + bottom],
        "first_bidder": seats[(number - 1) % len(seats)],
    }
    if aside:
        board["aside"] = cards[dealt + bottom :]
    if preset == "five_player":
        i = stream.below(dealt)
        while cards[i][:2] in ("BJ", "RJ"):
            i = (i + 1) % dealt
        board["marked"], board["first_bidder"] = cards[i], seats[i // hand]
    return board


def _as_sets(board: dict[str, object]) -> dict[str, object]:
    """A board with every card list or text as a sorted list of suited cards."""

    def cards(value: object) -> object:
        if isinstance(value, dict):
            return {k: cards(v) for k, v in value.items()}
        if isinstance(value, list):
            return sorted(value)
        return sorted(str(value).split()) if " " in str(value) else value

    return {k: cards(v) for k, v in board.items()}


@pytest.mark.parametrize("number", [1, 2, 3])
def test_pinned_classic_boards(number: int) -> None:
    deal = dealing.deal_board(RuleSet.from_spec("classic"), PINNED_SEED, number)
    assert deal.to_dict() == PINNED_CLASSIC[number]
    assert _as_sets(_reference_board("classic", PINNED_SEED, number)) == _as_sets(
        PINNED_CLASSIC[number]
    )


@pytest.mark.parametrize("preset", list(PINNED_OTHER_SIZES))
def test_pinned_boards_of_other_table_sizes(preset: str) -> None:
    deal = dealing.deal_board(RuleSet.from_spec(preset), PINNED_SEED, 1)
    assert deal.to_dict() == PINNED_OTHER_SIZES[preset]
    assert _as_sets(_reference_board(preset, PINNED_SEED, 1)) == _as_sets(
        PINNED_OTHER_SIZES[preset]
    )


def test_pinned_commitment() -> None:
    assert dealing.commitment(PINNED_SEED) == PINNED_COMMITMENT
    assert hashlib.sha256(bytes.fromhex(PINNED_SEED)).hexdigest() == PINNED_COMMITMENT


def test_pinned_boards_by_rank_and_their_deal_keys() -> None:
    from games.notation import deal_key, rank_cards

    for number, board in PINNED_CLASSIC.items():
        hands, bottom = PINNED_CLASSIC_RANKS[number]
        assert {s: rank_cards(h) for s, h in board["hands"].items()} == hands
        assert rank_cards(board["bottom"]) == bottom
        canonical = {"bottom": bottom, "first_bidder": board["first_bidder"], "hands": hands}
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        assert hashlib.sha256(text.encode()).hexdigest() == PINNED_CLASSIC_KEYS[number]
        assert (
            deal_key(
                hands=board["hands"], bottom=board["bottom"], first_bidder=board["first_bidder"]
            )
            == PINNED_CLASSIC_KEYS[number]
        )


@pytest.mark.django_db
def test_a_pinned_event_deals_and_verifies_the_pinned_boards(django_user_model) -> None:
    # Through the organizer's services, as an event is run: open, commit the seed, deal a round.
    from tournaments.events import rounds

    organizer = django_user_model.objects.create_superuser("pinned", "p@example.org", "pw")
    event = rounds.event_open(actor=organizer, name="Pinned", preset="classic")
    assert rounds.event_seed_commit(event=event, actor=organizer, seed=PINNED_SEED) == (
        PINNED_COMMITMENT
    )
    round_ = rounds.round_create(event=event, actor=organizer)
    rounds.round_deal(round_=round_, boards=3, actor=organizer)
    stored = {b.number: b for b in Board.objects.filter(event=event).order_by("number")}
    assert sorted(stored) == [1, 2, 3]
    for number, board in PINNED_CLASSIC.items():
        row = stored[number]
        assert (row.hands, row.bottom, row.first_bidder) == (
            board["hands"],
            board["bottom"],
            board["first_bidder"],
        )
        assert (row.aside, row.marked) == ("", "")
        assert row.deal_key == PINNED_CLASSIC_KEYS[number]
    report = rounds.event_deals_verify(event=event, seed=PINNED_SEED)
    assert report.to_dict() == {"boards": 3, "commitment": PINNED_COMMITMENT, "match": True}
