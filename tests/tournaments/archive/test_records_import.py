"""Record import edge cases: nothing left behind by a failed import, no
silent loss of a different game under a known id, unknown rules refused, suited jacks shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.paths import DATA_DIR
from tournaments.models import Event
from tournaments.templatetags.ddz import cards

pytestmark = pytest.mark.django_db
DATA = DATA_DIR / "rlcard_rule_agents.jsonl"


def _records(n: int) -> list[dict[str, object]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()[:n]]


def _write(path: Path, records: list[object]) -> Path:
    path.write_text(
        "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records),
        encoding="utf-8",
    )
    return path


def test_a_missing_file_leaves_no_event(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        call_command("ddz_import_records", str(tmp_path / "nope.jsonl"), "--event", "Ghost")
    assert not Event.objects.filter(name="Ghost").exists()


def test_a_file_of_bad_lines_leaves_no_event(tmp_path: Path) -> None:
    path = _write(tmp_path / "bad.jsonl", ["not json", '{"hands": 1}'])
    with pytest.raises(CommandError):
        call_command("ddz_import_records", str(path), "--event", "Ghost")
    assert not Event.objects.filter(name="Ghost").exists()


def test_non_utf8_lines_are_rejected_one_by_one(tmp_path: Path) -> None:
    good = _records(1)[0]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\xff\xfe\n" + json.dumps(good).encode() + b"\n")
    with pytest.raises(CommandError):
        call_command("ddz_import_records", str(path), "--event", "Mixed")
    event = Event.objects.get(name="Mixed")
    assert event.boards.count() == 1


def test_same_id_same_record_is_skipped_but_a_different_one_is_rejected(tmp_path: Path) -> None:
    first, second = _records(2)
    call_command("ddz_import_records", str(_write(tmp_path / "a.jsonl", [first])), "--event", "Ids")
    call_command(
        "ddz_import_records", str(_write(tmp_path / "b.jsonl", [first])), "--event", "Ids"
    )  # the same record again: skipped, exit 0
    impostor = dict(second, id=first["id"])
    with pytest.raises(CommandError):
        call_command(
            "ddz_import_records", str(_write(tmp_path / "c.jsonl", [impostor])), "--event", "Ids"
        )
    assert Event.objects.get(name="Ids").boards.count() == 1


def test_unknown_rules_are_rejected_at_the_door(tmp_path: Path) -> None:
    good, bad = _records(2)
    bad = dict(bad, rules="poker")
    with pytest.raises(CommandError):
        call_command(
            "ddz_import_records", str(_write(tmp_path / "r.jsonl", [good, bad])), "--event", "Rules"
        )
    event = Event.objects.get(name="Rules")
    assert event.boards.count() == 1


def test_suited_jacks_get_their_suit_symbol() -> None:
    assert cards("SJ HJ DJ CJ BJ RJ") == "♠J ♥J ♦J ♣J BJ RJ"
    assert cards("S3a H3b 334TJ") == "♠3a ♥3b 334TJ"
