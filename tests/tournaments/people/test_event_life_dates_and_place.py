"""An event's dates and place (tournaments.people.life.event_place_set): a wall time typed in the
event's zone is that instant, it is shown in that zone whatever the site's, an online event
keeps no venue, and hostile input (an unknown zone, an end before the start, a NUL in the venue)
is refused with nothing changed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.factories import EventFactory
from tournaments.core.access import NotOrganizer
from tournaments.models import AuditEntry, Event, EventRole, Role
from tournaments.people import life

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return get_user_model().objects.create_user("life-td", password="x")


@pytest.fixture
def event(td):
    event = EventFactory()
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return event


def test_a_wall_time_is_read_and_shown_in_the_events_zone(event, td, settings) -> None:
    settings.TIME_ZONE = "Europe/London"  # the site's zone is not the event's
    life.event_place_set(
        event=event,
        actor=td,
        starts_at=datetime(2026, 7, 12, 9, 0),
        ends_at=datetime(2026, 7, 12, 18, 30),
        time_zone="Asia/Shanghai",
        online=False,
        venue_name="Hall 3",
        venue_address="1 Renmin Road\nShanghai",
    )
    stored = Event.objects.get(pk=event.pk)
    # Shanghai is UTC+8 all year: 09:00 there is 01:00 UTC.
    assert stored.starts_at == datetime(2026, 7, 12, 1, 0, tzinfo=UTC)
    assert stored.ends_at == datetime(2026, 7, 12, 10, 30, tzinfo=UTC)
    with translation.override("en"):
        when = life.event_when(stored)
    # Django's English formats: the day once, the end's time only (the same day).
    assert when == "July 12, 2026, 9 a.m. – 6:30 p.m. (Asia/Shanghai)"
    with translation.override("zh-hans"):
        assert "18:30" in life.event_when(stored)
    assert life.event_where(stored) == "Hall 3, 1 Renmin Road Shanghai"
    assert str(life.event_date(stored)) == "2026-07-12"
    audit = AuditEntry.objects.get(event=event, action="event.place")
    assert audit.changes["time_zone"] == ["", "Asia/Shanghai"]


def test_the_date_is_the_day_in_the_events_zone(event, td) -> None:
    # 23:30 on the 12th in Los Angeles is already the 13th in UTC.
    life.event_place_set(
        event=event,
        actor=td,
        starts_at=datetime(2026, 7, 12, 23, 30),
        ends_at=None,
        time_zone="America/Los_Angeles",
        online=True,
    )
    stored = Event.objects.get(pk=event.pk)
    assert stored.starts_at.astimezone(UTC).day == 13
    assert str(life.event_date(stored)) == "2026-07-12"


def test_an_online_event_keeps_no_venue(event, td) -> None:
    life.event_place_set(
        event=event,
        actor=td,
        starts_at=None,
        ends_at=None,
        time_zone="",
        online=True,
        venue_name="Hall 3",
        venue_address="somewhere",
    )
    stored = Event.objects.get(pk=event.pk)
    assert stored.online and stored.venue_name == "" and stored.venue_address == ""
    with translation.override("en"):
        assert life.event_where(stored) == "online"
    assert life.event_when(stored) == ""


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "Unknown time zone"),
        ({"time_zone": "../../etc/passwd"}, "Unknown time zone"),
        ({"ends_at": datetime(2026, 7, 11, 9, 0)}, "cannot end before it starts"),
        ({"starts_at": None}, "start before its end"),
        ({"venue_name": "Hall\x00 3"}, "control characters"),
        ({"venue_name": "H" * 201}, "at most 200"),
    ],
)
def test_hostile_input_is_refused_and_changes_nothing(event, td, change, words) -> None:
    values = {
        "starts_at": datetime(2026, 7, 12, 9, 0),
        "ends_at": datetime(2026, 7, 12, 18, 0),
        "time_zone": "Asia/Shanghai",
        "online": False,
        "venue_name": "Hall 3",
        "venue_address": "",
    }
    values.update(change)
    with translation.override("en"), pytest.raises(life.LifeRefused, match=words):
        life.event_place_set(event=event, actor=td, **values)
    stored = Event.objects.get(pk=event.pk)
    assert stored.starts_at is None and stored.time_zone == "" and stored.venue_name == ""
    assert not AuditEntry.objects.filter(event=event, action="event.place").exists()


def test_only_an_organizer_sets_them(event) -> None:
    stranger = get_user_model().objects.create_user("life-stranger", password="x")
    with pytest.raises(NotOrganizer):
        life.event_place_set(
            event=event, actor=stranger, starts_at=None, ends_at=None, time_zone="", online=True
        )
    assert not Event.objects.get(pk=event.pk).online


def test_a_time_the_zone_skips_is_refused_and_its_neighbours_taken(event, td) -> None:
    # New York's clocks went from 02:00 to 03:00 on 14 March 2027: 02:30 is no time there.
    # It was stored as 03:30 without a word (the trial's finding).
    values = {
        "ends_at": datetime(2027, 3, 14, 18, 0),
        "time_zone": "America/New_York",
        "online": False,
    }
    with translation.override("en"), pytest.raises(life.LifeRefused) as refused:
        life.event_place_set(
            event=event, actor=td, starts_at=datetime(2027, 3, 14, 2, 30), **values
        )
    assert str(refused.value) == (
        "2027-03-14 02:30 does not exist in America/New_York: its clocks go forward then. "
        "Give a time before or after the change."
    )
    assert Event.objects.get(pk=event.pk).starts_at is None
    # 01:30 (EST, UTC−5) and 03:30 (EDT, UTC−4) are both real times of that day.
    life.event_place_set(event=event, actor=td, starts_at=datetime(2027, 3, 14, 3, 30), **values)
    assert Event.objects.get(pk=event.pk).starts_at == datetime(2027, 3, 14, 7, 30, tzinfo=UTC)
    life.event_place_set(event=event, actor=td, starts_at=datetime(2027, 3, 14, 1, 30), **values)
    assert Event.objects.get(pk=event.pk).starts_at == datetime(2027, 3, 14, 6, 30, tzinfo=UTC)


def test_a_time_the_zone_gives_twice_is_refused(event, td) -> None:
    # New York's clocks went back from 02:00 to 01:00 on 7 November 2027: 01:30 happened twice
    # (EDT, then EST), an hour apart. It was taken as the first without a word (the trial's
    # finding); an organizer meaning the second would find his event an hour early.
    values = {
        "ends_at": datetime(2027, 11, 7, 18, 0),
        "time_zone": "America/New_York",
        "online": False,
    }
    with translation.override("en"), pytest.raises(life.LifeRefused) as refused:
        life.event_place_set(
            event=event, actor=td, starts_at=datetime(2027, 11, 7, 1, 30), **values
        )
    assert str(refused.value) == (
        "2027-11-07 01:30 happens twice in America/New_York: its clocks go back then. "
        "Give a time before or after the change."
    )
    assert Event.objects.get(pk=event.pk).starts_at is None
    # 00:30 (EDT, UTC−4) and 02:30 (EST, UTC−5) happen once.
    life.event_place_set(event=event, actor=td, starts_at=datetime(2027, 11, 7, 2, 30), **values)
    assert Event.objects.get(pk=event.pk).starts_at == datetime(2027, 11, 7, 7, 30, tzinfo=UTC)
    life.event_place_set(event=event, actor=td, starts_at=datetime(2027, 11, 7, 0, 30), **values)
    assert Event.objects.get(pk=event.pk).starts_at == datetime(2027, 11, 7, 4, 30, tzinfo=UTC)
