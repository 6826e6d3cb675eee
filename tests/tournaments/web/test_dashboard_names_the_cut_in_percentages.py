"""The dashboard names the players through a cut with the percentage they carry, as the
standings show it ("66.29%"), not the stored exact fraction ("4375/66": a trial's finding)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.models import EventRole, Role, Stage, StageEntry

pytestmark = pytest.mark.django_db


def test_the_players_through_carry_percentages_on_the_dashboard() -> None:
    event = EventFactory(scoring_method="matchpoints")
    organizer = get_user_model().objects.create_user("cut-org", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    Stage.objects.create(event=event, number=1, name="Qualifying", cut=2)
    final = Stage.objects.create(event=event, number=2, name="Final", carry_over=True)
    for position, (name, carried) in enumerate([("Hank", "4375/66"), ("Mia", "265/4")], start=1):
        StageEntry.objects.create(
            stage=final, player=PlayerFactory(name=name), position=position, carried=carried
        )
    client = Client()
    client.force_login(organizer)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    # 4375/66 = 66.2878… and 265/4 = 66.25, shown to two decimals as the standings do.
    assert "1. Hank (66.29%)" in page and "2. Mia (66.25%)" in page
    assert "4375/66" not in page
