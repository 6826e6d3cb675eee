"""The demo event (manage.py ddz_demo) is built as an organizer builds a real one: its
players entered, one stage, rounds published and one in play, every board dealt from the
committed seed (never printed), and the demo referee's table all that is left to enter before
the round closes and the deals verify.
"""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import wait_for
from tests.factories import bot_record
from tournaments.events import round_states, rounds
from tournaments.models import RoundState
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_demo_is_built_like_a_real_event(client, celery_worker) -> None:
    from tournaments.management.commands.ddz_demo import DEMO_EVENT, PLAYERS
    from tournaments.models import Event

    out = io.StringIO()
    call_command("ddz_demo", "--records", "", "--timeout", "120", stdout=out)
    event = Event.objects.get(name=DEMO_EVENT)
    assert sorted(e.player.name for e in event.entries.select_related("player")) == sorted(PLAYERS)
    assert event.stages.count() == 1
    # Four rounds of three boards published, a fifth in play; every board dealt from the
    # commitment.
    assert list(event.rounds.order_by("number").values_list("number", "state")) == [
        (n, RoundState.PUBLISHED) for n in (1, 2, 3, 4)
    ] + [(5, RoundState.IN_PLAY)]
    assert list(event.boards.order_by("number").values_list("number", flat=True)) == list(
        range(1, 16)
    )
    assert event.deal_commitment and not event.seed_revealed
    assert event.deal_seed not in out.getvalue()
    td = get_user_model().objects.get(username="demo-organizer")
    client.force_login(td)
    dash = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert "9 players" in dash and "draw it before dealing" not in dash
    # The walkthrough: table 1 of round 5 (the demo referee's) is all that is missing.
    open_round = event.rounds.get(number=5)
    assert round_states.round_unsettled(round_=open_round) == [
        (1, 13, "missing"),
        (1, 14, "missing"),
        (1, 15, "missing"),
    ]
    referee = get_user_model().objects.get(username="demo-referee")
    table = open_round.tables.get(number=1)
    assert table.assignments.filter(user=referee).exists()
    for board in event.boards.filter(round=open_round):
        game_submit(table=table, board=board, record=bot_record(board, table), actor=referee)
    # The round closes once the worker has verified them (every game settled).
    wait_for(
        lambda: not round_states.round_unsettled(round_=open_round),
        what="the worker's verifications",
    )
    round_states.round_close(round_=open_round, actor=td)
    round_states.round_publish(round_=open_round, actor=td)
    seed = rounds.event_seed_reveal(event=event, actor=td)
    page = client.get(reverse("deals:event", args=[event.slug])).content.decode()
    assert "all 15 boards were recomputed identically" in page
    assert rounds.event_deals_verify(event=event, seed=seed).match
