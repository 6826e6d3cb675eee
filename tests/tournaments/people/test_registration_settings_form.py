"""The organizer's registration settings (Registrations › Registration settings): the deadline is
typed and shown in the event's time zone, as its start and end are (a trial's organizer typed
23:59 in Shanghai and got 15:59); a number of places too large for the database is refused on
the form (it was a 500); check-in is turned on from the same form (it was found in the admin
only)."""

from __future__ import annotations

import html
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.events.setup import event_create
from tournaments.models import Event, EventRole, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer_and_event():
    td = get_user_model().objects.create_user("settings-td", password="x")
    event = event_create(name="Shanghai Open", rules="classic")
    Event.objects.filter(pk=event.pk).update(time_zone="Asia/Shanghai")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    client = Client(headers={"accept-language": "en"})
    client.force_login(td)
    return client, Event.objects.get(pk=event.pk)


def _post(client: Client, event: Event, **fields: str):
    data = {"limit": "24", "deadline": "2030-01-12T23:59", "waiting_list": "on", "categories": ""}
    data.update(fields)
    return client.post(reverse("registration:settings", args=[event.slug]), data)


def test_the_deadline_is_typed_and_shown_in_the_events_zone(organizer_and_event) -> None:
    client, event = organizer_and_event
    assert _post(client, event).status_code == 302
    stored = Event.objects.get(pk=event.pk).registration_deadline
    # 23:59 in Shanghai (UTC+8, no summer time) is 15:59 UTC.
    assert stored == datetime(2030, 1, 12, 15, 59, tzinfo=UTC)
    page = client.get(reverse("registration:registrations", args=[event.slug])).content.decode()
    assert 'value="2030-01-12T23:59"' in page
    assert "Asia/Shanghai" in page
    player = get_user_model().objects.create_user("settings-player", password="x")
    client.force_login(player)
    form = client.get(reverse("registration:register", args=[event.slug])).content.decode()
    assert "Jan. 12, 2030, 11:59 p.m. (Asia/Shanghai)" in form


def test_a_limit_too_large_is_refused_on_the_form(organizer_and_event) -> None:
    client, event = organizer_and_event
    answer = _post(client, event, limit="99999999999999999999")
    assert answer.status_code == 400
    assert "less than or equal to" in answer.content.decode()
    assert Event.objects.get(pk=event.pk).registration_limit is None


def test_check_in_is_turned_on_from_the_registration_settings(organizer_and_event) -> None:
    client, event = organizer_and_event
    assert _post(client, event, check_in_required="on").status_code == 302
    assert Event.objects.get(pk=event.pk).check_in_required
    assert _post(client, event).status_code == 302
    assert not Event.objects.get(pk=event.pk).check_in_required


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("2030-03-10T02:30", "2030-03-10 02:30 does not exist in America/New_York"),
        ("2030-11-03T01:30", "2030-11-03 01:30 happens twice in America/New_York"),
    ],
)
def test_a_deadline_the_zone_skips_or_gives_twice_is_refused_in_its_words(
    organizer_and_event, typed: str, words: str
) -> None:
    # New York's clocks go forward at 02:00 on 10 March 2030 and back at 02:00 on 3 November.
    # The form gave Django's own sentence ("couldn't be interpreted in time zone …; it may be
    # ambiguous or it may not exist"), which says neither which nor what to do.
    client, event = organizer_and_event
    Event.objects.filter(pk=event.pk).update(time_zone="America/New_York")
    answer = _post(client, event, deadline=typed)
    page = answer.content.decode() if answer.status_code != 302 else ""
    follow = client.get(reverse("registration:registrations", args=[event.slug])).content.decode()
    assert words in page + follow
    assert "Give a time before or after the change." in page + follow
    assert "interpreted" not in page + follow
    assert Event.objects.get(pk=event.pk).registration_deadline is None


def test_a_deadline_after_the_events_end_is_refused(organizer_and_event) -> None:
    # The third trial's finding: 2027-01-01 was taken for an event ending 2026-12-20.
    client, event = organizer_and_event
    Event.objects.filter(pk=event.pk).update(
        starts_at=datetime(2030, 1, 10, 1, 0, tzinfo=UTC),
        ends_at=datetime(2030, 1, 10, 9, 0, tzinfo=UTC),  # 17:00 in Shanghai
    )
    answer = _post(client, event, deadline="2030-01-12T23:59")
    page = answer.content.decode() if answer.status_code != 302 else ""
    follow = client.get(reverse("registration:registrations", args=[event.slug])).content.decode()
    assert "The registration deadline is after the event's end" in html.unescape(page + follow)
    assert Event.objects.get(pk=event.pk).registration_deadline is None
