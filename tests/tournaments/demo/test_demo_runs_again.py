"""`make demo` run a second time on its own database starts afresh: the demo's events of the
run before are deleted, their stages and rounds with them (a round protects its stage, so a
plain delete of the event was refused: a second `make demo` stopped with a traceback)."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory
from tournaments.demo import life as demo_life
from tournaments.management.commands.ddz_demo import ARCHIVE_EVENT, DEMO_EVENT, demo_events_clear
from tournaments.models import Event, Round, Stage

pytestmark = pytest.mark.django_db


def test_the_demo_events_of_a_run_before_are_deleted_with_their_stages_and_rounds() -> None:
    for name in (DEMO_EVENT, ARCHIVE_EVENT, demo_life.OPEN_EVENT):
        event = EventFactory(name=name)
        stage = Stage.objects.create(event=event, number=1)
        Round.objects.create(event=event, number=1, stage=stage)
    kept = EventFactory(name="An organizer's own event")
    Round.objects.create(event=kept, number=1, stage=Stage.objects.create(event=kept, number=1))
    demo_events_clear()
    assert list(Event.objects.values_list("name", flat=True)) == [kept.name]
    assert Round.objects.get().event == kept
