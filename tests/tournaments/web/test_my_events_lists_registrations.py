"""A player's "My events" (where signing in lands) lists his registrations with their status and
his own registration page, instead of telling a new player that an organizer gives roles in the
admin (a trial's player, just registered, read that)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.events.setup import event_create
from tournaments.models import Event, EventStatus, Registration

pytestmark = pytest.mark.django_db


def test_a_players_registrations_are_on_his_events_page() -> None:
    player = get_user_model().objects.create_user("reg-player", password="x")
    event = event_create(name="Winter Open", rules="classic")
    Event.objects.filter(pk=event.pk).update(status=EventStatus.REGISTRATION_OPEN)
    Registration.objects.create(event=event, user=player, name="Wei")
    client = Client(headers={"accept-language": "en"})
    client.force_login(player)
    page = client.get(reverse("organizer:home")).content.decode()
    assert 'id="my-registrations"' in page
    assert "Winter Open" in page and "received" in page
    assert reverse("registration:mine", args=[event.slug]) in page
    assert "gives roles in the admin" not in page


def test_without_role_or_registration_it_says_how_to_take_part() -> None:
    nobody = get_user_model().objects.create_user("reg-nobody", password="x")
    client = Client(headers={"accept-language": "en"})
    client.force_login(nobody)
    page = client.get(reverse("organizer:home")).content.decode()
    assert "Register for an event from its page" in page
    assert 'id="my-registrations"' not in page
