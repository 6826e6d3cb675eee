"""An organizer's address with an action or a print page that does not exist is a page not
found (404), not a refusal of access (403: "You may not open this page", which a trial's
organizer read as a missing permission)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import EventFactory
from tournaments.models import EventRole, Registration, Role, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer_client():
    event = EventFactory()
    organizer = get_user_model().objects.create_user("unknown-org", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client = Client()
    client.force_login(organizer)
    return event, client


def test_an_unknown_registration_action_is_not_found(organizer_client) -> None:
    event, client = organizer_client
    registration = Registration.objects.create(event=event, name="Ann")
    url = f"/organizer/events/{event.slug}/registrations/{registration.pk}/explode/"
    assert client.post(url).status_code == 404
    registration.refresh_from_db()
    assert registration.status == "pending"


def test_an_unknown_print_page_is_not_found(organizer_client) -> None:
    event, client = organizer_client
    Round.objects.create(event=event, number=1)
    url = f"/organizer/events/{event.slug}/rounds/1/print/hands/"
    assert client.get(url).status_code == 404
