"""Hand-derived checks of the reference classifier (reference.py) against RULES.md section 2.

Every expected value below was worked out by hand from the rule text, not by running code.
Readings are (type, length, rank): length = units of a chain (else 1), rank = comparison rank.
"""

from __future__ import annotations

import pytest
from reference import (
    Options,
    RefReading,
    candidate_bodies,
    classify_text,
    lead_count,
    leads,
    parse,
)

DEF = Options()
SHUTTLE = Options(space_shuttle=True)
DISTINCT = Options(solo_kickers_may_pair=False)
BOMB_K = Options(bomb_in_kickers=True)
ROCKET_K = Options(rocket_in_kickers=True)
BOMB_SHUTTLE = Options(bomb_in_kickers=True, space_shuttle=True)

R = RefReading

# (rule id, cards, options, expected readings)
CASES: list[tuple[str, str, Options, set[RefReading]]] = [
    # R-T1 solo
    ("R-T1", "3", DEF, {R("solo", 1, "3")}),
    ("R-T1", "2", DEF, {R("solo", 1, "2")}),
    ("R-T1", "B", DEF, {R("solo", 1, "B")}),
    ("R-T1", "R", DEF, {R("solo", 1, "R")}),
    # R-T2 pair (B+R is not a pair)
    ("R-T2", "22", DEF, {R("pair", 1, "2")}),
    ("R-T2", "34", DEF, set()),
    # R-T3 trio
    ("R-T3", "777", DEF, {R("trio", 1, "7")}),
    # R-T4 trio_with_solo (2s and single jokers may be kickers, R-KICK 6)
    ("R-T4", "7772", DEF, {R("trio_with_solo", 1, "7")}),
    ("R-T4", "777B", DEF, {R("trio_with_solo", 1, "7")}),
    ("R-T4", "3777", DEF, {R("trio_with_solo", 1, "7")}),
    # R-T5 trio_with_pair
    ("R-T5", "77722", DEF, {R("trio_with_pair", 1, "7")}),
    ("R-T5", "33777", DEF, {R("trio_with_pair", 1, "7")}),
    ("R-T5", "777BR", DEF, set()),  # B+R is no pair kicker (R-KICK 4)
    ("R-T5", "777BR", ROCKET_K, set()),  # ... not even with rocket_in_kickers
    ("R-T5", "77723", DEF, set()),
    # R-T6 chain_of_solos: >= 5, within 3..A, max 12
    ("R-T6", "34567", DEF, {R("chain_of_solos", 5, "7")}),
    ("R-T6", "TJQKA", DEF, {R("chain_of_solos", 5, "A")}),
    ("R-T6", "3456789TJQKA", DEF, {R("chain_of_solos", 12, "A")}),
    ("R-T6", "3456", DEF, set()),
    ("R-T6", "JQKA2", DEF, set()),  # R-CMP: no 2 in a chain
    ("R-T6", "34568", DEF, set()),
    # R-T7 chain_of_pairs: >= 3 pairs, max 10
    ("R-T7", "334455", DEF, {R("chain_of_pairs", 3, "5")}),
    ("R-T7", "3344", DEF, set()),
    ("R-T7", "QQKKAA", DEF, {R("chain_of_pairs", 3, "A")}),
    ("R-T7", "KKAA22", DEF, set()),
    ("R-T7", "33445566778899TTJJQQ", DEF, {R("chain_of_pairs", 10, "Q")}),
    # R-T8 chain_of_trios: >= 2 trios
    ("R-T8", "333444", DEF, {R("chain_of_trios", 2, "4")}),
    ("R-T8", "AAA222", DEF, set()),
    ("R-T8", "333555", DEF, set()),
    # R-T9 airplane_with_solos
    ("R-T9", "333444TJ", DEF, {R("airplane_with_solos", 2, "4")}),
    ("R-T9", "KKKAAA2B", DEF, {R("airplane_with_solos", 2, "A")}),
    ("R-T9", "KKKAAA222", DEF, set()),
    # R-T10 airplane_with_pairs
    ("R-T10", "3334447788", DEF, {R("airplane_with_pairs", 2, "4")}),
    ("R-T10", "33344477BR", DEF, set()),
    # R-T11 bomb, R-T12 rocket
    ("R-T11", "8888", DEF, {R("bomb", 1, "8")}),
    ("R-T11", "2222", DEF, {R("bomb", 1, "2")}),
    ("R-T12", "BR", DEF, {R("rocket", 1, "R")}),
    # R-T13a four_with_two_solos, R-T13b four_with_two_pairs
    ("R-T13a", "JJJJ37", DEF, {R("four_with_two_solos", 1, "J")}),
    ("R-T13a", "JJJJ77", DEF, {R("four_with_two_solos", 1, "J")}),
    ("R-T13a", "JJJJ2B", DEF, {R("four_with_two_solos", 1, "J")}),
    ("R-T13b", "3377JJJJ", DEF, {R("four_with_two_pairs", 1, "J")}),
    ("R-T13b", "33JJJJ", DEF, {R("four_with_two_solos", 1, "J")}),  # 33 read as two solos
    ("R-T13b", "337JJJJ", DEF, set()),
    # R-MAX: at most 20 cards
    ("R-MAX", "333444555666777888", DEF, {R("chain_of_trios", 6, "8")}),
    (
        "R-MAX",
        "3334445556667778889T",  # 333-777 with 8,8,8,9,T or 444-888 with 3,3,3,9,T
        DEF,
        {R("airplane_with_solos", 5, "7"), R("airplane_with_solos", 5, "8")},
    ),
    ("R-MAX", "333444555666778899TT", DEF, {R("airplane_with_pairs", 4, "6")}),
    ("R-MAX", "33334444555566667777", SHUTTLE, {R("space_shuttle", 5, "7")}),
    ("R-MAX", "33334444555566667777", DEF, set()),
    ("R-MAX", "333344445555789TJQ", SHUTTLE, {R("space_shuttle_with_solos", 3, "5")}),
    # R-KICK 1: no kicker of a body trio/four rank
    ("R-KICK1", "33334", DEF, set()),
    ("R-KICK1", "33334445", DEF, set()),
    ("R-KICK1", "3333444", DEF, set()),
    # R-KICK 2: solo kickers may repeat (option solo_kickers_may_pair)
    ("R-KICK2", "33344455", DEF, {R("airplane_with_solos", 2, "4")}),
    ("R-KICK2", "33344455", DISTINCT, set()),
    ("R-KICK2", "JJJJ77", DISTINCT, set()),
    ("R-KICK2", "JJJJ37", DISTINCT, {R("four_with_two_solos", 1, "J")}),
    ("R-KICK2", "333444555777", DEF, {R("airplane_with_solos", 3, "5")}),
    (
        "R-KICK2",
        "3334445556667778",
        DEF,
        {R("airplane_with_solos", 4, "6"), R("airplane_with_solos", 4, "7")},
    ),
    ("R-KICK2", "3334445556667778", DISTINCT, set()),
    ("R-KICK2", "333444555666", DISTINCT, {R("chain_of_trios", 4, "6")}),
    # R-KICK 3: no whole bomb or rocket in the kickers unless the options allow
    ("R-KICK3", "3334445556667777", DEF, set()),
    ("R-KICK3", "3334445556667777", BOMB_K, {R("airplane_with_solos", 4, "6")}),
    ("R-KICK3", "33335555", DEF, set()),
    (
        "R-KICK3",
        "33335555",
        BOMB_K,
        {R("four_with_two_pairs", 1, "3"), R("four_with_two_pairs", 1, "5")},
    ),
    ("R-KICK3", "JJJJBR", DEF, set()),
    ("R-KICK3", "JJJJBR", ROCKET_K, {R("four_with_two_solos", 1, "J")}),
    ("R-KICK3", "333444BR", DEF, set()),
    ("R-KICK3", "333444BR", ROCKET_K, {R("airplane_with_solos", 2, "4")}),
    ("R-KICK3", "333444BR", DISTINCT, set()),
    # R-KICK 4: pair kickers are real pairs
    ("R-KICK4", "33334455", DEF, {R("four_with_two_pairs", 1, "3")}),
    ("R-KICK4", "3333BR55", BOMB_K, set()),
    (
        "R-KICK4",
        "33334444",
        BOMB_K,
        {R("four_with_two_pairs", 1, "3"), R("four_with_two_pairs", 1, "4")},
    ),
    # R-KICK 5: wings all solos or all pairs
    ("R-KICK5", "333444677", DEF, set()),
    ("R-KICK5", "333444555667", DEF, {R("airplane_with_solos", 3, "5")}),
    ("R-KICK5", "3334445566", DEF, {R("airplane_with_pairs", 2, "4")}),
    # R-AMBIG: the full set of readings
    (
        "R-AMBIG",
        "333444555666",
        DEF,
        {
            R("chain_of_trios", 4, "6"),
            R("airplane_with_solos", 3, "6"),
            R("airplane_with_solos", 3, "5"),
        },
    ),
    # R-SHUTTLE
    ("R-SHUTTLE", "33334444", DEF, set()),
    ("R-SHUTTLE", "33334444", SHUTTLE, {R("space_shuttle", 2, "4")}),
    ("R-SHUTTLE", "4444555536JQ", DEF, set()),
    ("R-SHUTTLE", "4444555536JQ", SHUTTLE, {R("space_shuttle_with_solos", 2, "5")}),
    ("R-SHUTTLE", "AAAAKKKK66993355", SHUTTLE, {R("space_shuttle_with_pairs", 2, "A")}),
    ("R-SHUTTLE", "AAAAKKKK66993355", DEF, set()),
    ("R-SHUTTLE", "AAAA2222", SHUTTLE, set()),  # within 3..A only
    ("R-SHUTTLE", "3333444455556666", SHUTTLE, {R("space_shuttle", 4, "6")}),
    (
        "R-SHUTTLE",
        "3333444455556666",
        BOMB_SHUTTLE,
        {
            R("space_shuttle", 4, "6"),
            R("space_shuttle_with_pairs", 2, "4"),  # 33334444 + 55 55 66 66
            R("space_shuttle_with_pairs", 2, "5"),  # 44445555 + 33 33 66 66
            R("space_shuttle_with_pairs", 2, "6"),  # 55556666 + 33 33 44 44
        },
    ),
    # R-NOTE / R-DECK: a set one deck cannot hold has no reading
    ("R-NOTE", "BB", DEF, set()),
    ("R-NOTE", "33333", DEF, set()),
]


