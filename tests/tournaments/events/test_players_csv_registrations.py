"""The players file shares registration's rules (tournaments.events.players_csv): each row is an
accepted registration (with its check-in token), the event's limit of places holds, and the
optional ``categories`` column takes only the event's categories."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory
from tournaments.events import players_csv
from tournaments.models import Entry, Event, EventRole, Registration, RegistrationStatus, Role

pytestmark = pytest.mark.django_db


def _event(**settings: object) -> tuple[Event, object]:
    event = EventFactory(**settings)
    td = get_user_model().objects.create_user(f"td{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return event, td


def test_each_row_becomes_an_accepted_registration_once() -> None:
    event, td = _event()
    text = "name,club\nAnn,Lotus\nBo,Pine\n"
    players_csv.players_csv_import(event=event, text=text, actor=td)
    rows = Registration.objects.filter(event=event)
    assert sorted(rows.values_list("name", "status")) == [
        ("Ann", RegistrationStatus.ACCEPTED),
        ("Bo", RegistrationStatus.ACCEPTED),
    ]
    assert all(r.player_id is not None and r.token for r in rows)
    players_csv.players_csv_import(event=event, text=text, actor=td)
    assert Registration.objects.filter(event=event).count() == 2


def test_the_limit_of_places_holds() -> None:
    event, td = _event(registration_limit=2)
    text = "name\nAnn\nBo\nChen\n"
    preview = players_csv.players_csv_preview(event=event, text=text)
    assert not preview.ok
    assert "3; the event has 2 places" in preview.problems[0]
    with pytest.raises(players_csv.CsvRejected):
        players_csv.players_csv_import(event=event, text=text, actor=td)
    assert not Entry.objects.filter(event=event).exists()
    assert not Registration.objects.filter(event=event).exists()


def test_the_categories_column_takes_the_events_categories_only() -> None:
    event, td = _event(categories=["women", "youth"])
    bad = players_csv.players_csv_preview(event=event, text="name,categories\nAnn,senior\n")
    assert "No category senior" in bad.rows[0].errors[0]
    players_csv.players_csv_import(
        event=event, text="name,categories\nAnn,Youth; women\n", actor=td
    )
    assert Entry.objects.get(event=event).categories == ["women", "youth"]
    assert Registration.objects.get(event=event).categories == ["women", "youth"]
    assert players_csv.players_csv_export(event=event).splitlines()[1] == "Ann,,,,women;youth"
