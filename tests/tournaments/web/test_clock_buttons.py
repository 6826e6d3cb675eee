"""The referees' event page offers the round clock's buttons only while the round is in
play: a published round offers none.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Round, RoundState

pytestmark = pytest.mark.django_db


def test_a_published_round_offers_no_clock_buttons(linked) -> None:
    world, _tokens = linked
    round_ = world.tables[0].round
    client = Client()
    client.force_login(world.users["chief"])
    url = reverse("referee:event", args=[world.event.slug])
    page = client.get(url).content.decode()
    assert "Start the clock" in page and "Give extra time" in page
    Round.objects.filter(pk=round_.pk).update(state=RoundState.PUBLISHED)
    page = client.get(url).content.decode()
    assert "Start the clock" not in page and "Give extra time" not in page
