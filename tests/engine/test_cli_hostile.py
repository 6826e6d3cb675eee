"""The engine's command line against hostile input (RECORDS.md §2).

Every input line gets exactly one answer, each a line of standard JSON (no NaN, no Infinity),
and the stream goes on; a bad line's answer says why. Only bad arguments exit 2, with a one-line
message on stderr and no traceback.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests/data/rlcard_rule_agents.jsonl"
STATUSES = {"verified", "mismatch", "illegal", "incomplete", "flagged", "not a record", "error"}


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=300,
    )


def _strict_json(line: str) -> Any:
    """A line of RFC 8259 JSON: NaN and Infinity are not JSON."""

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in an answer: {line[:200]}")

    return json.loads(line, parse_constant=refuse)


def _answers(done: subprocess.CompletedProcess[bytes]) -> list[dict[str, Any]]:
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")[-2000:]
    return [_strict_json(x) for x in done.stdout.decode("utf-8").splitlines()]


def _real_records(n: int) -> list[dict[str, Any]]:
    with DATA.open(encoding="utf-8") as f:
        return [json.loads(next(f)) for _ in range(n)]


# Values a hostile file puts where a record has something else. Big integers are written into
# the line as text (json.dumps would refuse some of them), so they are tokens here.
DEEP = "[" * 100_000 + "]" * 100_000
HOSTILE_TOKENS = [
    "9" * 5_000,  # a number longer than Python reads by default (4,300 digits)
    "-" + "9" * 5_000,
    "1e400",  # a float that overflows to infinity
    "-1e400",
    "NaN",
    "Infinity",
    "-Infinity",
    DEEP,
    '{"a":' * 5_000 + "1" + "}" * 5_000,
    '"\\u0000"',
    '"\\ud800"',  # a lone surrogate: no UTF-8 text can hold it
    '"\\udfff\\ud800"',
    "1" + "0" * 4_299,  # the longest number Python reads; output of ten times it is too long
    "[]",
    "{}",
    "null",
    "true",
    '"' + "x" * 100_000 + '"',
    '"' + "9" * 5_000 + '"',
    "-0.0",
    "1.5",
]
OPTIONS = ["base", "spring_multiplier", "show_multiplier", "max_additions", "all_pass"]
PRESETS = ["classic", "rob", "competition", "cn2016", "two_player", "four_player"]


def _fuzzed_lines(n: int, seed: int) -> list[str]:
    """`n` record lines, each a real record with one to three fields replaced by hostile JSON
    text; every 8th line is hostile through and through (not even a record)."""
    rng = random.Random(seed)
    records = _real_records(40)
    lines = []
    for i in range(n):
        if i % 8 == 7:
            lines.append(rng.choice(HOSTILE_TOKENS))
            continue
        record = dict(rng.choice(records))
        record.pop("expected", None)
        marks: dict[str, str] = {}
        for j in range(rng.randint(1, 3)):
            token = rng.choice(HOSTILE_TOKENS)
            mark = f"@@HOSTILE{j}@@"
            marks[f'"{mark}"'] = token
            where = rng.random()
            if where < 0.35:
                record["rules"] = {
                    "preset": rng.choice(PRESETS),
                    "options": {rng.choice(OPTIONS): mark},
                }
                if rng.random() < 0.5:
                    record.update(bidding=None, landlord="S", bid=3)
            elif where < 0.5:
                record["declared"] = {"S": mark, "E": 1, "W": -1}
            elif where < 0.6 and record["plays"]:
                k = rng.randrange(len(record["plays"]))
                record["plays"] = [*record["plays"][:k], ["S", mark], *record["plays"][k + 1 :]]
            else:
                record[rng.choice(["id", "bid", "bottom", "landlord", "end", "extra"])] = mark
        line = json.dumps(record, ensure_ascii=False)
        for mark, token in marks.items():
            line = line.replace(mark, token)
        lines.append(line)
    return lines


def test_replay_answers_every_line_of_400_fuzzed_records() -> None:
    lines = _fuzzed_lines(400, seed=11)
    good = _real_records(3)
    stream = "\n".join([*lines, *(json.dumps(r) for r in good)]) + "\n"
    done = run("replay", "-", stdin=stream.encode("utf-8"))
    answers = _answers(done)
    assert done.returncode == 0
    assert len(answers) == 403
    assert all(a["status"] in STATUSES for a in answers)
    # The real records after the hostile ones are judged as ever (the stream went on).
    assert [a["status"] for a in answers[-3:]] == [r["expected"]["status"] for r in good]


@pytest.mark.parametrize(
    ("token", "why"),
    [
        (DEEP, "nested"),
        ('{"hands": {"S": "3"}, "plays": [], "id": ' + "9" * 5_000 + "}", "digits"),
        ('{"hands": {"S": "3"}, "plays": [], "id": NaN}', "NaN"),
        ('{"hands": {"S": "3"}, "plays": [], "id": 1e400}', "1e400"),
    ],
)
def test_replay_a_hostile_line_is_not_a_record_and_says_why(token: str, why: str) -> None:
    good = json.dumps(_real_records(1)[0])
    done = run("replay", "-", stdin=f"{token}\n{good}\n".encode())
    answers = _answers(done)
    assert done.returncode == 0 and len(answers) == 2
    assert answers[0]["status"] == "not a record" and answers[0]["line"] == 1
    assert why.lower() in answers[0]["error"]["message"].lower()
    assert answers[1]["status"] == "verified"


def test_replay_a_base_too_large_to_score_is_refused_by_its_bound() -> None:
    # R-SC-ROB: the unit is base × 3 × 2^robs × 2^(bombs+rockets); a base of 10^4299 would give
    # a score of more than 4,300 digits, which Python refuses to write as text. The option is
    # bounded (RULES.md §8): each record is answered, refused, its message cut short.
    record = next(r for r in _real_records(100) if any(p[1] == "BR" for p in r["plays"]))
    record = {**record, "bid": 3, "declared": None}
    record.pop("expected")
    line = json.dumps({**record, "rules": {"preset": "rob", "options": {"base": "@@"}}})
    line = line.replace('"@@"', "1" + "0" * 4_299)
    done = run("replay", "-", stdin=f"{line}\n{line}\n".encode())
    answers = _answers(done)
    assert done.returncode == 0 and len(answers) == 2
    assert {a["status"] for a in answers} <= STATUSES - {"verified"}
    assert all("option base must be at most 10000" in a["error"]["message"] for a in answers)
    assert all(len(a["error"]["message"]) < 100 for a in answers)


def test_replay_a_lone_surrogate_in_an_id_is_answered_in_valid_utf8() -> None:
    record = _real_records(1)[0]
    line = json.dumps({**record, "id": "@@"}).replace('"@@"', '"a\\ud800b"')
    done = run("replay", "-", stdin=f"{line}\n{line}\n".encode())
    answers = _answers(done)
    assert done.returncode == 0 and len(answers) == 2
    assert all(a["status"] in STATUSES for a in answers)


def test_replay_text_form_hostile_tags_answer_each_record() -> None:
    records = [
        '[Id "a"]\n[S "3"]\n[E "4"]\n[W "5"]\n[Landlord "S"]\n[Bid "' + "9" * 5_000 + '"]\n\n3\n',
        '[Id "b"]\n[S "3"]\n[Declared "S=' + "9" * 5_000 + '"]\n\n1 *\n',
        '[IdJson "{not json"]\n[S "3"]\n\n1 *\n',
        '[Id "d"]\n[S "3"]\n[Extra "' + "[" * 5_000 + '"]\n\n1 *\n',
        '[Id "e"]\n[S "3"]\n[Rules "{\\"preset\\": \\"rob\\", \\"options\\": '
        '{\\"base\\": 1e400}}"]\n\n1 *\n',
    ]
    done = run("replay", "--text", "-", stdin="\n".join(records).encode())
    answers = _answers(done)
    assert done.returncode == 0
    assert len(answers) == len(records)
    assert all(a["status"] == "not a record" for a in answers)


@pytest.mark.parametrize(
    "value", ["9" * 5_000, "-" + "9" * 5_000, "1" + "0" * 4_300, "1e400", "Infinity", "NaN"]
)
@pytest.mark.parametrize("command", [("classify", "33"), ("moves", "33"), ("replay", "-")])
def test_a_huge_option_value_is_a_usage_error(command: tuple[str, ...], value: str) -> None:
    done = run(*command, "--option", f"base={value}", stdin=b"")
    assert done.returncode == 2, done.stderr.decode(errors="replace")[-1000:]
    assert done.stdout == b""
    message = done.stderr.decode().strip()
    assert len(message.splitlines()) == 1 and "base" in message
    assert b"Traceback" not in done.stderr


def test_a_huge_option_value_in_a_record_is_an_answer() -> None:
    record = _real_records(1)[0]
    lines = []
    for token in ("1e400", "-1e400", "9" * 4_000):
        line = json.dumps({**record, "rules": {"preset": "rob", "options": {"base": "@@"}}})
        lines.append(line.replace('"@@"', token))
    done = run("replay", "-", stdin=("\n".join(lines) + "\n").encode())
    answers = _answers(done)
    assert done.returncode == 0 and len(answers) == 3
    assert all(a["status"] in STATUSES for a in answers)


@pytest.mark.parametrize("command", ["classify", "moves"])
def test_batch_classify_and_moves_answer_hostile_lines(command: str) -> None:
    lines = [
        "3" * 100_000,
        "\x00",
        "3\x00",
        "BR " + "9" * 5_000,
        "33 " + "[" * 10_000,
        "☆★ 大王",
        "\ufeff33",
        "33 44 55",
        "333444TJ",
    ]
    stream = "\n".join(lines).encode("utf-8") + b"\n\xff\xfe\n"
    done = run(command, "-", stdin=stream)
    answers = _answers(done)
    assert done.returncode == 0
    assert len(answers) == len(lines) + 1
