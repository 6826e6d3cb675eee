"""Incremental standings = full recompute: a recompute that looks up the
points of the boards unchanged since an earlier recompute gives the very rows a recompute from
nothing gives, for any change of results between the two. Pure: no database."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.models import Event
from tournaments.scoring import methods, ranking
from tournaments.standings import cache
from tournaments.standings import results as standings_results

SEATS = ("S", "E", "W")


@st.composite
def results(draw: st.DrawFn, boards: int, tables: int) -> list[methods.SeatResult]:
    """Seat results of `boards` boards at `tables` tables (players rotate over the tables),
    some tables missing a board, some seats adjusted."""
    out = []
    for board in range(1, boards + 1):
        for table in range(1, tables + 1):
            if draw(st.integers(0, 9)) == 0:
                continue  # not played (yet): Neuberg
            for k, seat in enumerate(SEATS):
                player = (table * 3 + k + board) % (tables * 3)
                adjusted = draw(st.sampled_from([None] * 12 + ["avg+", "avg", "avg-"]))
                score = Fraction(draw(st.integers(-48, 48)), draw(st.sampled_from([1, 1, 2])))
                out.append(methods.SeatResult(board, table, seat, player, score, adjusted=adjusted))
    return out


def _data(
    event: Event, rs: list[methods.SeatResult], tables: int
) -> standings_results.EventResults:
    boards = {r.board for r in rs}
    return standings_results.EventResults(
        event, rs, dict.fromkeys(boards), dict.fromkeys(boards, tables), [(0, None, Fraction(1))]
    )


@settings(max_examples=60, deadline=None)
@given(
    st.data(),
    st.integers(1, 4),
    st.integers(2, 6),
    st.sampled_from(["matchpoints", "datum"]),
    st.lists(st.sampled_from(ranking.TIEBREAKS), unique=True, max_size=4),
)
def test_incremental_standings_equal_a_full_recompute(
    data: st.DataObject, boards: int, tables: int, method: str, tiebreaks: list[str]
) -> None:
    event = Event(name="e", slug="e", scoring_method=method, tiebreaks=tiebreaks, adjustment_unit=3)
    before = data.draw(results(boards, tables))
    after = data.draw(results(boards, tables))
    # Some boards keep their results from before, the others change (a burst of games).
    kept = data.draw(st.sets(st.integers(1, boards)))
    after = [r for r in before if r.board in kept] + [r for r in after if r.board not in kept]
    after = data.draw(st.permutations(after))  # the database returns rows in any order
    cache.BOARD_POINTS.clear()
    standings_results.compute(_data(event, before, tables))  # the earlier recompute fills the memo
    incremental = standings_results.compute(_data(event, after, tables))
    full = standings_results.compute(_data(event, after, tables), memo=False)
    assert incremental == full
    assert standings_results.board_points(
        _data(event, after, tables), method=standings_results.method_of(event), unit=Fraction(3)
    ) == methods.board_points(
        after,
        method=standings_results.method_of(event),
        expected=dict.fromkeys({r.board for r in after}, tables),
        unit=Fraction(3),
    )
