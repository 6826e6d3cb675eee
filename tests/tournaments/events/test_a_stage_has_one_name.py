"""A stage left without a name is called the same everywhere: the third trial found the
dashboard saying "Qualifying stage", the public standings "Trial Cup S1" and the change log
"Stage 1". Its one name is its number and kind ("Stage 1: Qualifying stage"); a stage given a
name is called by it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.events.stages import stage_create
from tournaments.models import EventRole, Role, Stage

pytestmark = pytest.mark.django_db


def test_an_unnamed_stage_is_called_the_same_on_every_page() -> None:
    event = EventFactory(name="Trial Cup")
    td = get_user_model().objects.create_user("stage-name-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    stage_create(event=event, actor=td)
    stage = Stage.objects.get(event=event)
    assert stage.label() == "Stage 1: Qualifying stage"
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    pages = {
        "dashboard": reverse("organizer:dashboard", args=[event.slug]),
        "event": event.get_absolute_url(),
        "standings": reverse("public:standings", args=[event.slug]) + "?stage=1",
        "changes": reverse("organizer:changes", args=[event.slug]),
    }
    for name, url in pages.items():
        page = client.get(url).content.decode()
        assert "Stage 1: Qualifying stage" in page, name
        assert "Trial Cup S1" not in page, name
    Stage.objects.filter(pk=stage.pk).update(name="Swiss")
    stage.refresh_from_db()
    assert stage.label() == "Swiss" and str(stage) == "Swiss"


def test_a_cut_that_is_no_number_is_said_so() -> None:
    # "abc" was refused as "A cut lets at least one player through" (the second trial).
    event = EventFactory()
    td = get_user_model().objects.create_user("stage-cut-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    answer = client.post(
        reverse("organizer:stage_create", args=[event.slug]), {"cut": "abc"}, follow=True
    )
    assert "The cut is a whole number of players (empty: no cut)." in answer.content.decode()
    assert not Stage.objects.filter(event=event).exists()
