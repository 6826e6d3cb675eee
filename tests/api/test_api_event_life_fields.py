"""The API's event (GET /api/events/SLUG/, public, read only) shows the event's life: its status,
start and end (instants with their offset) and time zone (the site's when the event names
none), online or its venue, and its registration: open only while the status is "registration
open" and the deadline has not passed, the limit, the deadline and the places taken (accepted
registrations; received, waiting and declined ones take none). Writing to it is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.test import APIClient

from tests.factories import EventFactory
from tournaments.models import Event, EventStatus, Registration, RegistrationStatus

pytestmark = pytest.mark.django_db

STARTS = datetime(2027, 3, 6, 1, 0, tzinfo=UTC)
ENDS = datetime(2027, 3, 7, 10, 30, tzinfo=UTC)


def _event(**life: object) -> Event:
    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(**life)
    event.refresh_from_db()
    return event


def _get(event: Event) -> dict:
    response = APIClient().get(f"/api/events/{event.slug}/")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def _register(event: Event, status: str, count: int) -> None:
    for n in range(count):
        Registration.objects.create(event=event, name=f"{status} {n}", status=status)


def test_an_event_with_registration_open_shows_its_life() -> None:
    deadline = timezone.now() + timedelta(days=3)
    event = _event(
        status=EventStatus.REGISTRATION_OPEN,
        starts_at=STARTS,
        ends_at=ENDS,
        time_zone="Asia/Shanghai",
        venue_name="Harbour Club",
        venue_address="1 Quay Road\nQingdao",
        registration_limit=4,
        registration_deadline=deadline,
        categories=["women", "Over 70"],
    )
    _register(event, RegistrationStatus.ACCEPTED, 3)
    for status in ("pending", "waitlisted", "declined", "withdrawn"):
        _register(event, status, 1)
    data = _get(event)
    assert (data["name"], data["slug"], data["status"]) == (
        event.name,
        event.slug,
        "registration_open",
    )
    assert parse_datetime(data["starts_at"]) == STARTS
    assert parse_datetime(data["ends_at"]) == ENDS
    assert data["time_zone"] == "Asia/Shanghai"
    assert data["online"] is False
    assert data["venue"] == {"name": "Harbour Club", "address": "1 Quay Road\nQingdao"}
    registration = data["registration"]
    assert registration["open"] is True
    assert registration["limit"] == 4 and registration["places_taken"] == 3
    assert parse_datetime(registration["deadline"]) == deadline
    assert registration["waiting_list"] is True
    assert registration["categories"] == ["women", "Over 70"]


def test_a_past_deadline_closes_registration() -> None:
    event = _event(
        status=EventStatus.REGISTRATION_OPEN,
        registration_deadline=timezone.now() - timedelta(minutes=1),
    )
    assert _get(event)["registration"]["open"] is False


@pytest.mark.parametrize(
    "status", [EventStatus.ANNOUNCED, EventStatus.IN_PLAY, EventStatus.FINISHED]
)
def test_registration_is_open_in_no_other_status(status: str) -> None:
    event = _event(status=status, registration_deadline=timezone.now() + timedelta(days=1))
    data = _get(event)
    assert data["status"] == status and data["registration"]["open"] is False


def test_an_online_event_without_dates_or_limit() -> None:
    event = _event(status=EventStatus.ANNOUNCED, online=True, waiting_list=False)
    data = _get(event)
    assert data["online"] is True
    assert data["venue"] == {"name": "", "address": ""}
    assert data["starts_at"] is None and data["ends_at"] is None
    # No zone of its own: the site's, in which its pages show it.
    assert data["time_zone"] == settings.TIME_ZONE
    assert data["registration"] == {
        "open": False,
        "limit": None,
        "deadline": None,
        "places_taken": 0,
        "waiting_list": False,
        "categories": [],
    }


def test_the_event_is_read_only_and_a_missing_one_is_not_found() -> None:
    event = _event(status=EventStatus.ANNOUNCED)
    client = APIClient()
    answer = client.patch(f"/api/events/{event.slug}/", {"status": "finished"}, format="json")
    assert answer.status_code in (401, 405)
    event.refresh_from_db()
    assert event.status == EventStatus.ANNOUNCED
    assert client.get("/api/events/no-such-event/").status_code == 404
