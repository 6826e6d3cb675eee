"""An unranked player's boards count for everyone else's comparison (DESIGN.md, substitutions:
a reserve the organizer did not rank "has no row in the standings, while her boards still count
for everyone else's comparison"; an online table's robots are such entries, and "each entrant
is still compared with everyone who held his seat"), on every path the standings take: with the
boards' points kept per board (PostgreSQL's cache), looked up by signature, and computed from
nothing (the embedded default, SQLite, keeps nothing). Pure: no database.

Found by a trial of the demo: at an online table whose third seat a robot filled, the entrant
who held that seat at the other table showed 0 % with a top of 0 in the standings, while his
scorecard (which compares with the robot) gave him the board's top.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.standings.test_standings_incremental import results
from tournaments.models import Event
from tournaments.scoring import methods
from tournaments.standings import cache, running
from tournaments.standings import results as standings_results

ROBOT = 99


def _data(
    event: Event, rs: list[methods.SeatResult], tables: int, unranked: set[int], by_board: bool
) -> standings_results.EventResults:
    boards = {r.board for r in rs}
    grouped: dict[int, list[methods.SeatResult]] | None = None
    if by_board:
        grouped = {}
        for r in rs:
            grouped.setdefault(r.board, []).append(r)
    return standings_results.EventResults(
        event,
        rs,
        dict.fromkeys(boards),
        dict.fromkeys(boards, tables),
        [],
        set(unranked),
        grouped,  # type: ignore[arg-type]
    )


def _every_path(
    event: Event, rs: list[methods.SeatResult], tables: int, unranked: set[int]
) -> list[dict[int | None, list]]:
    """The event's rows computed from nothing, by the boards' signatures, and by the lists
    kept per board (each from an empty memory)."""
    out = []
    for by_board, memo in ((False, False), (False, True), (True, True)):
        cache.BOARD_POINTS.clear()
        cache.POINTS_OF_LIST.clear()
        running.running_forget()
        out.append(
            standings_results.compute(
                _data(event, rs, tables, unranked, by_board=by_board), memo=memo
            )
        )
    return out


def test_a_robot_filling_a_seat_is_beaten_by_the_entrant_who_held_that_seat() -> None:
    # One board at two online tables: entrants 1, 2, 3 at table 1; entrants 4, 5 and a robot
    # (an unranked entry) in W at table 2. In W entrant 3 scored 1 and the robot -1: in
    # matchpoints (2 for each other table beaten in the same seat, DESIGN.md) entrant 3 has
    # 2 of a top of 2. In S entrant 1 (1) lost to entrant 4 (2); in E entrant 2 (-2) lost to
    # entrant 5 (-1).
    event = Event(name="e", slug="e", scoring_method="matchpoints")
    rs = [
        methods.SeatResult(1, 1, "S", 1, Fraction(1)),
        methods.SeatResult(1, 1, "E", 2, Fraction(-2)),
        methods.SeatResult(1, 1, "W", 3, Fraction(1)),
        methods.SeatResult(1, 2, "S", 4, Fraction(2)),
        methods.SeatResult(1, 2, "E", 5, Fraction(-1)),
        methods.SeatResult(1, 2, "W", ROBOT, Fraction(-1)),
    ]
    for scopes in _every_path(event, rs, 2, {ROBOT}):
        rows = {row.player: row for row in scopes[None]}
        assert ROBOT not in rows  # unranked: no row
        assert (rows[3].total, rows[3].top, rows[3].percentage) == (2, 2, 100)
        assert (rows[1].total, rows[1].top) == (0, 2)
        assert (rows[4].total, rows[4].top) == (2, 2)
        assert (rows[5].total, rows[5].top) == (2, 2)


@settings(max_examples=60, deadline=None)
@given(
    st.data(),
    st.integers(1, 4),
    st.integers(2, 5),
    st.sampled_from(["matchpoints", "datum"]),
)
def test_every_path_gives_the_same_rows_with_unranked_players(
    data: st.DataObject, boards: int, tables: int, method: str
) -> None:
    event = Event(name="e", slug="e", scoring_method=method, adjustment_unit=3)
    rs = data.draw(results(boards, tables))
    unranked = data.draw(st.sets(st.integers(0, tables * 3), min_size=1, max_size=3))
    computed = _every_path(event, rs, tables, unranked)
    assert computed[0] == computed[1] == computed[2]
    # And every row is the sum of the player's points on boards compared with everyone.
    points = methods.board_points(
        rs, method=method, expected=dict.fromkeys({r.board for r in rs}, tables), unit=Fraction(3)
    )
    for row in computed[0][None]:
        assert row.player not in unranked
        assert row.total == sum((p.points for p in points if p.player == row.player), Fraction(0))
