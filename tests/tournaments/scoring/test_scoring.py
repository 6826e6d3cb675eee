"""Duplicate scoring (tournaments.scoring): pure, exact, by the seat held."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from tournaments.scoring import methods, ranking
from tournaments.scoring.methods import SeatResult

F = Fraction


def results(
    board: str, seat: str, scores: list[int], players: str = "abcdefgh"
) -> list[SeatResult]:
    return [SeatResult(board, t + 1, seat, players[t], F(s)) for t, s in enumerate(scores)]


def test_design_example_four_tables_matchpoints_4_1_1_6() -> None:
    points = methods.matchpoints(results("1", "S", [12, -4, -4, 15]))
    assert [p.points for p in points] == [4, 1, 1, 6]
    assert {p.top for p in points} == {6}
    assert all(isinstance(p.points, Fraction) for p in points)


def test_compares_by_seat_held_not_by_role() -> None:
    # Table 1: S was landlord (+48); table 2: S was a farmer (-24). Same cards, so compared.
    rs = [
        SeatResult("1", 1, "S", "a", F(48)),
        SeatResult("1", 1, "E", "b", F(-24)),
        SeatResult("1", 1, "W", "c", F(-24)),
        SeatResult("1", 2, "S", "d", F(-24)),
        SeatResult("1", 2, "E", "e", F(48)),
        SeatResult("1", 2, "W", "f", F(-24)),
    ]
    mp = {p.player: p.points for p in methods.matchpoints(rs)}
    assert mp == {"a": 2, "d": 0, "b": 0, "e": 2, "c": 1, "f": 1}


def test_passed_out_board_scores_zero_and_is_compared() -> None:
    mp = methods.matchpoints(results("1", "E", [0, 0, -6]))
    assert [p.points for p in mp] == [3, 3, 0]


def test_neuberg_scales_a_board_with_fewer_results() -> None:
    mp = methods.matchpoints(results("1", "S", [10, -5]), expected={"1": 4})
    # MP' = (MP + 1) * N / n - 1: (2+1)*4/2-1 = 5 and (0+1)*4/2-1 = 1, top 6.
    assert [(p.points, p.top) for p in mp] == [(5, 6), (1, 6)]


def test_adjusted_results_take_part_in_no_comparison() -> None:
    rs = results("1", "S", [10, -5, 3])
    rs[2] = SeatResult("1", 3, "S", "c", F(0), "avg+")
    mp = methods.matchpoints(rs)
    # Real results compared between themselves and scaled to 3 tables; avg+ is 60% of top 4.
    assert [p.points for p in mp] == [F(7, 2), F(1, 2), F(12, 5)]
    diff = methods.datum_differences(rs, unit=F(3))
    assert [p.points for p in diff] == [F(15, 2), F(-15, 2), F(3)]


def test_datum_difference_trimmed_from_five_tables() -> None:
    assert [p.points for p in methods.datum_differences(results("1", "S", [12, -4, -4, 15]))] == [
        F(29, 4),
        F(-35, 4),
        F(-35, 4),
        F(41, 4),
    ]
    five = methods.datum_differences(results("1", "S", [100, 1, 2, 3, -50]))
    assert [p.points for p in five] == [98, -1, 0, 1, -52]


def test_competition_ranking_shares_ranks() -> None:
    assert ranking.rank_labels([F(9), F(5), F(5), F(1)]) == ["1", "2=", "2=", "4"]
    assert ranking.rank_labels([F(1), F(1), F(1)]) == ["1=", "1=", "1="]
    assert ranking.rank_labels([]) == []


def test_standings_sum_boards_and_rank_by_percentage() -> None:
    rs = results("1", "S", [12, -4, -4, 15]) + results("2", "S", [5, 5, 0, 0])
    rows = ranking.standings(methods.matchpoints(rs))
    assert [(r.rank, r.player, r.total, r.percentage) for r in rows] == [
        ("1", "a", F(9), F(75)),
        ("2", "d", F(7), F(175, 3)),
        ("3", "b", F(6), F(50)),
        ("4", "c", F(2), F(50, 3)),
    ]


def test_exact_arithmetic_never_floats_a_tie() -> None:
    # 0.1 + 0.2 != 0.3 in floats; thirds do not sum exactly either. Fractions tie exactly.
    rs = [SeatResult("1", 1, "S", "a", F(1, 10) + F(2, 10)), SeatResult("1", 2, "S", "b", F(3, 10))]
    assert [p.points for p in methods.matchpoints(rs)] == [1, 1]
    rows = ranking.standings(methods.datum_differences(rs), method="datum")
    assert [r.rank for r in rows] == ["1=", "1="]


def test_seat_met_twice_is_refused() -> None:
    with pytest.raises(methods.ScoringError, match="appears twice"):
        methods.matchpoints(results("1", "S", [1]) * 2)


def _cli(tmp_path, lines: list[object], *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "results.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return subprocess.run(
        [sys.executable, "-m", "tournaments.scoring", str(path), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_command_line_prints_exact_fractions(tmp_path) -> None:
    lines = [
        {"board": 1, "table": t, "seat": "S", "player": p, "score": s}
        for t, p, s in [(1, "a", 12), (2, "b", -4), (3, "c", -4), (4, "d", 15)]
    ]
    done = _cli(tmp_path, lines)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["rows"]
    assert [(r["rank"], r["player"], r["total"], r["percentage"]) for r in rows] == [
        ("1", "d", "6", "100"),
        ("2", "a", "4", "200/3"),
        ("3=", "b", "1", "50/3"),
        ("3=", "c", "1", "50/3"),
    ]
    datum = json.loads(_cli(tmp_path, lines, "--method", "datum").stdout)["rows"]
    assert [r["total"] for r in datum] == ["41/4", "29/4", "-35/4", "-35/4"]


def test_command_line_bad_input_exits_2(tmp_path) -> None:
    done = _cli(tmp_path, ['{"board": 1}'])
    assert done.returncode == 2
    assert "line 1" in done.stderr and done.stdout == ""
    assert _cli(tmp_path, ["not json"]).returncode == 2
