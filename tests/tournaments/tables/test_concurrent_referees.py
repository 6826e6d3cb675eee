"""Invariants that hold across processes: concurrent referees on real PostgreSQL."""

from __future__ import annotations

import pytest

from ddz_site.kernel.errors import DomainError
from games.models import Game
from tests.conftest import race
from tests.factories import bot_record, duplicate_round
from tournaments.models import Standing
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_two_referees_submitting_one_game_store_it_once() -> None:
    _event, _round, tables, boards = duplicate_round(tables=1, seed="race")
    record = bot_record(boards[0], tables[0])
    outcomes = race(4, lambda: game_submit(table=tables[0], board=boards[0], record=record))
    stored = [o for o in outcomes if isinstance(o, Game)]
    refused = [o for o in outcomes if isinstance(o, DomainError)]
    assert len(stored) == 1 and len(refused) == 3
    assert Game.objects.count() == 1


def test_concurrent_verifications_and_recomputes_write_once() -> None:
    event, _round, tables, boards = duplicate_round(tables=3, seed="race2")
    # Rows made directly, so that no task is enqueued for them: these threads play the part
    # of several workers handling one game at once.
    games = [
        Game.objects.create(table=t, board=boards[0], record=bot_record(boards[0], t))
        for t in tables
    ]
    outcomes = race(3, lambda: game_verify(game_id=games[0].pk))
    assert sorted(outcomes) == [False, False, True]
    for game in games[1:]:
        game_verify(game_id=game.pk)
    # A running worker may recompute too (game_verify enqueued it): at most one writes.
    outcomes = race(3, lambda: standings_recompute(event_id=event.pk))
    assert sum(bool(o) for o in outcomes) <= 1
    standings_recompute(event_id=event.pk)
    assert Standing.objects.filter(event=event).count() == 9
