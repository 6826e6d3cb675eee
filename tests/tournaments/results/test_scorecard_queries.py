"""A player's scorecard reads a fixed number of queries, whatever the number of boards he met
(on the 600-player event of `scripts/bench_standings.py`, a query for each of the 72 boards'
event, to link the board to its traveller, would make 88 queries a view)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import bot_record, duplicate_round
from tournaments.models import Seat
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _scorecard_queries(boards: int) -> int:
    event, _round, tables, made = duplicate_round(tables=3, boards=boards, seed=f"card{boards}")
    for board in made:
        for table in tables:
            game_verify(
                game_id=game_submit(table=table, board=board, record=bot_record(board, table)).pk
            )
    player = Seat.objects.filter(table=tables[0], seat="S").get().player_id
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/events/{event.slug}/players/{player}/")
    assert page.status_code == 200
    assert page.content.decode().count(f"/events/{event.slug}/boards/") >= boards
    return len(queries)


def test_the_scorecard_costs_the_same_queries_for_one_board_or_five() -> None:
    assert _scorecard_queries(5) == _scorecard_queries(1)
