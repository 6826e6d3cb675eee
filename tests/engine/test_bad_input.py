"""Bad input: each a typed error with the right rule id, naming seat, cards and place."""

from __future__ import annotations

import pytest

from games.engine import (
    Bidding,
    GameState,
    IllegalBidError,
    IllegalPlayError,
    NotationError,
    RecordError,
    RulesError,
    RuleSet,
    parse_cards,
    read_record,
    replay,
)
from games.engine.combos import why_not_coded
from games.messages import error_message

DEAL = {"S": "33334444555566667", "E": "77788889999TTTTJJ", "W": "JJQQQQKKKKAAAA222"}


# S (landlord, 20 cards) plays four bombs, the 7, the 2 and the rocket; nobody answers.
OUT_PLAYS = [
    turn
    for cards in ("3333", "4444", "5555", "6666", "7", "2")
    for turn in (["S", cards], ["E", "pass"], ["W", "pass"])
] + [["S", "BR"]]


def _state() -> GameState:
    return GameState.start(RuleSet.from_spec("classic"), DEAL, "2BR", "S")


def test_r_note_malformed_cards_name_character_and_position() -> None:
    with pytest.raises(NotationError) as info:
        parse_cards("334Z5")
    assert info.value.position == 4 and info.value.char == "Z"
    assert info.value.rule == "R-NOTE"
    assert "'Z'" in str(info.value) and "position 4" in str(info.value)


def test_r_note_aliases_are_accepted() -> None:
    assert parse_cards("10 10 j") == parse_cards("TTJ")
    assert parse_cards("☆★") == parse_cards("xd") == parse_cards("小怪大王") == parse_cards("BR")


def test_cards_not_in_hand() -> None:
    with pytest.raises(IllegalPlayError) as info:
        _state().apply("S", "77")
    assert info.value.rule == "R-VERIFY" and info.value.seat == "S" and info.value.cards == "77"


def test_r_lead_wrong_seat() -> None:
    with pytest.raises(IllegalPlayError) as info:
        _state().apply("E", "7")
    assert info.value.rule == "R-LEAD" and "S's turn" in str(info.value)


def test_r_lead_pass_on_lead() -> None:
    with pytest.raises(IllegalPlayError) as info:
        _state().apply("S", "pass")
    assert info.value.rule == "R-LEAD"


def test_r_end_play_after_the_end() -> None:
    rec = {
        "id": "x",
        "rules": "classic",
        "hands": DEAL,
        "bottom": "2BR",
        "first_bidder": None,
        "bidding": None,
        "landlord": "S",
        "bid": 1,
        "plays": [*OUT_PLAYS, ["E", "7"]],
        "end": None,
        "declared": None,
    }
    out = replay(rec)
    assert out.status == "illegal" and out.error is not None
    assert (out.error.rule, out.error.index, out.error.seat) == ("R-END", len(OUT_PLAYS), "E")


def test_r_cmp_does_not_beat() -> None:
    st = _state().apply("S", "6")
    with pytest.raises(IllegalPlayError) as info:
        st.apply("E", "77")
    assert info.value.rule == "R-CMP"


def test_r_kick_not_a_combination() -> None:
    st = GameState.start(RuleSet.from_spec("classic"), DEAL, "2BR", "S")
    with pytest.raises(IllegalPlayError) as info:
        st.apply("S", "333445")
    assert info.value.rule == "R-KICK"


@pytest.mark.parametrize(
    ("hands", "bottom", "rule"),
    [
        ({**DEAL, "S": "3333444455556666"}, "2BR", "R-DEAL"),  # 16 cards
        ({**DEAL, "S": "33334444555566663"}, "2BR", "R-DECK"),  # five 3s, one 7 missing
        (DEAL, "22R", "R-DECK"),  # duplicate 2, small joker missing
        ({"S": DEAL["S"], "E": DEAL["E"], "N": DEAL["W"]}, "2BR", "R-SEAT"),
    ],
)
def test_r_deck_bad_deals(hands: dict[str, str], bottom: str, rule: str) -> None:
    rec = {
        "id": "d",
        "rules": "classic",
        "hands": hands,
        "bottom": bottom,
        "first_bidder": "S",
        "bidding": [],
        "plays": [],
        "end": None,
        "declared": None,
    }
    out = replay(rec)
    assert out.status == "illegal" and out.error is not None
    assert out.error.stage == "deal" and out.error.rule == rule, out.to_dict()


@pytest.mark.parametrize(
    ("preset", "calls", "rule"),
    [
        ("classic", [("S", "2"), ("E", "1")], "R-BID-AUCTION"),  # not above the current bid
        ("classic", [("S", "4")], "R-BID-AUCTION"),
        ("classic", [("E", "1")], "R-BID-AUCTION"),  # wrong seat
        ("classic_once", [("S", "1"), ("E", "1")], "R-BID-ONCE"),
        ("rob", [("S", "rob")], "R-BID-ROB"),  # rob before any call
        (
            "competition",
            [("S", "pass"), ("E", "call"), ("W", "rob"), ("S", "rob")],
            "R-BID-COMP",
        ),  # S passed the call and may not rob; E's final rob is due
        ("cn2016", [("S", "3"), ("E", "redouble")], "R-DOUBLE-ORDER"),
    ],
)
def test_r_bid_illegal_bids(preset: str, calls: list[tuple[str, str]], rule: str) -> None:
    b = Bidding.start(RuleSet.from_spec(preset), "S")
    with pytest.raises(IllegalBidError) as info:
        for seat, call in calls:
            b = b.apply(seat, call)
    assert info.value.rule == rule


