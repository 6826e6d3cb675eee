"""The pages of an event's dates, place and status: the organizer's form (a wall time read in the
event's zone; an unknown zone or an end before the start answered 400 with the reason, nothing
stored), the dashboard's "Finish the event" (refused with the reason while a round is not
published), and the lists of events: newest first by date, each with its date, venue or
"online", and status; the event page says when and where in the event's zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.models import Event, EventRole, EventStatus, Role, Round, RoundState

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer():
    td = get_user_model().objects.create_user("pages-life-td", password="x")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    return td, client


def _organized(td, **fields) -> Event:
    event = EventFactory(**fields)
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return event


def _form(**change: str) -> dict[str, str]:
    return {
        "starts_at": "2026-09-05T10:00",
        "ends_at": "2026-09-05T17:00",
        "time_zone": "Europe/Paris",
        "venue_name": "Salle des fêtes",
        "venue_address": "1 place de la Mairie",
        "status": "registration_open",
    } | change


def test_the_form_stores_a_wall_time_in_the_events_zone(organizer) -> None:
    td, client = organizer
    event = _organized(td, status=EventStatus.ANNOUNCED)
    url = reverse("prizes:event_life", args=[event.slug])
    page = client.get(url).content.decode()
    assert 'list="time-zones"' in page and '<option value="Asia/Shanghai">' in page
    assert client.post(url, _form()).status_code == 302
    event.refresh_from_db()
    # Paris is UTC+2 in September.
    assert event.starts_at == datetime(2026, 9, 5, 8, 0, tzinfo=UTC)
    assert event.status == EventStatus.REGISTRATION_OPEN
    # Shown again as typed, in the event's zone.
    assert 'value="2026-09-05T10:00"' in client.get(url).content.decode()
    detail = client.get(event.get_absolute_url()).content.decode()
    assert "10 a.m. – 5 p.m. (Europe/Paris)" in detail
    assert "Salle des fêtes, 1 place de la Mairie" in detail


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"time_zone": "Europe/Atlantis"}, "Unknown time zone"),
        ({"ends_at": "2026-09-04T17:00"}, "cannot end before it starts"),
        ({"starts_at": "5 September"}, "Enter a valid date/time"),
    ],
)
def test_hostile_input_answers_400_and_stores_nothing(organizer, change, words) -> None:
    td, client = organizer
    event = _organized(td, status=EventStatus.ANNOUNCED)
    page = client.post(reverse("prizes:event_life", args=[event.slug]), _form(**change))
    assert page.status_code == 400
    assert words in page.content.decode()
    event.refresh_from_db()
    assert event.starts_at is None and event.status == EventStatus.ANNOUNCED


def test_a_stranger_gets_403(organizer) -> None:
    td, _client = organizer
    event = _organized(td)
    stranger = get_user_model().objects.create_user("pages-life-stranger", password="x")
    client = Client()
    client.force_login(stranger)
    assert client.get(reverse("prizes:event_life", args=[event.slug])).status_code == 403
    assert client.post(reverse("prizes:event_finish", args=[event.slug])).status_code == 403
    assert Event.objects.get(pk=event.pk).status == EventStatus.IN_PLAY


def test_finishing_from_the_dashboard_names_the_round_in_the_way(organizer) -> None:
    td, client = organizer
    event = _organized(td)
    Round.objects.create(event=event, number=1, state=RoundState.PUBLISHED)
    Round.objects.create(event=event, number=2, state=RoundState.CLOSED)
    dashboard = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert "while round 2 is not published (it is closed)" in dashboard
    page = client.post(reverse("prizes:event_finish", args=[event.slug]), follow=True)
    assert "while round 2 is not published (it is closed)" in page.content.decode()
    assert Event.objects.get(pk=event.pk).status == EventStatus.IN_PLAY
    Round.objects.filter(event=event).update(state=RoundState.PUBLISHED)
    page = client.post(reverse("prizes:event_finish", args=[event.slug]), follow=True)
    assert Event.objects.get(pk=event.pk).status == EventStatus.FINISHED
    assert 'id="event-reopen"' in page.content.decode()
    client.post(reverse("prizes:event_reopen", args=[event.slug]))
    assert Event.objects.get(pk=event.pk).status == EventStatus.IN_PLAY


def test_lists_show_events_newest_first_with_date_place_and_status(organizer) -> None:
    td, client = organizer
    # Opened in this order; their dates say otherwise.
    june = _organized(
        td, name="June cup", starts_at=datetime(2026, 6, 1, 8, tzinfo=UTC), venue_name="Hall A"
    )
    august = _organized(
        td, name="August cup", starts_at=datetime(2026, 8, 1, 8, tzinfo=UTC), online=True
    )
    march = _organized(
        td,
        name="March cup",
        starts_at=datetime(2026, 3, 1, 8, tzinfo=UTC),
        status=EventStatus.FINISHED,
    )
    home = client.get(reverse("public:events")).content.decode()
    assert home.index("August cup") < home.index("June cup") < home.index("March cup")
    row = home[home.index("June cup") :].split("</tr>")[0]
    assert "June 1, 2026" in row and "Hall A" in row and "in play" in row
    assert "online" in home[home.index("August cup") :].split("</tr>")[0]
    assert "finished" in home[home.index("March cup") :].split("</tr>")[0]
    mine = client.get(reverse("organizer:home")).content.decode()
    assert mine.index("August cup") < mine.index("June cup") < mine.index("March cup")
    assert {june.pk, august.pk, march.pk}


def test_an_event_without_a_date_is_listed_as_such(organizer) -> None:
    """An event opened without its date was listed under the day it was opened, where its
    dashboard said "no date yet" (the third trial's finding)."""
    td, client = organizer
    _organized(td, name="Undated cup", status=EventStatus.ANNOUNCED)
    for url in (reverse("public:events"), reverse("organizer:home")):
        page = client.get(url).content.decode()
        row = page[page.index("Undated cup") :].split("</tr>")[0].split("</li>")[0]
        assert "no date yet" in row, url


def test_robots_without_online_are_refused_not_dropped(organizer) -> None:
    """ "Played on this site against robots" ticked without "Online" was saved as no robots at
    all, the page saying "saved" (the third trial's finding)."""
    td, client = organizer
    event = _organized(td, name="Robot cup", status=EventStatus.ANNOUNCED)
    answer = client.post(
        reverse("prizes:event_life", args=[event.slug]),
        _form(online_robots="on", move_seconds="30"),
    )
    assert answer.status_code == 400
    assert "Played on this site against robots is for an event played online" in (
        answer.content.decode()
    )
    event.refresh_from_db()
    assert not event.online and not event.online_robots and event.starts_at is None
