"""Duplicate scoring (tournaments.scoring): worked examples of DESIGN.md, Neuberg,
exact ties, penalties, tie-breaks, team of three, 3 v 3 and other table sizes. Pure: no
database."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from fractions import Fraction as F

import pytest

from tournaments.scoring import methods, ranking
from tournaments.scoring.methods import ScoringError, SeatPoints, SeatResult


def seat_results(board, seat, scores, players):
    return [SeatResult(board, t + 1, seat, players[t], F(s)) for t, s in enumerate(scores)]


def test_worked_example_hands_a_and_b_at_four_tables() -> None:
    # DESIGN.md: hand A +12, -4, -4, +15 -> 4, 1, 1, 6; hand B -6, +2, +8, -3 -> 0, 4, 6, 2.
    rs = seat_results("1", "S", [12, -4, -4, 15], "abcd") + seat_results(
        "1", "E", [-6, 2, 8, -3], "efgh"
    )
    points = {p.player: p.points for p in methods.matchpoints(rs)}
    assert [points[p] for p in "abcd"] == [4, 1, 1, 6]
    assert [points[p] for p in "efgh"] == [0, 4, 6, 2]
    # Four tables: the top is 2(n-1) = 6 and one seat's MP add up to n(n-1) = 12.
    assert sum(points[p] for p in "abcd") == sum(points[p] for p in "efgh") == 12


def test_neuberg_on_a_board_one_table_missed() -> None:
    # Four tables expected, three played: raw 4, 2, 0 become (MP+1)*4/3 - 1 = 17/3, 3, 1/3.
    rs = seat_results("7", "W", [10, 0, -5], "abc")
    got = [(p.points, p.top) for p in methods.matchpoints(rs, expected={"7": 4})]
    assert got == [(F(17, 3), 6), (F(3), 6), (F(1, 3), 6)]
    # Scaled to four tables, the three results share 12 * 3/4 = 9 matchpoints.
    assert sum(p for p, _ in got) == 9


def test_every_table_size_compares_by_seat_string() -> None:
    # Two, four and five seats (R-SEAT): the seat held is what is compared.
    for seats in (("S", "N"), ("S", "E", "N", "W"), ("P1", "P2", "P3", "P4", "P5")):
        rs = []
        for i, seat in enumerate(seats):
            rs += seat_results("1", seat, [i, i + 1, i - 1], [f"{seat}{t}" for t in range(3)])
        mp = {p.player: p.points for p in methods.matchpoints(rs)}
        for seat in seats:
            assert [mp[f"{seat}{t}"] for t in range(3)] == [2, 4, 0]


def test_passed_out_board_is_zero_and_compared_in_datum() -> None:
    diff = methods.datum_differences(seat_results("1", "S", [0, 0, 6], "abc"))
    assert [p.points for p in diff] == [-2, -2, 4]


def test_adjusted_per_seat_at_one_table() -> None:
    # Table 3 could not play normally: S (not at fault) gets avg+, E avg, W (at fault) avg-.
    rs = [
        *seat_results("1", "S", [6, -3], "ab"),
        *seat_results("1", "E", [-3, 6], "cd"),
        *seat_results("1", "W", [-3, -3], "ef"),
        SeatResult("1", 3, "S", "g", F(0), "avg+"),
        SeatResult("1", 3, "E", "h", F(0), "avg"),
        SeatResult("1", 3, "W", "i", F(0), "avg-"),
    ]
    mp = {p.player: (p.points, p.top) for p in methods.matchpoints(rs)}
    # Top 4 at three tables: 60/50/40 % of it.
    assert mp["g"] == (F(12, 5), 4) and mp["h"] == (F(2), 4) and mp["i"] == (F(8, 5), 4)
    # The two real results are Neuberg-scaled from 2 to 3 tables: (2+1)*3/2-1 = 7/2.
    assert mp["a"] == (F(7, 2), 4) and mp["b"] == (F(1, 2), 4)
    diff = {p.player: p.points for p in methods.datum_differences(rs, unit=F(5))}
    assert (diff["g"], diff["h"], diff["i"]) == (5, 0, -5)


def test_exact_ties_that_floats_would_break() -> None:
    # 1/10 + 1/5 + 3/10 = 3/10 + 3/10 exactly, but not in binary floating point.
    assert 0.1 + 0.2 + 0.3 != 0.3 + 0.3
    points = [
        SeatPoints(b, 1, "S", "a", v, None) for b, v in enumerate([F(1, 10), F(1, 5), F(3, 10)])
    ] + [SeatPoints(b, 2, "S", "b", v, None) for b, v in enumerate([F(3, 10), F(3, 10)])]
    rows = ranking.standings(points, method="datum")
    assert [(r.rank, r.player, r.total) for r in rows] == [
        ("1=", "a", F(3, 5)),
        ("1=", "b", F(3, 5)),
    ]


def test_competition_ranking_without_tiebreaks() -> None:
    points = [
        SeatPoints(1, 1, "S", p, F(v), None) for p, v in [("a", 9), ("b", 5), ("c", 5), ("d", 1)]
    ]
    assert [r.rank for r in ranking.standings(points, method="datum")] == ["1", "2=", "2=", "4"]


def test_penalties_are_kept_apart_from_the_boards() -> None:
    points = [SeatPoints(1, 1, "S", "a", F(4), F(4)), SeatPoints(1, 2, "S", "b", F(3), F(4))]
    rows = ranking.standings(points, penalties={"a": F(2)})
    first, second = rows
    # a: (4 - 2) / 4 = 50 %, b: 3/4 = 75 %; a's board total stays 4.
    assert (first.player, first.percentage) == ("b", 75)
    assert (second.player, second.total, second.penalty, second.percentage) == ("a", 4, 2, 50)


def _tied_pair():
    # a and b both total 0 against the datum over two boards (datum = mean of three tables);
    # a is above the datum once, b once as well, but b's best board is better.
    return [
        *seat_results(1, "S", [3, 0, -3], "abc"),
        *seat_results(2, "S", [-1, -4, 5], "abc"),
    ]


def test_tiebreak_datum_wins_then_best_board() -> None:
    rs = _tied_pair()
    points = methods.datum_differences(rs)
    totals = {pl: sum(p.points for p in points if p.player == pl) for pl in "abc"}
    assert totals == {"a": F(2), "b": F(-4), "c": F(2)}
    plain = ranking.standings(points, method="datum", results=rs)
    assert [(r.rank, r.player) for r in plain] == [("1=", "a"), ("1=", "c"), ("3", "b")]
    # datum_wins: a above the datum on board 1 only (3 > 0, -1 < 0); c on board 2 only.
    # best_board: a's best is +3, c's is +5: c first.
    rows = ranking.standings(
        points, method="datum", results=rs, tiebreaks=["datum_wins", "best_board"]
    )
    assert [(r.rank, r.player, r.decided_by) for r in rows] == [
        ("1", "c", "best_board"),
        ("2", "a", "best_board"),
        ("3", "b", ""),
    ]


def test_tiebreak_lot_from_the_published_seed() -> None:
    rs = _tied_pair()
    points = methods.datum_differences(rs)
    rows = ranking.standings(points, method="datum", results=rs, tiebreaks=["lot"], seed="X1")
    # Recomputed by hand from the published seed: the smaller SHA-256 draws the better place.
    digests = {p: hashlib.sha256(f"X1:{p}".encode()).hexdigest() for p in "ac"}
    winner = min(digests, key=digests.__getitem__)
    assert rows[0].player == winner and rows[0].rank == "1" and rows[0].decided_by == "lot"
    with pytest.raises(ScoringError, match="seed"):
        ranking.standings(points, method="datum", tiebreaks=["lot"])
    with pytest.raises(ScoringError, match="unknown tie-break"):
        ranking.standings(points, method="datum", tiebreaks=["coin"])


def test_tiebreak_head_to_head_where_they_met() -> None:
    # a and b sat at the same table on both boards. Compared by seat, board 1 gives a 2 MP
    # (S +4 against -4) and b 0 (E -2 against +2); board 2 gives b 2 and a 0 (E -3 against 0).
    rs = [
        SeatResult(1, 1, "S", "a", F(4)),
        SeatResult(1, 1, "E", "b", F(-2)),
        SeatResult(1, 1, "W", "c", F(-2)),
        SeatResult(1, 2, "S", "d", F(-4)),
        SeatResult(1, 2, "E", "e", F(2)),
        SeatResult(1, 2, "W", "f", F(2)),
        SeatResult(2, 1, "S", "b", F(6)),
        SeatResult(2, 1, "E", "a", F(-3)),
        SeatResult(2, 1, "W", "c", F(-3)),
        SeatResult(2, 2, "S", "e", F(0)),
        SeatResult(2, 2, "E", "d", F(0)),
        SeatResult(2, 2, "W", "f", F(0)),
    ]
    points = methods.matchpoints(rs)
    plain = ranking.standings(points, results=rs)
    assert {r.player: r.rank for r in plain}["a"] == {r.player: r.rank for r in plain}["b"]
    # Head to head: board 1 a (+4) beat b (-2), board 2 b (+6) beat a (-3): still equal.
    # Then datum_wins decides nothing either; the lot decides.
    rows = ranking.standings(
        points, results=rs, tiebreaks=["head_to_head", "datum_wins", "lot"], seed="s"
    )
    ab = [r for r in rows if r.player in "ab"]
    assert {r.decided_by for r in ab} == {"lot"}
    # With only board 1, where a (+4) beat b (-2) at their table, the head-to-head decides.
    only1 = [r for r in rs if r.board == 1]
    even = [SeatPoints(1, 1, "S", "a", F(1), None), SeatPoints(1, 1, "E", "b", F(1), None)]
    rows = ranking.standings(even, method="datum", results=only1, tiebreaks=["head_to_head"])
    assert [(r.rank, r.player, r.decided_by) for r in rows] == [
        ("1", "a", "head_to_head"),
        ("2", "b", "head_to_head"),
    ]


def test_team_of_three_sums_the_teams_hands() -> None:
    # Three teams X, Y, Z at three tables, each holding each seat once.
    seating = {1: "XYZ", 2: "YZX", 3: "ZXY"}
    scores = {1: (4, -2, -2), 2: (-6, 3, 3), 3: (2, -1, -1)}
    rs = [
        SeatResult("b", t, seat, f"{team}{t}", F(scores[t][i]))
        for t, teams in seating.items()
        for i, (seat, team) in enumerate(zip("SEW", teams, strict=True))
    ]
    team_of = {f"{team}{t}": team for t, teams in seating.items() for team in teams}
    got = methods.team_board_scores(rs, team_of)
    # X: S at table 1 (+4), W at 2 (+3), E at 3 (-1) = 6; Y: -2 - 6 - 1 = -9; Z: -2+3+2 = 3.
    assert got == {("b", "X"): 6, ("b", "Y"): -9, ("b", "Z"): 3}
    assert sum(got.values()) == 0


def test_three_against_three_two_table_net() -> None:
    # X holds S at table 1 (x1) and E, W at table 2; Y the rest.
    rs = [
        SeatResult(1, 1, "S", "x1", F(12)),
        SeatResult(1, 1, "E", "y1", F(-6)),
        SeatResult(1, 1, "W", "y2", F(-6)),
        SeatResult(1, 2, "S", "y3", F(-4)),
        SeatResult(1, 2, "E", "x2", F(2)),
        SeatResult(1, 2, "W", "x3", F(2)),
    ]
    team_of = {"x1": "X", "x2": "X", "x3": "X", "y1": "Y", "y2": "Y", "y3": "Y"}
    net = methods.two_table_net(rs, team_of)
    # r(S, table 1) - r(S, table 2) = 12 - (-4) = 16, which is also X's sum 12 + 2 + 2.
    assert net == {(1, "X"): 16, (1, "Y"): -16}
    assert net[(1, "X")] == sum(methods.team_board_scores(rs, team_of)[(1, t)] for t in "X")
    bad = dict(team_of, y3="X")
    with pytest.raises(ScoringError, match="one seat at one table"):
        methods.two_table_net(rs, bad)


def test_command_line_tiebreaks_and_bad_input(tmp_path) -> None:
    path = tmp_path / "seats.jsonl"
    path.write_text(
        "\n".join(
            json.dumps({"board": b, "table": t, "seat": "S", "player": p, "score": s})
            for b, t, p, s in [(1, 1, "a", 3), (1, 2, "b", 0), (1, 3, "c", -3)]
            + [(2, 1, "a", -1), (2, 2, "b", -4), (2, 3, "c", 5)]
        )
    )
    run = [sys.executable, "-m", "tournaments.scoring", str(path), "--method", "datum"]
    out = subprocess.run(run + ["--tiebreak", "best_board"], capture_output=True, text=True)
    rows = json.loads(out.stdout)["rows"]
    assert [(r["rank"], r["player"], r.get("decided_by")) for r in rows] == [
        ("1", "c", "best_board"),
        ("2", "a", "best_board"),
        ("3", "b", None),
    ]
    bad = subprocess.run(run + ["--tiebreak", "lot"], capture_output=True, text=True)
    assert bad.returncode == 2 and "seed" in bad.stderr