def test_illegal_bid_in_a_record_is_located() -> None:
    rec = {
        "id": "b",
        "rules": "classic",
        "hands": DEAL,
        "bottom": "2BR",
        "first_bidder": "S",
        "bidding": [["S", "2"], ["E", "2"]],
        "plays": [],
        "end": None,
        "declared": None,
    }
    out = replay(rec)
    assert out.status == "illegal" and out.error is not None
    assert (out.error.stage, out.error.index, out.error.seat) == ("bidding", 1, "E")


@pytest.mark.parametrize(
    "spec",
    [
        "poker",
        {"preset": "classic", "options": {"jokers_wild": True}},
        {"preset": "classic", "options": {"space_shuttle": "maybe"}},
        {"preset": "classic", "options": {"spring_multiplier": 0}},
        {"preset": "competition", "options": {"max_additions": -1}},
        {"preset": "classic", "options": {"all_pass": "replay"}},
    ],
)
def test_rules_unknown_or_impossible_options_are_errors(spec: object) -> None:
    with pytest.raises(RulesError):
        RuleSet.from_spec(spec)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "obj",
    [
        [],
        "not json",
        {"plays": []},
        {"hands": {"S": "3"}, "plays": "S 3"},
        {"hands": {"S": 3}, "plays": []},
        {"hands": {"S": "3"}, "plays": [], "bidding": None},
    ],
)
def test_not_a_record_is_refused(obj: object) -> None:
    with pytest.raises(RecordError):
        read_record(obj)  # type: ignore[arg-type]


def test_a_wrong_declared_score_is_a_mismatch() -> None:
    rec = {
        "id": "m",
        "rules": "classic",
        "hands": DEAL,
        "bottom": "2BR",
        "first_bidder": None,
        "bidding": None,
        "landlord": "S",
        "bid": 2,
        "plays": OUT_PLAYS,
        "end": None,
        "declared": {"S": 4, "E": -2, "W": -2},
    }
    out = replay(rec)
    assert out.status == "mismatch" and out.error is not None
    assert out.error.stage == "result" and out.error.rule == "R-SC-MULT"
    # bid 2 × 2^(4 bombs + 1 rocket) = 64 per farmer (R-SC-MULT).
    assert out.score == {"S": 128, "E": -64, "W": -64}


@pytest.mark.parametrize(
    ("options", "name", "value"),
    [
        ({"all_pass": "REDEAL"}, "all_pass", "redeal"),
        ({"all_pass": "Zero"}, "all_pass", "zero"),
        ({"bidding": "Auction"}, "bidding", "auction"),
    ],
)
def test_a_choice_is_read_in_any_case_as_true_and_false_are(
    options: dict[str, str], name: str, value: str
) -> None:
    # An organizer who types TRUE for a true/false option has it read; REDEAL is as plain.
    rules = RuleSet.from_spec({"preset": "classic", "options": options})
    assert getattr(rules, name) == value


def test_deep_nesting_is_refused_whatever_the_recursion_limit() -> None:
    # A process that raised the interpreter's limit (a test runner's worker did) read 5,000
    # nested arrays to their end and called them "not JSON": the same text must get the same
    # answer in every process, nested too deeply. Brackets inside a string are no nesting.
    import sys

    from games.engine.record import MAX_DEPTH, parse_json

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)
    try:
        with pytest.raises(RecordError) as refused:
            parse_json("[" * 5000)
        assert refused.value.code == "record.nested_too_deeply"
    finally:
        sys.setrecursionlimit(limit)
    assert parse_json('{"note": "' + "[" * 5000 + '"}') == {"note": "[" * 5000}
    deepest = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert parse_json(deepest) is not None
    with pytest.raises(RecordError):
        parse_json("[" + deepest + "]")


@pytest.mark.parametrize(("typed", "letter", "name"), [("BJ", "B", "small"), ("rj", "R", "big")])
def test_a_joker_written_as_in_a_deal_is_told_its_rank_letter(typed, letter, name) -> None:
    # R-NOTE reads "BJ" by rank: the small joker B and a jack J, which is no combination
    # (R-T2); a referee who copied a deal's joker (R-SUIT writes BJ, RJ) is told how to write it.
    rule, message, code, params = why_not_coded(parse_cards(typed))
    assert (rule, code) == ("R-T2", "combo.joker_as_dealt")
    assert params == {"cards": f"J{letter}", "joker": letter}
    assert f"the {name} joker alone is written {letter}" in message
    assert f"the {name} joker alone is written {letter}" in (error_message(code, params) or "")
