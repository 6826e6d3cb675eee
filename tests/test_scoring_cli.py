"""`python -m tournaments.scoring FILE`: bad input a new user met is refused with one clear
line on stderr and exit status 2; good input keeps the exact-fraction output of DESIGN.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournaments.scoring import main


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
