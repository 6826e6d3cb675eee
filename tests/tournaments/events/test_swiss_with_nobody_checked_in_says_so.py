"""Swiss seating of a round with check-in, nobody checked in yet: the refusal said "the stage
has 0" players of a stage of 9 (the third trial's finding); it says who is missing: nobody is
checked in for the round."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, PlayerFactory
from tournaments.core.access import AdministrationRefused
from tournaments.events.rounds import round_create
from tournaments.events.stages import round_seat_swiss, stage_create
from tournaments.models import Entry, Event, EventRole, Role

pytestmark = pytest.mark.django_db


def test_the_refusal_names_the_check_in() -> None:
    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(check_in_required=True)
    event.refresh_from_db()
    td = get_user_model().objects.create_user("swiss-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for n in range(9):
        Entry.objects.create(event=event, player=PlayerFactory(name=f"P{n}"))
    stage = stage_create(event=event, actor=td)
    round_ = round_create(event=event, actor=td, stage=stage)
    with pytest.raises(AdministrationRefused) as refused:
        round_seat_swiss(round_=round_, actor=td)
    assert str(refused.value) == ("A table of 3 needs 3 players: 0 are checked in for round 1.")


def test_a_stage_without_players_is_named_not_the_check_in() -> None:
    """Players checked in for a round of a later stage whose field is empty (its cut not made):
    the stage has nobody, and the refusal says so rather than blaming the check-in (the second
    trial of the session)."""
    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(check_in_required=True)
    event.refresh_from_db()
    td = get_user_model().objects.create_user("swiss-td-2", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for n in range(3):
        Entry.objects.create(event=event, player=PlayerFactory(name=f"Q{n}"))
    first = stage_create(event=event, actor=td)
    round_create(event=event, actor=td, stage=first)
    second = stage_create(event=event, actor=td)
    later = round_create(event=event, actor=td, stage=second)
    with pytest.raises(AdministrationRefused) as refused:
        round_seat_swiss(round_=later, actor=td)
    assert str(refused.value) == "A table of 3 needs 3 players: the stage has 0."
