"""`python -m tournaments.scoring FILE --boards`: besides the standings, every board's results
as a bridge traveller, each with its matchpoints and percentage of the board's top (DESIGN.md,
"Scoring methods"), ordered by table then seat, exact values as reduced fraction strings."""

from __future__ import annotations

import json
from pathlib import Path

from tournaments.scoring.cli import main


def _file(tmp_path: Path, rows: list[dict[str, object]]) -> str:
    path = tmp_path / "seats.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def _run(capsys, argv: list[str]) -> tuple[int, dict, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


# Board 1 at two tables of three, given out of order: S +2 at table 1 beats S −2 at table 2,
# E and W lose 1 each at table 1 and win 1 each at table 2: raw MP 2 for a win, 0 for a loss.
# Board 2 below is met by four tables, so board 1 is expected at N = 4 and Neuberg-scaled from
# n = 2: (2 + 1)·4/2 − 1 = 5 and (0 + 1)·4/2 − 1 = 1 of the top 2(4 − 1) = 6, that is
# 500/6 = 250/3 % and 100/6 = 50/3 %.
BOARD_1 = [
    {"board": 1, "table": 2, "seat": "W", "player": "f", "score": 1},
    {"board": 1, "table": 1, "seat": "E", "player": "b", "score": -1},
    {"board": 1, "table": 2, "seat": "S", "player": "d", "score": -2},
    {"board": 1, "table": 1, "seat": "W", "player": "c", "score": -1},
    {"board": 1, "table": 1, "seat": "S", "player": "a", "score": 2},
    {"board": 1, "table": 2, "seat": "E", "player": "e", "score": 1},
]
# DESIGN.md's worked example, seat S of one board at four tables: +12, −4, −4, +15 → MP 4, 1,
# 1, 6 of the top 2(4 − 1) = 6: 400/6 = 200/3 %, 100/6 = 50/3 %, 50/3 %, 100 %. Tables 10 and
# 2 check that tables sort as numbers (2 before 10).
BOARD_2 = [
    {"board": 2, "table": t, "seat": "S", "player": p, "score": s}
    for t, p, s in [(10, "d", 15), (1, "a", 12), (3, "c", -4), (2, "b", -4)]
]


def _result(table: int, seat: str, player: str, score: str, mp: str, pct: str) -> dict:
    return {
        "table": table,
        "seat": seat,
        "player": player,
        "score": score,
        "matchpoints": mp,
        "percentage": pct,
    }


def test_boards_prints_each_board_as_a_traveller(tmp_path, capsys) -> None:
    code, out, err = _run(capsys, [_file(tmp_path, BOARD_2 + BOARD_1), "--boards"])
    assert code == 0 and err == ""
    assert out["boards"] == [
        {
            "board": 1,
            "results": [
                _result(1, "S", "a", "2", "5", "250/3"),
                _result(1, "E", "b", "-1", "1", "50/3"),
                _result(1, "W", "c", "-1", "1", "50/3"),
                _result(2, "S", "d", "-2", "1", "50/3"),
                _result(2, "E", "e", "1", "5", "250/3"),
                _result(2, "W", "f", "1", "5", "250/3"),
            ],
        },
        {
            "board": 2,
            "results": [
                _result(1, "S", "a", "12", "4", "200/3"),
                _result(2, "S", "b", "-4", "1", "50/3"),
                _result(3, "S", "c", "-4", "1", "50/3"),
                _result(10, "S", "d", "15", "6", "100"),
            ],
        },
    ]
    # The standings are still there: a holds 5 + 4 = 9 MP of tops 6 + 6 = 12, 900/12 = 75 %.
    rows = {r["player"]: r for r in out["rows"]}
    assert (rows["a"]["total"], rows["a"]["top"], rows["a"]["percentage"]) == ("9", "12", "75")


def test_a_board_alone_at_two_tables_is_not_scaled(tmp_path, capsys) -> None:
    # One other table per seat: top 2(2 − 1) = 2, a win 2 MP = 100 %, a loss 0 MP = 0 %.
    code, out, _err = _run(capsys, [_file(tmp_path, BOARD_1), "--boards"])
    assert code == 0
    assert [
        (r["player"], r["matchpoints"], r["percentage"]) for r in out["boards"][0]["results"]
    ] == [
        ("a", "2", "100"),
        ("b", "0", "0"),
        ("c", "0", "0"),
        ("d", "0", "0"),
        ("e", "2", "100"),
        ("f", "2", "100"),
    ]


def test_datum_boards_show_the_difference(tmp_path, capsys) -> None:
    # Datum of S on board 2 (four tables, not trimmed): (15 + 12 − 4 − 4)/4 = 19/4; a's +12
    # is 12 − 19/4 = 29/4 above it, b's −4 is −4 − 19/4 = −35/4.
    code, out, _err = _run(capsys, [_file(tmp_path, BOARD_2), "--boards", "--method", "datum"])
    assert code == 0
    results = out["boards"][0]["results"]
    assert [(r["player"], r["difference"]) for r in results][:2] == [("a", "29/4"), ("b", "-35/4")]
    assert "matchpoints" not in results[0] and "percentage" not in results[0]


def test_without_boards_only_the_standings_are_printed(tmp_path, capsys) -> None:
    code, out, _err = _run(capsys, [_file(tmp_path, BOARD_1)])
    assert code == 0 and "boards" not in out and len(out["rows"]) == 6
