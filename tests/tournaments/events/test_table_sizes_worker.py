"""Two-, four- and five-player events end to end: boards with the engine's deals, tables of
2, 4 and 5 seats, games submitted through the one write path and verified by a real Celery
worker (R-2P, R-4P, R-5P)."""

from __future__ import annotations

import random

import pytest

from games.engine import RuleSet, deal_random
from games.models import Game, Status
from tests.conftest import Worker, wait_for
from tests.factories import EventFactory, PlayerFactory, bot_record
from tournaments.events.boards import board_create
from tournaments.events.setup import EventRejected, round_seat
from tournaments.tables.submission import game_submit

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("preset", ["two_player", "four_player", "five_player"])
def test_a_game_of_another_table_size_is_verified_by_the_worker(
    celery_worker: Worker, preset: str
) -> None:
    rules = RuleSet.from_spec(preset)
    event = EventFactory(rules=preset)
    n = len(rules.seats)
    players = [PlayerFactory() for _ in range(2 * n)]
    round_ = round_seat(event=event, number=1, tables=[players[:n], players[n:]])
    deal = deal_random(rules, random.Random(preset), "S")
    board = board_create(
        event=event,
        round=round_,
        hands=deal.hands,
        bottom=deal.bottom,
        first_bidder=deal.first_bidder,
        aside=deal.aside or "",
        marked=deal.marked or "",
    )
    games = []
    for table in round_.tables.order_by("number"):
        seats = set(table.seats.values_list("seat", flat=True))
        assert seats == set(rules.seats)
        record = bot_record(board, table, seed=preset)
        games.append(game_submit(table=table, board=board, record=record))
    wait_for(
        lambda: (
            not Game.objects.filter(pk__in=[g.pk for g in games], status=Status.PENDING).exists()
        ),
        what="the worker to verify the games",
    )
    for game in Game.objects.filter(pk__in=[g.pk for g in games]):
        assert game.status == Status.VERIFIED, game.error
        assert set(game.score) == set(rules.seats)
        assert sum(game.score.values()) == 0
        assert game.score == game.declared


def test_a_table_of_the_wrong_size_is_refused() -> None:
    event = EventFactory(rules="four_player")
    with pytest.raises(EventRejected):
        round_seat(event=event, number=1, tables=[[PlayerFactory() for _ in range(3)]])
