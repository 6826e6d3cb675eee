"""`python -m tournaments.scoring FILE`: an input line `{"board": B, "tables": N}` says how many
tables board B was meant for, its own Neuberg N (DESIGN.md, "Scoring methods": MP' = (MP + 1)·N/n
− 1, top 2(N − 1), N expected, n actual), for events whose boards are played different numbers
of times. A board's tables given twice, not a whole number above 0, or fewer than the tables
that met the board is bad input: exit 2, one line on stderr naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.scoring.cli import main


def _file(tmp_path: Path, rows: list[dict[str, object]]) -> str:
    path = tmp_path / "seats.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# Seat S only, so each player's total is his S results.
BOARD_1 = [  # DESIGN.md's worked example at four tables: +12, −4, −4, +15 → MP 4, 1, 1, 6.
    {"board": 1, "table": t, "seat": "S", "player": p, "score": s}
    for t, p, s in [(1, "a", 12), (2, "b", -4), (3, "c", -4), (4, "d", 15)]
]
BOARD_2 = [  # Three tables met board 2: +10, 0, −5 → raw MP 4, 2, 0.
    {"board": 2, "table": t, "seat": "S", "player": p, "score": s}
    for t, p, s in [(1, "a", 10), (2, "b", 0), (3, "c", -5)]
]


def _totals(out: str) -> dict[str, tuple[str, str, str]]:
    return {r["player"]: (r["total"], r["top"], r["percentage"]) for r in json.loads(out)["rows"]}


def test_a_board_s_own_tables_are_its_neuberg_n(tmp_path, capsys) -> None:
    rows = [*BOARD_1, {"board": 2, "tables": 5}, *BOARD_2]
    code, out, err = _run(capsys, [_file(tmp_path, rows), "--boards"])
    assert code == 0 and err == ""
    # Board 2 meant for N = 5, met by n = 3: (4+1)·5/3 − 1 = 22/3, (2+1)·5/3 − 1 = 4,
    # (0+1)·5/3 − 1 = 2/3, top 2(5 − 1) = 8: 100·(22/3)/8 = 275/3 %, 400/8 = 50 %,
    # 100·(2/3)/8 = 25/3 %. Board 1 keeps the default N, four tables: 4, 1, 1, 6 of 6.
    board_2 = next(b for b in json.loads(out)["boards"] if b["board"] == 2)
    assert [(r["player"], r["matchpoints"], r["percentage"]) for r in board_2["results"]] == [
        ("a", "22/3", "275/3"),
        ("b", "4", "50"),
        ("c", "2/3", "25/3"),
    ]
    # a: 4 + 22/3 = 34/3 of 6 + 8 = 14, 100·(34/3)/14 = 1700/21 %; b: 1 + 4 = 5 of 14,
    # 500/14 = 250/7 %; c: 1 + 2/3 = 5/3 of 14, 100·(5/3)/14 = 250/21 %; d: 6 of 6, 100 %.
    assert _totals(out) == {
        "a": ("34/3", "14", "1700/21"),
        "b": ("5", "14", "250/7"),
        "c": ("5/3", "14", "250/21"),
        "d": ("6", "6", "100"),
    }


def test_a_board_with_its_own_tables_sets_no_default_for_the_others(tmp_path, capsys) -> None:
    # Board 1 is meant for its four tables; board 2, met by three, has no line: its N is the
    # most tables that met a board without a line of its own, 3, so it is not scaled: raw MP
    # 4, 2, 0 of the top 2(3 − 1) = 4. a: 4 + 4 = 8 of 6 + 4 = 10, 80 %.
    rows = [{"board": 1, "tables": 4}, *BOARD_1, *BOARD_2]
    code, out, _err = _run(capsys, [_file(tmp_path, rows)])
    assert code == 0
    assert _totals(out)["a"] == ("8", "10", "80")


def test_the_tables_option_yields_to_a_board_s_own_line(tmp_path, capsys) -> None:
    # --tables 4 is for board 1; board 2 has its own N = 5: a scores 4 + 22/3 as above.
    rows = [*BOARD_1, *BOARD_2, {"board": 2, "tables": 5}]
    code, out, _err = _run(capsys, [_file(tmp_path, rows), "--tables", "4"])
    assert code == 0 and _totals(out)["a"] == ("34/3", "14", "1700/21")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ({"board": 2, "tables": 2}, "line 8: board 2 is meant for 2 tables but 3 tables met it"),
        ({"board": 2, "tables": 4.5}, "line 8: tables must be a whole number above 0"),
        ({"board": 2, "tables": "5"}, "line 8: tables must be a whole number above 0"),
        ({"board": 2, "tables": True}, "line 8: tables must be a whole number above 0"),
        ({"board": 2, "tables": 0}, "line 8: tables must be a whole number above 0"),
        ({"board": 2, "tables": 5, "seat": "S"}, "line 8: a tables line has board and tables"),
    ],
)
def test_bad_tables_lines_are_refused_by_line(tmp_path, capsys, line, says) -> None:
    code, out, err = _run(capsys, [_file(tmp_path, [*BOARD_1, *BOARD_2, line])])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert says in err


def test_a_board_s_tables_given_twice_are_refused(tmp_path, capsys) -> None:
    rows = [{"board": 2, "tables": 5}, *BOARD_2, {"board": 2, "tables": 5}]
    code, out, err = _run(capsys, [_file(tmp_path, rows)])
    assert code == 2 and out == ""
    assert "line 5: board 2 has its tables already (line 1)" in err