@pytest.mark.parametrize(
    ("rule", "cards", "options", "expected"),
    CASES,
    ids=[f"{rule}-{cards}-{'-'.join(o.as_spec()) or 'default'}" for rule, cards, o, _ in CASES],
)
def test_reference_readings_by_rule(
    rule: str, cards: str, options: Options, expected: set[RefReading]
) -> None:
    assert set(classify_text(cards, options)) == expected, rule


# Lead counts worked out by hand (R-T1..R-T13b, R-KICK): every non-empty sub-multiset with a
# reading.
#   "33": 3, 33                                                      -> 2
#   "345678": six solos, 34567, 45678, 345678                         -> 9
#   "3334": 3, 33, 333, 4, 3334 (33 4 / 3 4 / 334 are nothing)         -> 5
#   "2BR": 2, B, R, BR (2B, 2R, 2BR are nothing)                       -> 4
#   "33334444": 3 33 333 3333 4 44 444 4444, 3334 3444, 33344 33444,
#               333444, 333344 334444 (four with solos 4,4 / 3,3)      -> 15
#     with space_shuttle also 33334444                                 -> 16
#     with solo_kickers_may_pair false, 333344 and 334444 go          -> 13
HAND_LEADS: list[tuple[str, Options, list[str]]] = [
    ("33", DEF, ["3", "33"]),
    ("345678", DEF, ["3", "34567", "345678", "4", "45678", "5", "6", "7", "8"]),
    ("3334", DEF, ["3", "33", "333", "3334", "4"]),
    ("2BR", DEF, ["2", "B", "BR", "R"]),
    (
        "33334444",
        DEF,
        sorted(
            [
                "3",
                "33",
                "333",
                "3333",
                "4",
                "44",
                "444",
                "4444",
                "3334",
                "3444",
                "33344",
                "33444",
                "333444",
                "333344",
                "334444",
            ]
        ),
    ),
]


