"""The check-in and registrations pages of an online robot duplicate say plainly that its
entrants enter themselves online (no check-in, no registration): the check-in page offers no
round to check in for and lists the entrants; the registrations page counts them as its places
taken and points to the Players page, where they are, instead of "No registration yet". An
ordinary event's pages are unchanged."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, online_event
from tournaments.models import EventRole, Role

pytestmark = pytest.mark.django_db

ENTER_THEMSELVES = "enter themselves on its online page"


def _get(user, name: str, slug: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    answer = client.get(reverse(name, args=[slug]))
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_check_in_page_says_entrants_enter_online_and_lists_them() -> None:
    event, td, _users = online_event(entrants=5, boards=6)
    page = _get(td, "registration:checkin_list", event.slug)
    assert ENTER_THEMSELVES in page
    assert reverse("online:home", args=[event.slug]) in page
    assert "No round to check in for yet" not in page
    assert 'id="checkin-rounds"' not in page and 'id="checkin-count"' not in page
    assert all(f"<strong>Entrant {n}</strong>" in page for n in range(1, 6))
    assert "Robot" not in page


def test_the_registrations_page_counts_the_online_entrants_and_points_to_the_players() -> None:
    event, td, _users = online_event(entrants=5, boards=2)
    page = _get(td, "registration:registrations", event.slug)
    assert ENTER_THEMSELVES in page
    assert "No registration yet" not in page
    assert "5 entries accepted (no limit)" in page
    assert reverse("organizer:players", args=[event.slug]) in page


def test_an_ordinary_event_still_asks_for_rounds_and_registrations() -> None:
    event = EventFactory()
    td = online_event(entrants=0, boards=1)[1]
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    assert "No round to check in for yet" in _get(td, "registration:checkin_list", event.slug)
    page = _get(td, "registration:registrations", event.slug)
    assert "No registration yet" in page and ENTER_THEMSELVES not in page
