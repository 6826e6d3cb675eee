"""The sweep sends one verification message for each chunk of lost games.

A verification task takes the oldest pending games, up to VERIFY_BATCH, whichever game its
message names (tournaments.tables.verification.games_verify), so one message verifies a whole
chunk of the games a broker outage left pending: the sweep sends one message a chunk, naming
the oldest game of each, not one a game (500 messages a sweep cost the queue's workers a query
each). Games younger than `older_than` may still have their message in the queue and are not
counted; standings, the rating and the games already sent are the sweep's other business.
"""

from __future__ import annotations

from datetime import timedelta
from unittest.mock import patch

import pytest
from django.utils import timezone

from ddz_site.kernel.dispatch import VERIFY_GAME
from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.tables import verification
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


def _games(count: int, *, seed: str) -> list[Game]:
    _event, _round, tables, boards = duplicate_round(tables=count, boards=1, seed=seed)
    return [game_submit(table=t, board=boards[0], record=bot_record(boards[0], t)) for t in tables]


def _sent(calls: list) -> list[int]:
    return [c.args[1] for c in calls if c.args[0] == VERIFY_GAME]


def test_lost_games_are_sent_one_message_a_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verification, "VERIFY_BATCH", 4)
    games = _games(10, seed="sweep-chunks")
    now = timezone.now()
    # Ten games lost a minute ago, submitted one second apart (the oldest first).
    for age, game in zip(range(70, 60, -1), games, strict=True):
        Game.objects.filter(pk=game.pk).update(submitted_at=now - timedelta(seconds=age))
    with patch("tournaments.tables.verification.enqueue", return_value=True) as sent:
        assert verification.verification_sweep(older_than=30) == 10
    # Chunks of 4, 4 and 2: a message for each, naming its oldest game.
    assert _sent(sent.call_args_list) == [games[0].pk, games[4].pk, games[8].pk]


def test_games_younger_than_the_sweeps_age_are_not_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verification, "VERIFY_BATCH", 4)
    games = _games(3, seed="sweep-young")
    Game.objects.filter(pk=games[0].pk).update(submitted_at=timezone.now() - timedelta(minutes=1))
    with patch("tournaments.tables.verification.enqueue", return_value=True) as sent:
        assert verification.verification_sweep(older_than=30) == 1
    assert _sent(sent.call_args_list) == [games[0].pk]


def test_a_broker_still_down_stops_the_sweep_at_its_first_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(verification, "VERIFY_BATCH", 2)
    games = _games(6, seed="sweep-down")
    Game.objects.filter(pk__in=[g.pk for g in games]).update(
        submitted_at=timezone.now() - timedelta(minutes=1)
    )
    with patch("tournaments.tables.verification.enqueue", return_value=False) as sent:
        verification.verification_sweep(older_than=30)
    # The first message failed: nothing more is tried, the standings included.
    assert len(sent.call_args_list) == 1
