"""The organizer's settings of online tables (Event.online_tables, Event.seat_wait_seconds): set on
the "Date, place and status" form and in the admin with the service's words when refused (tables
only with robots, a wait of 1 to 3600 seconds, fixed once a round started), audited; the
database refuses them too (check constraints)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import EventFactory, online_event
from tests.tournaments.admin.test_admin_trust import _form_data  # the admin page's POST data
from tournaments.core.access import AdministrationRefused
from tournaments.models import AuditEntry, Event, EventRole, Role
from tournaments.online.window import (
    MAX_SEAT_WAIT_SECONDS,
    MIN_SEAT_WAIT_SECONDS,
    online_play_set,
)

pytestmark = pytest.mark.django_db

WITHOUT_ROBOTS = "only in an event played on this site against robots"
WAIT_RANGE = f"is {MIN_SEAT_WAIT_SECONDS} to {MAX_SEAT_WAIT_SECONDS} seconds"  # the service's words


def _organized() -> tuple[Event, Any]:
    td = get_user_model().objects.create_user("tables-td", password="x")
    # An event against robots needs its window (its start and end).
    now = timezone.now()
    event = EventFactory(
        online=True, starts_at=now + timedelta(days=1), ends_at=now + timedelta(days=2)
    )
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return event, td


def test_the_service_sets_tables_with_robots_only_and_audits_it() -> None:
    event, td = _organized()
    args = {"event": event, "actor": td, "strength": "basic", "move_seconds": 30}
    with pytest.raises(AdministrationRefused, match=WITHOUT_ROBOTS):
        online_play_set(robots=False, tables=True, **args)
    with pytest.raises(AdministrationRefused, match=WAIT_RANGE):
        online_play_set(robots=True, tables=True, seat_wait_seconds=0, **args)
    online_play_set(robots=True, tables=True, seat_wait_seconds=45, **args)
    event.refresh_from_db()
    assert (event.online_tables, event.seat_wait_seconds) == (True, 45)
    entry = AuditEntry.objects.get(event=event, action="online.settings")
    assert entry.changes["online_tables"] == [False, True]
    assert entry.changes["seat_wait_seconds"] == [60, 45]
    # Robots turned off turn the tables off.
    online_play_set(robots=False, **args)
    event.refresh_from_db()
    assert (event.online_robots, event.online_tables) == (False, False)


def test_the_settings_are_fixed_once_a_round_started() -> None:
    event, td, _users = online_event(entrants=1, boards=1, tables=True)
    with pytest.raises(AdministrationRefused, match="fixed once a round"):
        online_play_set(
            event=event,
            actor=td,
            robots=True,
            strength=event.robot_strength,
            move_seconds=event.move_seconds,
            tables=True,
            seat_wait_seconds=event.seat_wait_seconds + 1,
        )


def test_the_database_refuses_tables_without_robots_and_a_wait_of_zero() -> None:
    for fields in ({"online_tables": True, "online_robots": False}, {"seat_wait_seconds": 0}):
        with pytest.raises(IntegrityError), transaction.atomic():
            EventFactory(online=True, **fields)


def _life_form(**change: str) -> dict[str, str]:
    return {
        "starts_at": "2026-09-05T10:00",
        "ends_at": "2026-09-05T17:00",
        "online": "on",
        "online_robots": "on",
        "robot_strength": "basic",
        "move_seconds": "30",
    } | change


def test_the_date_place_and_status_form_sets_them_or_says_why_not() -> None:
    event, td = _organized()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    url = reverse("prizes:event_life", args=[event.slug])
    page = client.get(url).content.decode()
    assert 'name="online_tables"' in page and 'name="seat_wait_seconds"' in page
    refused = client.post(url, _life_form(online_robots="", online_tables="on"))
    assert refused.status_code == 400
    assert WITHOUT_ROBOTS in refused.content.decode()
    refused = client.post(url, _life_form(online_tables="on", seat_wait_seconds="0"))
    assert refused.status_code == 400
    event.refresh_from_db()
    assert not event.online_tables
    saved = client.post(url, _life_form(online_tables="on", seat_wait_seconds="45"))
    assert saved.status_code == 302
    event.refresh_from_db()
    assert (event.online_robots, event.online_tables, event.seat_wait_seconds) == (True, True, 45)


def test_the_admin_form_says_why_in_the_services_words(admin_client) -> None:
    event, _td = _organized()
    url = reverse("admin:tournaments_event_change", args=[event.pk])
    data = _form_data(admin_client.get(url))
    data["online_tables"] = "on"  # without robots
    data["seat_wait_seconds"] = "0"
    response = admin_client.post(url, data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert WITHOUT_ROBOTS in str(errors["online_tables"])
    assert WAIT_RANGE in str(errors["seat_wait_seconds"])
    data["online_robots"] = "on"
    data["seat_wait_seconds"] = "90"
    assert admin_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert (event.online_tables, event.seat_wait_seconds) == (True, 90)
