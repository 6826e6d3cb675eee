"""`python -m tournaments.scoring FILE`: an artificial percentage (`"adjusted": "61.8%"`) beside
avg+, avg and avg-, and a weighted score (`"weighted": [{"score", "weight"}, …]` in place of
`"score"`); bad ones exit 2 with one line naming the line of the file."""

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
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _seat(table: int, player: str, **how: object) -> dict[str, object]:
    return {"board": 1, "table": table, "seat": "S", "player": player, **how}


# Four tables, one board, seat S: +3, −3, +6, and table 4 weighted ½ (+6) and ½ (−3).
WEIGHTED = [
    _seat(1, "a", score=3),
    _seat(2, "b", score=-3),
    _seat(3, "c", score=6),
    _seat(4, "d", weighted=[{"score": 6, "weight": "1/2"}, {"score": -3, "weight": "1/2"}]),
]


def test_a_weighted_score_in_matchpoints_with_its_traveller(tmp_path, capsys) -> None:
    code, out, err = _run(capsys, [_file(tmp_path, WEIGHTED), "--boards"])
    assert code == 0 and err == ""
    data = json.loads(out)
    results = {r["player"]: r for r in data["boards"][0]["results"]}
    # a: 2 (beats −3) + 0 + ½·0 + ½·2 = 3; b: ½·1 = 1/2; c: 2 + 2 + ½·1 + ½·2 = 11/2;
    # d: ½·(2 + 2 + 1) + ½·(0 + 1 + 0) = 3; top 6.
    assert {p: r["matchpoints"] for p, r in results.items()} == {
        "a": "3",
        "b": "1/2",
        "c": "11/2",
        "d": "3",
    }
    assert results["d"]["percentage"] == "50"
    # The traveller shows the possible results instead of a score.
    assert results["d"]["weighted"] == [
        {"score": "6", "weight": "1/2"},
        {"score": "-3", "weight": "1/2"},
    ]
    assert "score" not in results["d"] and results["a"]["score"] == "3"
    assert [r["player"] for r in data["rows"]] == ["c", "a", "d", "b"]
    assert [r["rank"] for r in data["rows"]] == ["1", "2=", "2=", "4"]


def test_a_weighted_score_in_datum_is_its_weighted_mean(tmp_path, capsys) -> None:
    code, out, _err = _run(capsys, [_file(tmp_path, WEIGHTED), "--method", "datum", "--boards"])
    assert code == 0
    diff = {r["player"]: r["difference"] for r in json.loads(out)["boards"][0]["results"]}
    # d scores (6 − 3)/2 = 3/2; the datum is (3 − 3 + 6 + 3/2)/4 = 15/8.
    assert diff == {"a": "9/8", "b": "-39/8", "c": "33/8", "d": "-3/8"}


def test_an_artificial_percentage_beside_avg_plus(tmp_path, capsys) -> None:
    rows = [
        _seat(1, "a", score=6),
        _seat(2, "b", score=-3),
        _seat(3, "c", adjusted="61.8%"),
        _seat(4, "d", adjusted="avg+"),
    ]
    code, out, _err = _run(capsys, [_file(tmp_path, rows), "--boards"])
    assert code == 0
    results = {r["player"]: r for r in json.loads(out)["boards"][0]["results"]}
    # Top 6 at four tables: 61.8 % of it is 927/250, avg+ 60 % is 18/5; a and b are compared
    # with each other only and scaled from two tables to four: (2+1)·4/2 − 1 = 5, 1.
    assert (results["c"]["matchpoints"], results["c"]["percentage"]) == ("927/250", "309/5")
    assert results["c"]["adjusted"] == "61.8%" and "score" not in results["c"]
    assert (results["d"]["matchpoints"], results["d"]["percentage"]) == ("18/5", "60")
    assert (results["a"]["matchpoints"], results["b"]["matchpoints"]) == ("5", "1")
    code, out, _err = _run(
        capsys, [_file(tmp_path, rows), "--method", "datum", "--unit", "5", "--boards"]
    )
    diff = {r["player"]: r["difference"] for r in json.loads(out)["boards"][0]["results"]}
    # u·(p − 50)/10: 5·11.8/10 = 59/10 and 5·10/10 = 5; the datum of a and b is 3/2.
    assert diff == {"a": "9/2", "b": "-9/2", "c": "59/10", "d": "5"}


def _refused(capsys, path: str) -> str:
    code, out, err = _run(capsys, [path])
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    return lines[0]


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ({"adjusted": "100.5%"}, "above 100%"),
        ({"adjusted": "61.825%"}, "at most two decimals"),
        ({"adjusted": "-1%"}, "from 0% to 100%"),
        ({"adjusted": 60}, "from 0% to 100%"),
        (
            {"weighted": [{"score": 6, "weight": "1/2"}, {"score": -3, "weight": "1/3"}]},
            "must sum to 1 (these sum to 5/6)",
        ),
        (
            {"weighted": [{"score": 6, "weight": "3/2"}, {"score": -3, "weight": "-1/2"}]},
            "must be above 0 (not -1/2)",
        ),
        (
            {"weighted": [{"score": 6, "weight": 1}, {"score": -3, "weight": 0}]},
            "must be above 0 (not 0)",
        ),
        ({"score": 6, "weighted": [{"score": 6, "weight": 1}]}, "both score and weighted"),
        (
            {"adjusted": "avg", "weighted": [{"score": 6, "weight": 1}]},
            "both adjusted and weighted",
        ),
        ({"weighted": []}, "at least one possible result"),
        ({"weighted": {"score": 6, "weight": 1}}, "a list of possible results"),
        ({"weighted": [{"score": 6}]}, "each possible result has a score and a weight"),
        ({"weighted": [{"score": 6, "weight": 1, "note": "x"}]}, "a score and a weight"),
        ({"weighted": [{"score": 6, "weight": "half"}]}, "weight 'half' is not a number"),
        ({"weighted": [{"score": "six", "weight": 1}]}, "score 'six' is not a number"),
    ],
)
def test_bad_adjusted_and_weighted_scores_exit_2_naming_the_line(
    tmp_path, capsys, how: dict[str, object], says: str
) -> None:
    rows = [_seat(1, "a", score=3), _seat(2, "b", **how)]
    line = _refused(capsys, _file(tmp_path, rows))
    assert line.startswith("scoring: line 2: ") and says in line