@pytest.mark.parametrize(("hand", "options", "expected"), HAND_LEADS)
def test_hand_checked_leads_r_t1_to_r_t13b(
    hand: str, options: Options, expected: list[str]
) -> None:
    assert leads(parse(hand), options) == expected


@pytest.mark.parametrize(
    ("options", "count"), [(DEF, 15), (SHUTTLE, 16), (DISTINCT, 13), (BOMB_K, 16)]
)
def test_two_bombs_lead_count_r_kick_r_shuttle(options: Options, count: int) -> None:
    assert lead_count(parse("33334444"), options) == count


def test_r_max_no_body_over_twenty_cards() -> None:
    for options in (DEF, SHUTTLE):
        for body in candidate_bodies(options):
            assert body.size <= 20
    lengths: dict[str, int] = {}
    for body in candidate_bodies(SHUTTLE):
        lengths[body.type] = max(lengths.get(body.type, 0), body.length)
    assert lengths["chain_of_solos"] == 12
    assert lengths["chain_of_pairs"] == 10
    assert lengths["chain_of_trios"] == 6
    assert lengths["airplane_with_solos"] == 5
    assert lengths["airplane_with_pairs"] == 4
    assert lengths["space_shuttle"] == 5
    assert lengths["space_shuttle_with_solos"] == 3
    assert lengths["space_shuttle_with_pairs"] == 2


def test_r_cmp_no_two_or_joker_in_chain_bodies() -> None:
    chains = {
        "chain_of_solos",
        "chain_of_pairs",
        "chain_of_trios",
        "airplane_with_solos",
        "airplane_with_pairs",
        "space_shuttle",
        "space_shuttle_with_solos",
        "space_shuttle_with_pairs",
    }
    for body in candidate_bodies(SHUTTLE):
        if body.type in chains:
            assert body.cards[12:] == (0, 0, 0)
            assert body.rank in "3456789TJQKA"


def test_r_shuttle_types_only_with_option() -> None:
    assert not any(b.type.startswith("space_shuttle") for b in candidate_bodies(DEF))
