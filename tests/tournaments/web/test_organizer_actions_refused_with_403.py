"""A signed-in user who is not an organizer of the event and posts one of its organizer's
actions is answered 403 with the reason, not sent to a dashboard that then says 403; nothing
changes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tournaments.models import Round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("persona", ["referee1", "chief", "player"])
def test_an_organizers_action_posted_by_another_role_is_403(persona: str) -> None:
    world = build_world(seed=f"organizer-403-{persona}")
    client = Client()
    client.force_login(world.users[persona])
    slug = world.event.slug
    round_ = Round.objects.get(event=world.event, number=1)
    before = round_.state
    for url in (
        reverse("organizer:round_action", args=[slug, 1, "close"]),
        reverse("organizer:seed_commit", args=[slug]),
        reverse("organizer:stage_create", args=[slug]),
    ):
        answer = client.post(url, {"name": "x"})
        assert answer.status_code == 403, (url, answer.status_code, answer.get("Location"))
        assert b"organizer" in answer.content.lower()
    round_.refresh_from_db()
    assert round_.state == before
