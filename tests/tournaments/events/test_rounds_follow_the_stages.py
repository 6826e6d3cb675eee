"""Rounds are numbered in the order of the stages: stage 1's rounds, then stage 2's. The third
trial added a draft round to stage 2 before stage 1 had any: it became round 1, ahead of the
rounds of the stage before it, and nothing on the dashboard removed it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory
from tournaments.core.access import AdministrationRefused
from tournaments.events.rounds import round_create
from tournaments.events.stages import stage_create
from tournaments.models import EventRole, Role, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_stages():
    event = EventFactory()
    td = get_user_model().objects.create_user("stages-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    first = stage_create(event=event, actor=td)
    second = stage_create(event=event, actor=td)
    return event, td, first, second


def test_a_later_stage_takes_no_round_before_the_stages_before_it_have_theirs(two_stages) -> None:
    event, td, first, second = two_stages
    with pytest.raises(AdministrationRefused) as refused:
        round_create(event=event, actor=td, stage=second)
    assert str(refused.value) == (
        "Add the rounds of stage 1 first: rounds are numbered in the order of the stages."
    )
    assert not Round.objects.exists()
    round_create(event=event, actor=td, stage=first)
    assert round_create(event=event, actor=td, stage=second).number == 2


def test_an_earlier_stage_takes_no_round_after_a_later_one_has_its(two_stages) -> None:
    event, td, first, second = two_stages
    round_create(event=event, actor=td, stage=first)
    round_create(event=event, actor=td, stage=second)
    with pytest.raises(AdministrationRefused) as refused:
        round_create(event=event, actor=td, stage=first)
    assert str(refused.value) == (
        "Stage 2 has its rounds already: stage 1 takes no more (rounds are numbered in the "
        "order of the stages)."
    )
    assert Round.objects.count() == 2
