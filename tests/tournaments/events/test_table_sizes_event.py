"""A whole duplicate event at tables of two, four and five players (R-2P, R-4P, R-5P), through
the organizer's services: players entered, a stage seated by the movement, boards dealt from
the committed seed, every table's game bid and played by the bot through the one write path,
verified by the engine, and standings that compare each seat held with the same seat at the
other tables."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from games.engine import RuleSet
from games.models import Game, Status
from tests.factories import EventFactory, PlayerFactory, bot_record
from tournaments.events import round_states, rounds, stages
from tournaments.models import Entry, EventRole, Role, Standing
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("preset", ["two_player", "four_player", "five_player"])
def test_a_duplicate_event_of_another_table_size(preset: str) -> None:
    rules = RuleSet.from_spec(preset)
    k = len(rules.seats)
    event = EventFactory(rules=preset, name=f"{preset} cup", slug=f"{preset}-cup")
    td = get_user_model().objects.create_user(f"td-{preset}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    players = [PlayerFactory() for _ in range(3 * k)]
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    stage = stages.stage_create(event=event, actor=td, name="Qualifying")
    first = rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)
    tables = list(first.tables.order_by("number").prefetch_related("seats"))
    assert len(tables) == 3
    for table in tables:
        assert sorted(s.seat for s in table.seats.all()) == sorted(rules.seats)
    rounds.event_seed_commit(event=event, actor=td)
    boards = rounds.round_deal(round_=first, boards=2, actor=td)
    for board in boards:
        assert set(board.hands) == set(rules.seats)
        if preset == "five_player":
            assert board.marked
        if preset == "two_player":
            assert board.aside
    round_states.round_start(round_=first, actor=td)
    for board in boards:
        for table in tables:
            record = bot_record(board, table, seed=preset)
            game = game_submit(table=table, board=board, record=record)
            game_verify(game_id=game.pk)
    statuses = set(Game.objects.filter(board__event=event).values_list("status", flat=True))
    assert statuses == {Status.VERIFIED}
    standings_recompute(event_id=event.pk)
    rows = Standing.objects.filter(event=event, stage__isnull=True)
    assert rows.count() == 3 * k
    # Matchpoints by seat held (DESIGN.md): for one board and one seat direction, each pair of
    # the n = 3 tables shares 2 points, so n(n-1) = 6 points per board and direction.
    total = sum(Fraction(r.total) for r in rows)
    assert total == len(boards) * k * 6


@pytest.mark.parametrize("preset", ["two_player", "four_player", "five_player"])
def test_the_entry_pages_show_every_seat_of_the_table(client, preset: str) -> None:
    import random

    from games.engine import deal_random
    from tournaments.events.boards import board_create
    from tournaments.events.setup import round_seat

    rules = RuleSet.from_spec(preset)
    event = EventFactory(rules=preset)
    td = get_user_model().objects.create_user(f"org-{preset}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    round_ = round_seat(event=event, number=1, tables=[[PlayerFactory() for _ in rules.seats]])
    deal = deal_random(rules, random.Random(1))
    board = board_create(
        event=event,
        round=round_,
        hands=deal.hands,
        bottom=deal.bottom,
        first_bidder=deal.first_bidder,
        aside=deal.aside or "",
        marked=deal.marked or "",
    )
    table = round_.tables.get()
    client.force_login(td)
    for name in ("referee:live", "referee:quick"):
        from django.urls import reverse

        url = reverse(
            name, kwargs={"slug": event.slug, "table_id": table.pk, "number": board.number}
        )
        page = client.get(url)
        assert page.status_code == 200, (name, page.status_code)
        html = page.content.decode()
        if name == "referee:live":  # the page's initial state lists the table's seats
            assert json.dumps(list(rules.seats)) in html
        else:  # the quick result offers each seat as the landlord
            assert sorted(set(re.findall(r'value="([A-Z]\d?)"', html)) & set(rules.seats)) == (
                sorted(rules.seats)
            )
