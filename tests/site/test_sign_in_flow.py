"""Signing in and out: the sign-in lands on the user's events (or on its ``next``, never on
the sign-in page again), every page has the account link to sign in or out, the sign-in link
keeps its ``next`` without nesting it, and a signed-in user opening the sign-in page is sent
on.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tests.factories import EventFactory
from tournaments.models import EventRole, Role

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _user(name: str, **flags):
    return get_user_model().objects.create_user(name, password="pw", **flags)


def test_sign_in_lands_on_my_events_and_every_page_has_sign_in_or_out(client) -> None:
    event = EventFactory(name="Winter Cup", slug="winter-cup")
    player = _user("pat")
    EventRole.objects.create(event=event, user=player, role=Role.PLAYER)
    page = client.get("/").content.decode()
    assert 'id="account"' in page and "/accounts/login/?next=/" in page
    response = client.post(reverse("account_login"), {"login": "pat", "password": "pw"})
    assert response.status_code == 302 and response["Location"] == reverse("organizer:home")
    home = client.get(response["Location"])
    assert home.status_code == 200
    text = home.content.decode()
    assert "Winter Cup" in text and "Player" in text and "Dashboard" not in text
    for url in ("/", event.get_absolute_url(), reverse("organizer:home")):
        body = client.get(url).content.decode()
        assert 'action="/accounts/logout/"' in body and "csrfmiddlewaretoken" in body, url
        assert "pat" in body
    # Sign-out is a POST: a GET only asks (django-allauth's page) and signs nobody out.
    client.get(reverse("account_logout"))
    assert "_auth_user_id" in client.session
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Sign in" in client.get("/").content.decode()
    # With ?next= the sign-in goes there.
    response = client.post(
        reverse("account_login") + "?next=/events/winter-cup/",
        {"login": "pat", "password": "pw", "next": "/events/winter-cup/"},
    )
    assert response["Location"] == "/events/winter-cup/"


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


def _sign_in_href(html: str) -> str:
    match = re.search(r'<span class="account" id="account">.*?<a href="([^"]+)"', html, re.S)
    assert match
    return match.group(1).replace("&amp;", "&")


def test_the_sign_in_link_on_the_sign_in_page_keeps_its_next() -> None:
    client = Client()
    page = "/accounts/login/?next=/events/demo-duplicate/"
    href = _sign_in_href(client.get(page).content.decode())
    assert parse_qs(urlsplit(href).query) == {"next": ["/events/demo-duplicate/"]}
    # Clicking it again and again does not nest it.
    again = _sign_in_href(client.get(href).content.decode())
    assert parse_qs(urlsplit(again).query) == {"next": ["/events/demo-duplicate/"]}
    # Elsewhere the link still leads back to the page it is on.
    href = _sign_in_href(client.get("/events/nope/?x=1").content.decode())
    assert parse_qs(urlsplit(href).query) == {"next": ["/events/nope/?x=1"]}


def test_signing_in_never_lands_on_the_sign_in_page(world) -> None:
    user = world.users["organizer"]
    client = Client()
    response = client.post(
        "/accounts/login/?next=/accounts/login/", {"login": user.username, "password": "x"}
    )
    assert response.status_code == 302 and response["Location"] == "/organizer/"
    nested = "/accounts/login/?next=/accounts/login/%3Fnext%3D/events/x/"
    assert client.get(nested)["Location"] == "/events/x/"


def test_a_signed_in_user_opening_the_sign_in_page_goes_on(world) -> None:
    client = Client()
    client.force_login(world.users["organizer"])
    response = client.get(f"/accounts/login/?next=/events/{world.event.slug}/")
    assert response.status_code == 302 and response["Location"] == f"/events/{world.event.slug}/"
    assert client.get("/accounts/login/")["Location"] == "/organizer/"
    assert client.get("/accounts/login/?next=/accounts/login/")["Location"] == "/organizer/"
    assert client.get("/accounts/login/?next=https://evil.example/")["Location"] == "/organizer/"
    # The old address of the sign-in page leads to it, its next kept.
    old = Client().get("/organizer/login/?next=/events/x/")
    assert old.status_code == 302 and old["Location"] == "/accounts/login/?next=/events/x/"
