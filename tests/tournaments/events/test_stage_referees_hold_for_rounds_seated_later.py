"""A stage's referee assignment (tournaments.events.officials.stage_referees_assign) holds for
its rounds seated later: a trial's referee had table 1 of the stage, and lost it from the
Swiss round 2 on until the organizer saved the form again."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, PlayerFactory
from tournaments.events.officials import stage_referees_assign
from tournaments.events.rounds import round_create
from tournaments.events.stages import round_seat_swiss, stage_create
from tournaments.models import Entry, EventRole, Role, TableAssignment

pytestmark = pytest.mark.django_db


def test_the_referee_of_table_1_keeps_it_in_the_next_swiss_round() -> None:
    event = EventFactory()
    users = get_user_model().objects
    td = users.create_user("carry-td", password="x")
    referee = users.create_user("carry-ref", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    for n in range(9):
        Entry.objects.create(event=event, player=PlayerFactory(name=f"C{n}"))
    stage = stage_create(event=event, actor=td)
    first = round_create(event=event, actor=td, stage=stage)
    round_seat_swiss(round_=first, actor=td)
    assert stage_referees_assign(stage=stage, actor=td, referees={1: referee.pk}) == 1
    second = round_create(event=event, actor=td, stage=stage)
    round_seat_swiss(round_=second, actor=td)
    held = TableAssignment.objects.filter(user=referee).values_list(
        "table__round__number", "table__number"
    )
    assert sorted(held) == [(1, 1), (2, 1)]
