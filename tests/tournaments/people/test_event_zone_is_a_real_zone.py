"""An event's time zone is a place's zone of the IANA database: the date form offers and takes
only those, never the database's technical entries ("localtime", the machine's own; "Factory",
a zone of no place; "posixrules"; the "posix/" and "right/" copies), which the zone database
knows all the same. An event that holds one already (stored before) keeps it: its form saves
with the zone unchanged."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import EventFactory
from tournaments.core import zones
from tournaments.models import Event, EventRole, EventStatus, Role
from tournaments.people import life

pytestmark = pytest.mark.django_db

NOT_PLACES = ["localtime", "Factory", "posixrules", "posix/Asia/Shanghai", "right/UTC"]


@pytest.mark.parametrize("name", NOT_PLACES)
def test_the_service_refuses_a_zone_of_no_place(name: str) -> None:
    with translation.override("en"), pytest.raises(life.LifeRefused, match="not the time zone"):
        life.zone_parse(name)


@pytest.mark.parametrize("name", ["Asia/Shanghai", "Europe/Paris", "UTC", "Etc/GMT-8", ""])
def test_the_service_takes_a_places_zone(name: str) -> None:
    assert life.zone_parse(f" {name} ") == name


def test_the_real_zones_are_the_places_zones() -> None:
    real = zones.real_zones()
    assert {"Asia/Shanghai", "Europe/Paris", "America/New_York", "UTC"} <= real
    assert not real & set(NOT_PLACES)
    assert all(zones.is_real_zone(name) for name in real)


@pytest.fixture
def organizer():
    td = get_user_model().objects.create_user("zone-td", password="x")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    return td, client


def _form(**change: str) -> dict[str, str]:
    return {
        "starts_at": "2026-09-05T10:00",
        "ends_at": "2026-09-05T17:00",
        "time_zone": "Europe/Paris",
        "venue_name": "Hall",
        "venue_address": "",
        "status": "announced",
    } | change


def test_the_form_offers_only_places_zones(organizer) -> None:
    td, client = organizer
    event = EventFactory(status=EventStatus.ANNOUNCED)
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    page = client.get(reverse("prizes:event_life", args=[event.slug])).content.decode()
    assert '<option value="Asia/Shanghai">' in page
    for name in NOT_PLACES:
        assert f'<option value="{name}">' not in page


@pytest.mark.parametrize("name", ["localtime", "Factory"])
def test_the_form_refuses_a_zone_of_no_place_at_its_field(organizer, name: str) -> None:
    td, client = organizer
    event = EventFactory(status=EventStatus.ANNOUNCED)
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    answer = client.post(reverse("prizes:event_life", args=[event.slug]), _form(time_zone=name))
    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'id="id_time_zone_error"' in page and "not the time zone of a place" in page
    event.refresh_from_db()
    assert event.time_zone == "" and event.starts_at is None


def test_an_event_that_holds_such_a_zone_keeps_it(organizer) -> None:
    td, client = organizer
    event = EventFactory(status=EventStatus.ANNOUNCED, time_zone="localtime")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    answer = client.post(
        reverse("prizes:event_life", args=[event.slug]), _form(time_zone="localtime")
    )
    assert answer.status_code == 302
    stored = Event.objects.get(pk=event.pk)
    assert stored.time_zone == "localtime" and stored.venue_name == "Hall"
    # And it moves to a place's zone when its organizer chooses one.
    answer = client.post(
        reverse("prizes:event_life", args=[event.slug]), _form(time_zone="Asia/Shanghai")
    )
    assert answer.status_code == 302
    assert Event.objects.get(pk=event.pk).time_zone == "Asia/Shanghai"
