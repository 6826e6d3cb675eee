"""Swiss seating of a field that does not fill whole tables: a trial's final of 8 at tables
of 3 seated 6 and left 2 checked-in finalists out without a word. The organizer is told and
chooses: refused with what would fit, or seated with the extra players sitting out, named."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.core.access import AdministrationRefused
from tournaments.events.rounds import round_create
from tournaments.events.stages import round_seat_swiss, stage_create
from tournaments.models import Entry, EventRole, Role, RoundState, Seat

pytestmark = pytest.mark.django_db


def _eight():
    event = EventFactory()
    td = get_user_model().objects.create_user("swiss-out-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for n in range(8):
        Entry.objects.create(event=event, player=PlayerFactory(name=f"F{n}"))
    stage = stage_create(event=event, actor=td)
    return event, td, round_create(event=event, actor=td, stage=stage)


def test_eight_at_tables_of_three_are_refused_unless_two_sit_out() -> None:
    _event, td, round_ = _eight()
    with pytest.raises(AdministrationRefused, match="seat the round with 2 sitting out"):
        round_seat_swiss(round_=round_, actor=td)
    round_.refresh_from_db()
    assert round_.state == RoundState.DRAFT and not Seat.objects.exists()
    tables, out = round_seat_swiss(round_=round_, actor=td, sit_out=True)
    assert len(tables) == 2 and len(out) == 2
    seated = {name for table in tables for name in table}
    assert seated.isdisjoint(out) and len(seated | set(out)) == 8


def test_the_dashboard_names_who_sits_out() -> None:
    event, td, _round = _eight()
    client = Client()
    client.force_login(td)
    url = reverse("organizer:round_action", args=[event.slug, 1, "swiss"])
    refused = client.post(url, follow=True).content.decode()
    assert "sitting out" in refused and not Seat.objects.exists()
    seated = client.post(url, {"sit_out": "1"}, follow=True).content.decode()
    assert "Sitting out: F" in seated and Seat.objects.count() == 6
