"""The demo's future event (tournaments.demo.life.demo_open_build): next month, at a venue, with
registration open (a limit of places, a deadline before the day, a waiting list, categories)
and registrations accepted up to the limit, one on the waiting list, the others received."""

from __future__ import annotations

from datetime import date

import pytest

from tournaments.demo import life as demo_life
from tournaments.models import EventStatus, Registration, RegistrationStatus
from tournaments.people import life

pytestmark = pytest.mark.django_db


def test_demo_open_is_next_month_with_registration_open() -> None:
    event = demo_life.demo_open_build(today=date(2026, 12, 2))
    assert event.status == EventStatus.REGISTRATION_OPEN
    assert life.event_date(event) == date(2027, 1, 14)
    assert event.venue_name == demo_life.VENUE and not event.online
    assert event.time_zone == demo_life.ZONE
    assert event.registration_limit == demo_life.OPEN_LIMIT
    assert event.registration_deadline is not None
    assert event.registration_deadline < event.starts_at
    assert event.categories == ["women", "youth", "senior"]
    statuses = dict(Registration.objects.filter(event=event).values_list("name", "status"))
    assert [n for n, s in statuses.items() if s == RegistrationStatus.ACCEPTED] == [
        n for n, _c, d in demo_life.OPEN_ENTRANTS if d == "accept"
    ]
    assert list(statuses.values()).count(RegistrationStatus.WAITLISTED) == 1
    assert list(statuses.values()).count(RegistrationStatus.PENDING) == 2
    # The accepted are the event's players, with their categories.
    assert event.entries.count() == demo_life.OPEN_LIMIT
    assert event.entries.get(player__name="Mei").categories == ["women", "senior"]
    # Seated on the day with those checked in: check-in on, the rounds drafts.
    assert event.check_in_required
    assert list(event.rounds.values_list("state", flat=True)) == ["draft"] * demo_life.OPEN_ROUNDS
