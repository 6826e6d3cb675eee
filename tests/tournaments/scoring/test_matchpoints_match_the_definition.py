"""Matchpoints, however they are computed, are the definition's (DESIGN.md, "Scoring
methods"): on a board, a seat result earns 2 for every other result at the same seat it beats
and 1 for every one it ties, and when only n of the board's N tables compare, Neuberg's
(raw + 1) × N / n − 1. Checked by Hypothesis against that definition written out pair by pair."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring.methods import SeatResult, matchpoints

SCORES = st.fractions(min_value=-48, max_value=48, max_denominator=3)


def _by_definition(results: list[SeatResult], expected: dict) -> list[Fraction]:
    out = []
    for r in results:
        others = [o for o in results if (o.board, o.seat) == (r.board, r.seat) and o is not r]
        raw = Fraction(
            sum(2 if r.score > o.score else 1 if r.score == o.score else 0 for o in others)
        )
        n = len(others) + 1
        big_n = max(n, expected.get(r.board, n))
        out.append(raw if n == big_n else (raw + 1) * big_n / n - 1)
    return out


@settings(max_examples=80, deadline=None)
@given(
    boards=st.lists(
        st.lists(st.tuples(SCORES, SCORES, SCORES), min_size=1, max_size=12), min_size=1, max_size=3
    ),
    missing=st.integers(min_value=0, max_value=3),
)
def test_matchpoints_are_the_pairwise_definition(boards, missing) -> None:
    results = [
        SeatResult(b, t, seat, f"p{b}-{t}-{seat}", score)
        for b, tables in enumerate(boards)
        for t, scores in enumerate(tables)
        for seat, score in zip("SEW", scores, strict=True)
    ]
    # Some boards expect more tables than played them (Neuberg).
    expected = {b: len(tables) + missing for b, tables in enumerate(boards) if b % 2 == 0}
    got = [p.points for p in matchpoints(results, expected=expected)]
    assert got == _by_definition(results, expected)
    assert [(p.board, p.table, p.seat) for p in matchpoints(results, expected=expected)] == [
        (r.board, r.table, r.seat) for r in results
    ]
