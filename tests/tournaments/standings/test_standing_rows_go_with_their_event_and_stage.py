"""Standing rows carry no foreign-key constraint in the database (their store's commit
checked three keys a row): they still go with their event, stage or player, by Django's
cascade."""

from __future__ import annotations

import pytest

from tests.factories import bot_record, duplicate_round
from tournaments.models import Stage, Standing
from tournaments.standings.requests import standings_refresh
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def ranked():
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="cascade")
    for table in tables:
        game_verify(
            game_id=game_submit(
                table=table, board=boards[0], record=bot_record(boards[0], table)
            ).pk
        )
    standings_refresh(event_id=event.pk)
    return event, tables


def test_deleting_an_event_deletes_its_standing_rows(ranked) -> None:
    event, _tables = ranked
    assert Standing.objects.filter(event_id=event.pk).count() == 6  # 2 tables of 3
    event.delete()
    assert not Standing.objects.filter(event_id=event.pk).exists()


def test_deleting_a_stage_deletes_its_rows_only(ranked) -> None:
    event, _tables = ranked
    stage = Stage.objects.create(event=event, number=1, name="Final")
    Standing.objects.filter(event=event, stage__isnull=True).update(stage=stage)
    kept = Standing.objects.create(
        event=event,
        stage=None,
        player=_tables[0].seats.first().player,
        method="matchpoints",
        position=1,
        rank="1",
        total="0",
        boards=0,
    )
    stage.delete()
    assert list(Standing.objects.filter(event=event)) == [kept]
