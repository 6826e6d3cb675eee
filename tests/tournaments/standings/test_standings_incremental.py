"""Incremental standings = full recompute: a recompute that looks up the
points of the boards unchanged since an earlier recompute gives the very rows a recompute from
nothing gives, for any change of results between the two. Pure: no database."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.models import Event
from tournaments.scoring import methods, ranking
from tournaments.standings import cache, running
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


@settings(max_examples=60, deadline=None)
@given(
    st.data(),
    st.integers(1, 4),
    st.integers(2, 5),
    st.sampled_from(["matchpoints", "datum"]),
    st.integers(2, 4),
)
def test_running_sums_equal_the_sums_of_every_board_afresh(
    data: st.DataObject, boards: int, tables: int, method: str, steps: int
) -> None:
    # A sequence of recomputations: between two, each board keeps its very points list
    # (unchanged), gets a new one (a burst of games) or is gone (a board no longer open); the
    # unranked players change now and then (the context: the sums start afresh).
    running.running_forget()
    per_board: dict[int, list[methods.SeatPoints]] = {}
    for _ in range(steps):
        fresh = data.draw(results(boards, tables))
        expected = dict.fromkeys(range(1, boards + 1), tables)
        points = methods.board_points(fresh, method=method, expected=expected, unit=Fraction(3))
        for board in range(1, boards + 1):
            fate = data.draw(st.sampled_from(["keep", "new", "gone"]))
            if fate == "new" or (fate == "keep" and board not in per_board):
                per_board[board] = [p for p in points if p.board == board]
            elif fate == "gone":
                per_board.pop(board, None)
        unranked = frozenset(data.draw(st.sets(st.integers(0, tables * 3), max_size=2)))
        got = running.running_sums(7, (method, Fraction(3), unranked), per_board)
        want = ranking.Sums()
        want.add(p for ps in per_board.values() for p in ps if p.player not in unranked)
        assert ranking.ranked(
            got, method=method, penalties={0: Fraction(1)}, order=[], values_of=None
        ) == ranking.ranked(
            want, method=method, penalties={0: Fraction(1)}, order=[], values_of=None
        )
        assert got.boards == want.boards
    running.running_forget()
