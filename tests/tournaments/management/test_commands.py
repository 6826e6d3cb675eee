"""Management commands: ddz_import_records and ddz_standings (thin callers of services)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Board, Game, Status
from tests.factories import bot_record, duplicate_round
from tests.paths import DATA_DIR
from tournaments.models import Event
from tournaments.standings.store import standings_recompute
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

DATA = DATA_DIR


def _lines(path: Path, n: int) -> list[str]:
    with path.open(encoding="utf-8") as fh:
        return [next(fh) for _ in range(n)]


def _import(path: Path, event: str = "Archive") -> tuple[int, dict, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("ddz_import_records", str(path), "--event", event, stdout=out, stderr=err)
        code = 0
    except CommandError as exc:
        code = exc.returncode
    return code, json.loads(out.getvalue()), err.getvalue()


def test_import_reports_bad_lines_and_stores_nothing_of_them(tmp_path) -> None:
    good = _lines(DATA / "rlcard_rule_agents.jsonl", 3)
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        good[0]
        + "this is not json\n"
        + good[1]
        + '{"id": "x", "plays": []}\n'
        + "[1, 2]\n"
        + "\n"
        + good[2],
        encoding="utf-8",
    )
    code, summary, err = _import(path)
    assert code == 2
    assert summary["stored"] == 3 and summary["lines"] == 6
    assert [r["line"] for r in summary["rejected"]] == [2, 4, 5]
    assert "line 2: not JSON" in err and "line 4: not a game record" in err
    assert Game.objects.count() == 3 and Board.objects.count() == 3


def test_import_is_idempotent_by_record_id(tmp_path) -> None:
    path = tmp_path / "three.jsonl"
    path.write_text("".join(_lines(DATA / "rlcard_rule_agents.jsonl", 3)), encoding="utf-8")
    assert _import(path)[0] == 0
    code, summary, _err = _import(path)
    assert code == 0 and summary["skipped"] == 3 and Game.objects.count() == 3


def test_the_same_deal_met_twice_is_the_same_board() -> None:
    code, summary, _err = _import(DATA / "botzone_ftl1.jsonl")
    assert code == 0 and summary["stored"] == 22
    boards = Board.objects.filter(event__name="Archive")
    assert boards.count() < 22
    shared = max(boards, key=lambda b: b.games.count())
    games = list(shared.games.order_by("table__number"))
    assert len(games) >= 2 and [g.table.number for g in games] == list(range(1, len(games) + 1))
    for game in games:
        game_verify(game_id=game.pk)
    assert Game.objects.filter(board=shared, status=Status.VERIFIED).count() >= 1


def test_import_of_a_missing_file_exits_2() -> None:
    with pytest.raises(CommandError) as info:
        call_command("ddz_import_records", "/nonexistent/x.jsonl", "--event", "E")
    assert info.value.returncode == 2


def test_standings_command_prints_json_and_csv() -> None:
    event, _round, tables, boards = duplicate_round(tables=3, seed="cmd")
    for table in tables:
        from tournaments.tables.submission import game_submit

        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    out = io.StringIO()
    call_command("ddz_standings", event.name, stdout=out)
    data = json.loads(out.getvalue())
    assert data["method"] == "matchpoints" and len(data["rows"]) == 9
    assert data["rows"][0]["rank"] in ("1", "1=")
    out = io.StringIO()
    call_command("ddz_standings", event.slug, "--format", "csv", stdout=out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert [r["player"] for r in rows] == [r["player"] for r in data["rows"]]
    with pytest.raises(CommandError):
        call_command("ddz_standings", "no such event")
    assert Event.objects.count() == 1
