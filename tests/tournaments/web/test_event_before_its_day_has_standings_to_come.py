"""An event whose rounds are not seated yet (registration open, its day to come) says its
standings will come, not that it "seats no players" and lists its games by board: that is an
archive of imported games, which seats nobody ever (the trial's finding: Demo Open said both)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.models import Round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def test_an_event_with_draft_rounds_has_standings_to_come() -> None:
    event = EventFactory()
    Round.objects.create(event=event, number=1)
    for name in ("public:event", "public:standings"):
        page = Client().get(reverse(name, args=[event.slug])).content.decode()
        assert 'id="no-standings-yet"' in page
        assert "seats no players" not in page


def test_an_archive_of_games_still_says_it_seats_no_one() -> None:
    event = EventFactory()
    page = Client().get(reverse("public:standings", args=[event.slug])).content.decode()
    assert 'id="no-seats"' in page
