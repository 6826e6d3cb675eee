"""Exports (tournaments.results.exports): standings and scorecards as CSV, the whole event as a JSON
archive, and the import that restores it exactly (or refuses it and stores nothing)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.models import Game
from tests.factories import EventFactory, bot_record, duplicate_round
from tournaments.archive.event_archive import ArchiveRejected, event_export, event_import
from tournaments.models import Event, Stage
from tournaments.standings.cache import stored_rows
from tournaments.standings.penalties import penalty_add
from tournaments.standings.results import computed_rows
from tournaments.standings.rulings import adjustment_set
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def event():
    """Two rounds in two stages at two tables; a corrected game, an adjustment, a penalty."""
    # The tie-breaks and the lot are set before play: they are frozen once a round starts.
    event = EventFactory(tiebreaks=["best_board", "lot"], lot_seed="seed-1")
    event, round1, tables, boards = duplicate_round(tables=2, boards=2, seed="export", event=event)
    _e, round2, tables2, boards2 = duplicate_round(tables=2, boards=1, seed="export2", event=event)
    stage1 = Stage.objects.create(event=event, number=1, name="Q")
    stage2 = Stage.objects.create(event=event, number=2, carry_over=True)
    round1.stage, round2.stage = stage1, stage2
    round1.save(), round2.save()
    for board, table in [(b, t) for b in boards for t in tables] + [(boards2[0], tables2[0])]:
        game_verify(
            game_id=game_submit(table=table, board=board, record=bot_record(board, table)).pk
        )
    fixed = game_submit(
        table=tables[1],
        board=boards[1],
        record=bot_record(boards[1], tables[1], seed="again"),
        replaces=1,
    )
    game_verify(game_id=fixed.pk)
    adjustment_set(table=tables2[1], board=boards2[0], seat="S", kind="avg+", reason="late")
    adjustment_set(table=tables2[1], board=boards2[0], seat="E", kind="avg")
    adjustment_set(table=tables2[1], board=boards2[0], seat="W", kind="avg-")
    player = tables[0].seats.get(seat="E").player
    penalty_add(event=event, player=player, points="1.5", reason="slow play", stage=stage1)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def _delete(event) -> None:
    # Rounds first: a stage is protected while rounds of it exist.
    event.rounds.all().delete()
    event.delete()


def test_standings_csv_has_the_stored_exact_values(client, event) -> None:
    response = client.get(reverse("public:standings_csv", kwargs={"slug": event.slug}))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    stored = list(event.standings.filter(stage__isnull=True).order_by("position"))
    assert [(r["rank"], r["player"], r["total"], r["penalty"]) for r in rows] == [
        (s.rank, s.player.name, s.total, s.penalty) for s in stored
    ]
    assert any(r["penalty"] == "3/2" for r in rows)
    staged = client.get(
        reverse("public:standings_csv", kwargs={"slug": event.slug}) + "?stage=1"
    ).content.decode()
    assert len(staged.splitlines()) == 1 + 6


def test_scorecard_csv_lists_each_board(client, event) -> None:
    seat = event.rounds.get(number=2).tables.get(number=2).seats.get(seat="S")
    url = reverse("public:scorecard_csv", kwargs={"slug": event.slug, "player_id": seat.player_id})
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert [(r["round"], r["board"], r["seat"], r["adjusted"]) for r in rows] == [
        ("2", "3", "S", "avg+")
    ]
    # Two tables, avg+ is 60 % of the top 2(2-1) = 2.
    assert (rows[0]["points"], rows[0]["top"]) == ("6/5", "2")


def test_archive_restores_the_event_exactly(event) -> None:
    archive = event_export(event=event)
    assert archive["format"] == "ddz-event-archive"
    assert (
        len(archive["games"]) == 6
        and sum(g["replaced_at"] is not None for g in archive["games"]) == 1
    )
    assert len(archive["adjustments"]) == 3 and len(archive["penalties"]) == 1
    text = json.dumps(archive, sort_keys=True)
    _delete(event)
    restored = event_import(data=json.loads(text))
    again = event_export(event=restored)
    assert json.dumps(again, sort_keys=True) == text
    # What is restored also recomputes to the stored standings.
    assert stored_rows(event=restored) == computed_rows(event=restored)
    assert standings_recompute(event_id=restored.pk) is False


def test_a_bad_archive_is_refused_and_stores_nothing(event) -> None:
    archive = event_export(event=event)
    with pytest.raises(ArchiveRejected, match="already exists"):
        event_import(data=archive)
    counts = (Event.objects.count(), Game.objects.count())
    archive["event"]["name"], archive["event"]["slug"] = "Copy", "copy"
    archive["games"][-1]["table"] = 99
    with pytest.raises(ArchiveRejected, match="damaged"):
        event_import(data=archive)
    archive["games"][-1]["table"] = 1
    archive["games"][-1]["no_such_field"] = 1
    with pytest.raises(ArchiveRejected, match="no_such_field"):
        event_import(data=archive)
    for bad in ({"format": "other"}, [], {"format": "ddz-event-archive", "version": 9}):
        with pytest.raises(ArchiveRejected):
            event_import(data=bad)
    assert (Event.objects.count(), Game.objects.count()) == counts


def test_commands_round_trip(event, tmp_path) -> None:
    path = tmp_path / "event.json"
    call_command("ddz_export_event", event.slug, "--output", str(path))
    name = event.name
    _delete(event)
    out = io.StringIO()
    call_command("ddz_import_event", str(path), stdout=out)
    assert json.loads(out.getvalue()) == {
        "event": name,
        "slug": event.slug,
        "boards": 3,
        "games": 6,
    }
    with pytest.raises(CommandError) as info:
        call_command("ddz_import_event", str(path))
    assert info.value.returncode == 2
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError):
        call_command("ddz_import_event", str(tmp_path / "bad.json"))
    out = io.StringIO()
    call_command("ddz_standings", event.slug, "--stage", "2", "--format", "csv", stdout=out)
    assert len(out.getvalue().splitlines()) == 1 + 6


def test_archive_download_is_for_officials(client, admin_client, event) -> None:
    url = reverse("public:archive", kwargs={"slug": event.slug})
    assert client.get(url).status_code == 404
    response = admin_client.get(url)
    assert (
        response.status_code == 200 and json.loads(response.content)["event"]["name"] == event.name
    )
