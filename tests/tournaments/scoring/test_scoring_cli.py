"""`python -m tournaments.scoring FILE`: bad input is refused with one clear
line on stderr and exit status 2; good input keeps the exact-fraction output of DESIGN.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.scoring.cli import main


def _file(tmp_path: Path, rows: list[dict[str, object]]) -> str:
    path = tmp_path / "seats.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def _board(scores: dict[tuple[int, str], tuple[str, object]]) -> list[dict[str, object]]:
    return [
        {"board": 1, "table": table, "seat": seat, "player": player, "score": score}
        for (table, seat), (player, score) in scores.items()
    ]


# Board 1 at two tables of three: S scored 2 at table 1 and -2 at table 2, and so on.
GOOD = _board(
    {
        (1, "S"): ("a", 2),
        (1, "E"): ("b", -1),
        (1, "W"): ("c", -1),
        (2, "S"): ("d", -2),
        (2, "E"): ("e", 1),
        (2, "W"): ("f", 1),
    }
)


def _run(capsys, argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_good_input_keeps_exact_fractions(tmp_path, capsys) -> None:
    code, out, err = _run(capsys, [_file(tmp_path, GOOD)])
    assert code == 0 and err == ""
    rows = {r["player"]: r for r in json.loads(out)["rows"]}
    # Matchpoints: one other table per seat, top 2; a beats d (2 > -2), e and f beat b and c.
    assert rows["a"]["total"] == "2" and rows["a"]["percentage"] == "100"
    assert rows["b"]["total"] == "0" and rows["b"]["top"] == "2"


def _refused(capsys, argv: list[str]) -> str:
    code, out, err = _run(capsys, argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err and "Errno" not in err
    return lines[0]


def test_the_same_player_in_two_seats_of_a_table_is_refused(tmp_path, capsys) -> None:
    rows = [dict(r) for r in GOOD]
    rows[1]["player"] = "a"  # a holds S and E at table 1
    line = _refused(capsys, [_file(tmp_path, rows)])
    assert "player a holds two seats (S and E)" in line and "table 1" in line


def test_a_seat_outside_r_seat_is_refused(tmp_path, capsys) -> None:
    rows = [dict(r) for r in GOOD]
    rows[2]["seat"] = "X"
    line = _refused(capsys, [_file(tmp_path, rows)])
    assert "line 3" in line and "'X' is not a seat" in line and "R-SEAT" in line
    rows[2]["seat"] = "P6"
    assert "'P6' is not a seat" in _refused(capsys, [_file(tmp_path, rows)])


def test_an_adjusted_result_under_datum_needs_the_unit(tmp_path, capsys) -> None:
    rows = [*GOOD, {"board": 1, "table": 3, "seat": "S", "player": "g", "adjusted": "avg+"}]
    path = _file(tmp_path, rows)
    assert "--unit is needed" in _refused(capsys, [path, "--method", "datum"])
    code, out, _err = _run(capsys, [path, "--method", "datum", "--unit", "10"])
    # Datum of S over the two played tables is 0; avg+ scores +u = 10.
    assert code == 0 and {r["player"]: r["total"] for r in json.loads(out)["rows"]}["g"] == "10"
    # Matchpoints score adjusted results by percentage of the top: no unit involved.
    assert _run(capsys, [path])[0] == 0


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--method", "datum", "--unit", "-5"], "--unit -5 is negative"),
        (["--method", "datum", "--unit", "ten"], "--unit 'ten' is not a number"),
        (["--unit", "10"], "--unit applies to datum scoring only"),
        (["--method", "matchpoints", "--unit", "0"], "--unit applies to datum scoring only"),
    ],
)
def test_bad_units_are_refused_by_name(tmp_path, capsys, argv, says) -> None:
    assert says in _refused(capsys, [_file(tmp_path, GOOD), *argv])


def test_a_missing_file_is_one_clean_line(tmp_path, capsys) -> None:
    missing = str(tmp_path / "nope.jsonl")
    assert (
        _refused(capsys, [missing]) == f"scoring: cannot read {missing}: no such file or directory"
    )


# A board met by fewer tables than the file's other boards is Neuberg-scaled
# (DESIGN.md, Scoring methods: MP' = (MP + 1)·N/n − 1, N expected, n actual), N being the most
# tables that met any board of the file unless --tables says otherwise. Seat S only, so each
# player's total is his S results.
BOARD_1 = [  # DESIGN.md's worked example at four tables: +12, −4, −4, +15 → MP 4, 1, 1, 6.
    {"board": 1, "table": t, "seat": "S", "player": p, "score": s}
    for t, p, s in [(1, "a", 12), (2, "b", -4), (3, "c", -4), (4, "d", 15)]
]
BOARD_2 = [  # Table 4 did not meet board 2: +10, 0, −5 → raw MP 4, 2, 0 at three tables.
    {"board": 2, "table": t, "seat": "S", "player": p, "score": s}
    for t, p, s in [(1, "a", 10), (2, "b", 0), (3, "c", -5)]
]


def _totals(out: str) -> dict[str, tuple[str, str, str]]:
    return {r["player"]: (r["total"], r["top"], r["percentage"]) for r in json.loads(out)["rows"]}


def test_a_board_met_by_fewer_tables_is_neuberg_scaled_by_default(tmp_path, capsys) -> None:
    code, out, err = _run(capsys, [_file(tmp_path, BOARD_1 + BOARD_2)])
    assert code == 0 and err == ""
    # N = 4 (board 1), n = 3 on board 2: (4+1)·4/3 − 1 = 17/3, (2+1)·4/3 − 1 = 3,
    # (0+1)·4/3 − 1 = 1/3, each over the top 2(N − 1) = 6 of four tables.
    # a: 4 + 17/3 = 29/3 of 12, 100·(29/3)/12 = 725/9 %; b: 1 + 3 = 4 of 12, 100/3 %;
    # c: 1 + 1/3 = 4/3 of 12, 100/9 %; d (board 1 only): 6 of 6, 100 %.
    assert _totals(out) == {
        "a": ("29/3", "12", "725/9"),
        "b": ("4", "12", "100/3"),
        "c": ("4/3", "12", "100/9"),
        "d": ("6", "6", "100"),
    }


def test_tables_option_sets_the_expected_number(tmp_path, capsys) -> None:
    path = _file(tmp_path, BOARD_2)
    # Alone in its file board 2 is met by the most tables there are: no scaling, top 4.
    assert _totals(_run(capsys, [path])[1]) == {
        "a": ("4", "4", "100"),
        "b": ("2", "4", "50"),
        "c": ("0", "4", "0"),
    }
    # --tables 4: 17/3, 3 and 1/3 of 6 as above.
    code, out, _err = _run(capsys, [path, "--tables", "4"])
    assert code == 0
    assert _totals(out) == {
        "a": ("17/3", "6", "850/9"),
        "b": ("3", "6", "50"),
        "c": ("1/3", "6", "50/9"),
    }


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--tables", "3"], "--tables 3 is fewer than the 4 tables that met board 1"),
        (["--tables", "0"], "--tables '0' is not a number of tables"),
        (["--tables", "four"], "--tables 'four' is not a number of tables"),
        (["--method", "datum", "--tables", "5"], "--tables applies to matchpoints only"),
    ],
)
def test_bad_tables_are_refused_by_name(tmp_path, capsys, argv, says) -> None:
    assert says in _refused(capsys, [_file(tmp_path, BOARD_1 + BOARD_2), *argv])
