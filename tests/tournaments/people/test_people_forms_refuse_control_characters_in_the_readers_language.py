"""The registration and event-life forms refuse a NUL (or any control character) in a name,
club, note, zone or venue with the site's own message in the reader's language, never Django's
"Null characters are not allowed", whose Chinese says "empty strings are not allowed" (the
trial's finding: the name field of a registration, the time zone of the event's dates)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.models import EventRole, EventStatus, Registration, Role
from tournaments.people import registration

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
DJANGO_NUL = "不允许是用空字符串"  # Django's Chinese for "Null characters are not allowed."
SITE_SAYS = "控制字符"  # the site's word: "control characters" (ddz_site.kernel.text)


def _signed_in(name: str) -> Client:
    client = Client(**ZH)
    client.force_login(
        get_user_model().objects.create_user(name, email=f"{name}@example.org", password="pw")
    )
    return client


@pytest.fixture
def event():
    event = EventFactory(status=EventStatus.ANNOUNCED)
    td = get_user_model().objects.create_user("nul-td", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    registration.registration_open(event=event, actor=td)
    return event


@pytest.mark.parametrize("field", ["name", "club", "note"])
def test_a_registration_with_a_nul_is_refused_in_chinese(event, field) -> None:
    fields = {"name": "Ann", field: "A\x00nn"}
    answer = _signed_in(f"nul-{field}").post(
        reverse("registration:register", args=[event.slug]), fields
    )
    page = answer.content.decode()
    assert answer.status_code == 400
    assert SITE_SAYS in page and DJANGO_NUL not in page
    assert not Registration.objects.exists()


@pytest.mark.parametrize("field", ["time_zone", "venue_name", "venue_address"])
def test_the_events_dates_with_a_nul_are_refused_in_chinese(event, field) -> None:
    client = Client(**ZH)
    client.force_login(get_user_model().objects.get(username="nul-td"))
    fields = {
        "starts_at": "2027-05-01T09:00",
        "ends_at": "2027-05-01T18:00",
        "time_zone": "Asia/Shanghai",
        "venue_name": "Hall",
        field: "Asia/\x00Shanghai",
    }
    answer = client.post(reverse("prizes:event_life", args=[event.slug]), fields)
    page = answer.content.decode()
    assert answer.status_code == 400
    assert SITE_SAYS in page and DJANGO_NUL not in page
    event.refresh_from_db()
    assert event.starts_at is None
