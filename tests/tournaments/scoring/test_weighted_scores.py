"""Weighted scores (bridge's Law 12C1(c)): a table's result given as several possible results
with weights (exact, each > 0, summing to 1). In matchpoints it scores the weighted sum of
each possible result's matchpoints and every other table is compared with each possible result
at its weight; in datum it scores as its weighted mean."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.scoring import methods
from tournaments.scoring.methods import ScoringError, SeatResult, weighted_result

F = Fraction


def _board(expected: int | None = None) -> dict[str, tuple[Fraction, Fraction | None]]:
    # Four tables, one board, seat S: +3, −3, +6, and table 4 weighted ½ (+6), ½ (−3).
    rs = [
        SeatResult(1, 1, "S", "a", F(3)),
        SeatResult(1, 2, "S", "b", F(-3)),
        SeatResult(1, 3, "S", "c", F(6)),
        weighted_result(1, 4, "S", "d", [(F(6), F(1, 2)), (F(-3), F(1, 2))]),
    ]
    got = methods.matchpoints(rs, expected={1: expected} if expected else None)
    return {p.player: (p.points, p.top) for p in got}


def test_worked_example_four_tables_one_weighted() -> None:
    mp = _board()
    # a (+3): beats −3 (2), loses to +6 (0), against table 4 ½·0 (vs +6) + ½·2 (vs −3) = 1.
    # b (−3): 0, 0, and ½·0 + ½·1 (equal to −3) = ½.
    # c (+6): 2, 2, and ½·1 (equal to +6) + ½·2 = 3/2.
    # d: +6 scores 2 + 2 + 1 = 5 against the others, −3 scores 0 + 1 + 0 = 1: ½·5 + ½·1 = 3.
    assert mp == {"a": (3, 6), "b": (F(1, 2), 6), "c": (F(11, 2), 6), "d": (3, 6)}
    # Every pair of tables still shares 2 MP: 4·3 = 12 in all.
    assert sum(points for points, _top in mp.values()) == 12


def test_a_weighted_result_is_neuberg_scaled_like_any_other() -> None:
    # The board was meant for five tables: (MP + 1)·5/4 − 1, top 8.
    mp = _board(expected=5)
    assert mp == {
        "a": (F(4), 8),
        "b": (F(7, 8), 8),
        "c": (F(57, 8), 8),
        "d": (F(4), 8),
    }


def test_in_datum_a_weighted_result_scores_its_weighted_mean() -> None:
    rs = [
        SeatResult(1, 1, "S", "a", F(3)),
        SeatResult(1, 2, "S", "b", F(-3)),
        SeatResult(1, 3, "S", "c", F(6)),
        weighted_result(1, 4, "S", "d", [(F(6), F(1, 3)), (F(-3), F(2, 3))]),
    ]
    assert rs[3].score == 0  # 6/3 − 2
    diff = {p.player: p.points for p in methods.datum_differences(rs)}
    # The datum is the mean of 3, −3, 6 and 0: 3/2.
    assert diff == {"a": F(3, 2), "b": F(-9, 2), "c": F(9, 2), "d": F(-3, 2)}


def test_two_weighted_tables_compare_option_by_option() -> None:
    rs = [
        SeatResult(1, 1, "S", "a", F(0)),
        weighted_result(1, 2, "S", "b", [(F(3), F(1, 4)), (F(-3), F(3, 4))]),
        weighted_result(1, 3, "S", "c", [(F(0), F(1, 2)), (F(3), F(1, 2))]),
    ]
    mp = {p.player: p.points for p in methods.matchpoints(rs)}
    # a (0): vs b ¼·0 + ¾·2 = 3/2; vs c ½·1 + ½·0 = 1/2 → 2.
    # b: +3 vs a 2, vs c ½·2 + ½·1 = 3/2 → 7/2; −3 vs a 0, vs c 0 → 0: ¼·7/2 = 7/8.
    # c: 0 vs a 1, vs b ¼·0 + ¾·2 = 3/2 → 5/2; +3 vs a 2, vs b ¼·1 + ¾·2 = 7/4 → 15/4:
    #    ½·5/2 + ½·15/4 = 25/8.
    assert mp == {"a": 2, "b": F(7, 8), "c": F(25, 8)}
    assert sum(mp.values()) == 6


def test_an_artificial_score_beside_a_weighted_one_is_out_of_the_comparison() -> None:
    rs = [
        SeatResult(1, 1, "S", "a", F(6)),
        weighted_result(1, 2, "S", "b", [(F(6), F(1, 2)), (F(-6), F(1, 2))]),
        SeatResult(1, 3, "S", "c", F(0), "avg+"),
    ]
    mp = {p.player: p.points for p in methods.matchpoints(rs)}
    # a vs b: ½·1 + ½·2 = 3/2; b: ½·1 + ½·0 = 1/2; two results scaled to three tables.
    assert mp == {"a": F(5, 4) * 3 - 1, "b": F(3, 4) * 3 - 1, "c": F(12, 5)}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ([], "at least one"),
        ([(F(6), F(1, 2)), (F(-3), F(1, 3))], "sum to 1"),
        ([(F(6), F(3, 2)), (F(-3), F(-1, 2))], "above 0"),
        ([(F(6), F(1)), (F(-3), F(0))], "above 0"),
    ],
)
def test_weights_not_summing_to_1_or_not_above_0_are_refused(options, words: str) -> None:
    with pytest.raises(ScoringError, match=words):
        weighted_result(1, 4, "S", "d", options)
    if options:  # a seat result without options is a plain score
        made = SeatResult(1, 4, "S", "d", F(0), weighted=tuple(options))
        with pytest.raises(ScoringError, match=words):
            methods.matchpoints([made])


def test_a_weighted_result_must_carry_its_weighted_mean_and_no_adjusted_score() -> None:
    options = ((F(6), F(1, 2)), (F(-3), F(1, 2)))
    with pytest.raises(ScoringError, match="mean"):
        methods.matchpoints([SeatResult(1, 4, "S", "d", F(6), weighted=options)])
    with pytest.raises(ScoringError, match="both"):
        methods.datum_differences([SeatResult(1, 4, "S", "d", F(3, 2), "avg", weighted=options)])


# --- properties --------------------------------------------------------------------------

_scores = st.integers(min_value=-12, max_value=12).map(F)
_weights = st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=3).map(
    lambda ns: [F(n, sum(ns)) for n in ns]
)


@st.composite
def _field(draw: st.DrawFn) -> list[SeatResult]:
    """One board, one seat: plain results and weighted ones at 2 to 6 tables."""
    out = []
    for table in range(1, draw(st.integers(min_value=2, max_value=6)) + 1):
        if draw(st.booleans()):
            out.append(SeatResult(1, table, "S", f"p{table}", draw(_scores)))
        else:
            weights = draw(_weights)
            options = [(draw(_scores), w) for w in weights]
            out.append(weighted_result(1, table, "S", f"p{table}", options))
    return out


@given(_field(), _scores)
def test_one_option_of_weight_1_scores_exactly_as_the_plain_score(field, score) -> None:
    plain = [*field, SeatResult(1, 99, "S", "x", score)]
    weighted = [*field, weighted_result(1, 99, "S", "x", [(score, F(1))])]
    for expected in (None, {1: len(plain) + 2}):
        assert [p.points for p in methods.matchpoints(weighted, expected=expected)] == [
            p.points for p in methods.matchpoints(plain, expected=expected)
        ]
    assert [p.points for p in methods.datum_differences(weighted)] == [
        p.points for p in methods.datum_differences(plain)
    ]


@given(_field())
def test_the_matchpoints_of_a_board_sum_to_n_times_n_minus_1(field) -> None:
    n = len(field)
    assert sum(p.points for p in methods.matchpoints(field)) == n * (n - 1)


@given(_field())
def test_every_table_scores_the_weighted_sum_over_the_possible_results(field) -> None:
    # Law 12C1(c) read literally: each combination of the weighted tables' possible results
    # is a plain board, weighted by the product of its weights; every table's matchpoints are
    # the weighted sum of its matchpoints on those boards.
    choices = [r.weighted or ((r.score, F(1)),) for r in field]
    expected = [F(0)] * len(field)
    for combination in product(*choices):
        weight = F(1)
        for _score, w in combination:
            weight *= w
        plain = [
            SeatResult(1, r.table, "S", r.player, score)
            for r, (score, _w) in zip(field, combination, strict=True)
        ]
        for i, p in enumerate(methods.matchpoints(plain)):
            expected[i] += weight * p.points
    assert [p.points for p in methods.matchpoints(field)] == expected
