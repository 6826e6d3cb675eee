"""The registration pages: the public event page's "Register" button while registration is
open; the form asks the anonymous to sign in or sign up, registers a signed-in account and
refuses a second one; the organizer's page opens registration and accepts (403 for anyone
else); the dashboard links to it and to the check-in list."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.models import Entry, Event, EventRole, EventStatus, Registration, Role

pytestmark = pytest.mark.django_db


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, email=f"{name}@example.org", password="pw")


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _event() -> tuple[Event, Any]:
    event = EventFactory(status=EventStatus.ANNOUNCED)
    td = _user("td")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return event, td


def test_the_organizer_opens_registration_and_the_public_page_gets_its_button() -> None:
    event, td = _event()
    assert 'id="register"' not in Client().get(event.get_absolute_url()).content.decode()
    answer = _client(td).post(
        reverse("registration:settings", args=[event.slug]),
        {"limit": "24", "waiting_list": "on", "categories": "women, Over 70"},
    )
    assert answer.status_code == 302
    event.refresh_from_db()
    assert (event.status, event.registration_limit, event.categories) == (
        EventStatus.REGISTRATION_OPEN,
        24,
        ["women", "Over 70"],
    )
    page = Client().get(event.get_absolute_url()).content.decode()
    assert reverse("registration:register", args=[event.slug]) in page


def test_a_stranger_may_not_open_the_organizers_page() -> None:
    event, _td = _event()
    stranger = _client(_user("x"))
    assert stranger.get(reverse("registration:registrations", args=[event.slug])).status_code == 403
    answer = stranger.post(reverse("registration:settings", args=[event.slug]), {"limit": "5"})
    assert answer.status_code == 403
    event.refresh_from_db()
    assert event.status == EventStatus.ANNOUNCED


def test_the_form_asks_the_anonymous_to_sign_in_and_registers_an_account_once() -> None:
    event, td = _event()
    _client(td).post(reverse("registration:settings", args=[event.slug]), {"categories": "youth"})
    url = reverse("registration:register", args=[event.slug])
    anonymous = Client().get(url).content.decode()
    assert 'id="sign-in"' in anonymous and 'name="name"' not in anonymous
    ann = _client(_user("ann"))
    answer = ann.post(url, {"name": "Ann", "club": "Lotus", "categories": ["youth"]})
    assert answer.status_code == 302
    r = Registration.objects.get(event=event)
    assert (r.name, r.categories, r.status) == ("Ann", ["youth"], "pending")
    # Registered already: the form sends her to her registration.
    assert ann.get(url)["Location"] == reverse("registration:mine", args=[event.slug])
    bad = ann.post(url, {"name": "Ann", "categories": ["elder"]})
    assert bad.status_code in (302, 400)
    assert Registration.objects.filter(event=event).count() == 1


def test_the_organizer_accepts_from_his_page_and_the_dashboard_links_it() -> None:
    event, td = _event()
    client = _client(td)
    client.post(reverse("registration:settings", args=[event.slug]), {"limit": "1"})
    client.post(reverse("registration:add", args=[event.slug]), {"name": "Bo"})
    r = Registration.objects.get(event=event)
    client.post(reverse("registration:action", args=[event.slug, r.pk, "accept"]))
    assert Entry.objects.filter(event=event, player__name="Bo").exists()
    client.post(reverse("registration:add", args=[event.slug]), {"name": "Cy"})
    cy = Registration.objects.get(event=event, name="Cy")
    answer = client.post(
        reverse("registration:action", args=[event.slug, cy.pk, "accept"]), follow=True
    )
    assert "All 1 places are taken" in answer.content.decode()
    dashboard = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert reverse("registration:registrations", args=[event.slug]) in dashboard
    assert reverse("registration:checkin_list", args=[event.slug]) in dashboard


def test_a_player_renamed_after_acceptance_is_listed_by_his_name_now() -> None:
    # A trial renamed Ann to "Newbie 新手" after her registration was accepted: the
    # registrations list and her own page still said Ann.
    from tournaments.models import Player

    event, td = _event()
    client = _client(td)
    client.post(reverse("registration:settings", args=[event.slug]), {"limit": "4"})
    ann = _user("ann-renamed")
    _client(ann).post(reverse("registration:register", args=[event.slug]), {"name": "Ann"})
    r = Registration.objects.get(event=event)
    client.post(reverse("registration:action", args=[event.slug, r.pk, "accept"]))
    r.refresh_from_db()
    assert r.player is not None
    Player.objects.filter(pk=r.player_id).update(name="Newbie 新手")
    listed = client.get(reverse("registration:registrations", args=[event.slug])).content.decode()
    row = listed[listed.index(f'id="registration-{r.pk}"') :].split("</tr>", 1)[0]
    assert "Newbie 新手" in row and "Ann" not in row
    mine = _client(ann).get(reverse("registration:mine", args=[event.slug])).content.decode()
    assert "Newbie 新手" in mine


def test_accepting_from_the_waiting_list_when_full_says_it_stays_there() -> None:
    # A trial's organizer was told "put it on the waiting list" of an entry on it already.
    event, td = _event()
    client = _client(td)
    client.post(reverse("registration:settings", args=[event.slug]), {"limit": "1"})
    for name in ("Bo", "Cy"):
        client.post(reverse("registration:add", args=[event.slug]), {"name": name})
    bo, cy = (Registration.objects.get(event=event, name=n) for n in ("Bo", "Cy"))
    client.post(reverse("registration:action", args=[event.slug, bo.pk, "accept"]))
    client.post(reverse("registration:action", args=[event.slug, cy.pk, "waitlist"]))
    said = client.post(
        reverse("registration:action", args=[event.slug, cy.pk, "accept"]), follow=True
    ).content.decode()
    assert "Cy stays on the waiting list until a place is freed or the limit is raised" in said
    assert "put it on the waiting list" not in said
    cy.refresh_from_db()
    assert cy.status == "waitlisted"
