"""Fixtures of the standings' tests."""

from __future__ import annotations

import pytest

from tests.factories import bot_record, duplicate_round
from tournaments.standings import cache
from tournaments.standings.requests import standings_refresh
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify


@pytest.fixture
def played():
    """4 tables, 3 boards, every game verified through the services, standings stored."""
    event, round_, tables, boards = duplicate_round(tables=4, boards=3, seed="log")
    for board in boards:
        for table in tables:
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)
    cache.kept_forget()
    standings_refresh(event_id=event.pk)
    return event, round_, tables, boards
