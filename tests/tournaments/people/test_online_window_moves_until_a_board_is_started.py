"""The window of an online robot duplicate (its start and end, tournaments.people.life) stays the
organizer's to move once its boards are dealt, until an entrant starts one: its start may move
then (no entrant has played against it), never after. Its end never moves into the past ("End
the window now" closes it), and a refusal says which rule it broke: on the "Date, place and
status" form, the start shown to the minute and sent back unchanged is not a move of the start.
A refused change changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import EventFactory, online_board_play, online_event
from tournaments.models import AuditEntry, Entry, Event, EventRole, Player, Role
from tournaments.online.play import online_board_start
from tournaments.online.window import online_boards_deal, online_play_set
from tournaments.people import life

pytestmark = pytest.mark.django_db

PLAYING = "Entrants are playing"
PAST = "cannot be in the past"


def _dealt_tonight() -> tuple[Event, object]:
    """A new online robot duplicate whose window opens in five hours, its two boards dealt,
    made as an organizer does (no entrant yet)."""
    td = get_user_model().objects.create_user("td-tonight", password="x")
    event = EventFactory(status="registration_open")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    now = timezone.now()
    life.event_place_set(
        event=event,
        actor=td,
        starts_at=now + timedelta(hours=5),
        ends_at=now + timedelta(hours=10),
        time_zone="UTC",
        online=True,
    )
    online_play_set(event=event, actor=td, robots=True, strength="basic", move_seconds=60)
    online_boards_deal(event=event, boards=2, actor=td)
    event.refresh_from_db()
    return event, td


def _move(event: Event, td: object, **moved: object) -> Event:
    values = {
        "starts_at": event.starts_at,
        "ends_at": event.ends_at,
        "time_zone": event.time_zone,
        "online": True,
    } | moved
    return life.event_place_set(event=event, actor=td, **values)


def test_the_start_moves_with_boards_dealt_and_no_board_started() -> None:
    event, td = _dealt_tonight()
    earlier = timezone.now() - timedelta(hours=1)
    assert _move(event, td, starts_at=earlier).starts_at == earlier
    assert Event.objects.get(pk=event.pk).starts_at == earlier


def test_entrants_who_have_not_started_a_board_leave_the_start_free() -> None:
    event, td = _dealt_tonight()
    for n in (1, 2):
        user = get_user_model().objects.create_user(f"waiting-{n}", password="x")
        Entry.objects.create(event=event, player=Player.objects.create(name=f"W{n}", user=user))
    later = event.starts_at + timedelta(hours=1)
    assert _move(event, td, starts_at=later).starts_at == later


def test_once_an_entrant_started_a_board_the_start_stays() -> None:
    event, td = _dealt_tonight()
    opened = timezone.now() - timedelta(minutes=10)
    _move(event, td, starts_at=opened)
    user = get_user_model().objects.create_user("first-entrant", password="x")
    Entry.objects.create(event=event, player=Player.objects.create(name="First", user=user))
    online_board_start(event=event, user=user, number=1)
    with pytest.raises(life.LifeRefused, match=PLAYING):
        _move(event, td, starts_at=opened - timedelta(hours=1))
    assert Event.objects.get(pk=event.pk).starts_at == opened


def test_the_end_moved_into_the_past_says_so_and_names_end_the_window_now() -> None:
    event, td = _dealt_tonight()
    _move(event, td, starts_at=timezone.now() - timedelta(hours=2))
    stored = Event.objects.get(pk=event.pk)
    logged = AuditEntry.objects.filter(event=event).count()
    with pytest.raises(life.LifeRefused, match=PAST) as refused:
        _move(stored, td, ends_at=timezone.now() - timedelta(hours=1))
    assert "End the window now" in refused.value.message
    assert PLAYING not in refused.value.message
    assert Event.objects.get(pk=event.pk).ends_at == stored.ends_at
    assert AuditEntry.objects.filter(event=event).count() == logged


def test_an_end_before_the_start_is_refused_as_such() -> None:
    event, td = _dealt_tonight()
    with pytest.raises(life.LifeRefused, match="cannot end before it starts"):
        _move(event, td, ends_at=event.starts_at - timedelta(minutes=1))


# --- The form ------------------------------------------------------------------------------


def _wall(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M")


def _form(event: Event, **change: str) -> dict[str, str]:
    return {
        "starts_at": _wall(event.starts_at),
        "ends_at": _wall(event.ends_at),
        "time_zone": "UTC",
        "online": "on",
        "online_robots": "on",
        "robot_strength": event.robot_strength,
        "move_seconds": str(event.move_seconds),
        "seat_wait_seconds": str(event.seat_wait_seconds),
    } | change


def _played() -> tuple[Event, Client]:
    """An online event whose window opened an hour ago (a start with seconds: the form shows it
    to the minute), one board played by an entrant."""
    event, td, (ann,) = online_event(entrants=1, boards=2)
    Event.objects.filter(pk=event.pk).update(
        time_zone="UTC", starts_at=event.starts_at.replace(second=17, microsecond=250)
    )
    event.refresh_from_db()
    online_board_play(event, ann, 1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    return event, client


def test_the_form_sent_back_with_its_start_unchanged_moves_only_the_end() -> None:
    event, client = _played()
    later = event.ends_at + timedelta(days=1)
    answer = client.post(
        reverse("prizes:event_life", args=[event.slug]), _form(event, ends_at=_wall(later))
    )
    assert answer.status_code == 302, answer.content.decode()
    stored = Event.objects.get(pk=event.pk)
    assert stored.starts_at == event.starts_at  # to the microsecond: not moved
    assert _wall(stored.ends_at) == _wall(later)


def test_the_form_with_an_end_between_the_start_and_now_gives_the_right_reason() -> None:
    event, client = _played()
    past = timezone.now() - timedelta(minutes=20)
    answer = client.post(
        reverse("prizes:event_life", args=[event.slug]), _form(event, ends_at=_wall(past))
    )
    assert answer.status_code == 400
    page = answer.content.decode()
    assert PAST in page and "End the window now" in page
    assert PLAYING not in page and "only its end may move" not in page
    assert Event.objects.get(pk=event.pk).ends_at == event.ends_at
