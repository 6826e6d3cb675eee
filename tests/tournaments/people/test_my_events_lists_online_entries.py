"""A player's "My events" (organizer:home, where signing in lands) lists the online events his
account entered (an Entry of the player tied to it), each linking to its online page where he
plays his boards; his registrations of ordinary events are listed as before, and nobody else
sees his online events."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import online_event
from tournaments.events.setup import event_create
from tournaments.models import Event, EventStatus, Registration
from tournaments.online.entry import online_enter

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _my_events(user) -> str:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    answer = client.get(reverse("organizer:home"))
    assert answer.status_code == 200
    return answer.content.decode()


def _online_list(page: str) -> str:
    found = re.search(r'<ul[^>]*id="my-online-events"[^>]*>.*?</ul>', page, re.S)
    assert found, page
    return found.group(0)


def test_an_online_entrant_sees_the_event_with_a_link_to_its_online_page() -> None:
    event, _organizer, (entrant, *_rest) = online_event(entrants=2, boards=1)
    page = _my_events(entrant)
    listed = _online_list(page)
    assert event.name in listed
    assert f'href="{reverse("online:home", args=[event.slug])}"' in listed
    assert "Register for an event from its page" not in page


def test_an_account_that_pressed_enter_sees_the_event() -> None:
    event, _organizer, _users = online_event(entrants=0, boards=1)
    newcomer = get_user_model().objects.create_user("newcomer", "newcomer@example.org", "pw")
    online_enter(event=event, user=newcomer)
    listed = _online_list(_my_events(newcomer))
    assert f'href="{reverse("online:home", args=[event.slug])}"' in listed


def test_a_registration_still_shows_beside_the_online_event() -> None:
    event, _organizer, (entrant, *_rest) = online_event(entrants=1, boards=1)
    ordinary = event_create(name="Winter Open", rules="classic")
    Event.objects.filter(pk=ordinary.pk).update(status=EventStatus.REGISTRATION_OPEN)
    Registration.objects.create(event=ordinary, user=entrant, name="Wei")
    page = _my_events(entrant)
    registrations = re.search(r'<ul[^>]*id="my-registrations"[^>]*>.*?</ul>', page, re.S)
    assert registrations and "Winter Open" in registrations.group(0)
    assert reverse("registration:mine", args=[ordinary.slug]) in registrations.group(0)
    assert "Winter Open" not in _online_list(page)
    assert event.name in _online_list(page)


def test_an_account_not_entered_does_not_see_it() -> None:
    event, _organizer, _users = online_event(entrants=1, boards=1)
    stranger = get_user_model().objects.create_user("stranger", password="pw")
    page = _my_events(stranger)
    assert 'id="my-online-events"' not in page
    assert reverse("online:home", args=[event.slug]) not in page
    assert "Register for an event from its page" in page
