"""An event cannot be finished before its start (tournaments.people.life.finish_refusal): a
trial finished an announced event dated next month, and its (empty) results went to the
ratings. Its organizer is told to correct the date if it was played early."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.factories import EventFactory
from tournaments.models import AuditEntry, EventStatus
from tournaments.people import life
from tournaments.people.life import LifeRefused

pytestmark = pytest.mark.django_db


def test_an_event_dated_later_is_not_finished_and_says_its_date() -> None:
    td = get_user_model().objects.create_superuser("early-td", password="x")
    event = EventFactory(
        status=EventStatus.ANNOUNCED,
        starts_at=timezone.now() + timedelta(days=30),
        time_zone="UTC",
    )
    refusal = life.finish_refusal(event)
    assert refusal is not None and "correct its date" in refusal
    with pytest.raises(LifeRefused):
        life.event_finish(event=event, actor=td)
    event.refresh_from_db()
    assert event.status == EventStatus.ANNOUNCED
    assert not AuditEntry.objects.filter(action="event.finish").exists()


def test_an_event_whose_start_has_come_is_finished() -> None:
    td = get_user_model().objects.create_superuser("on-time-td", password="x")
    event = EventFactory(
        status=EventStatus.IN_PLAY, starts_at=timezone.now() - timedelta(hours=1), time_zone="UTC"
    )
    assert life.finish_refusal(event) is None
    life.event_finish(event=event, actor=td)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
