"""Defects a user trial of the demo found (not in a browser): the status board of imported
games, the labels of tie-breaks, audit actions and rule presets, the entry pages' crumbs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.imports import records_import
from games.models import Game, Status
from games.services import game_verify
from tests.factories import EventFactory
from tournaments.models import EventRole, Role

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent / "data"


def _organizer(event):
    user = get_user_model().objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return user


# --- 4. the status board of an event of imported games ---------------------------------------


def test_the_status_board_shows_the_boards_of_imported_games() -> None:
    lines = (DATA / "rlcard_rule_agents.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    again = json.dumps({**json.loads(lines[0]), "id": "the-first-deal-played-again"})
    event = EventFactory(rules=None)
    report = records_import(event=event, lines=[*lines, again])
    assert report.stored == 3
    for game in Game.objects.all():
        game_verify(game_id=game.pk)
    assert Game.objects.filter(status=Status.VERIFIED).count() == 3
    td = _organizer(event)

    # The first deal was played at tables 1 and 2, the second at table 1: three verified cells.
    api = APIClient()
    api.force_authenticate(td)
    rows = api.get(reverse("api:tables", args=[event.slug])).json()
    cells = {row["number"]: [(c["board"], c["state"]) for c in row["cells"]] for row in rows}
    assert cells == {1: [(1, "verified"), (2, "verified")], 2: [(1, "verified")]}

    client = Client()
    client.force_login(td)
    page = client.get(reverse("referee:status", args=[event.slug])).content.decode()
    assert "verified: 3" in page
    assert page.count('data-state="verified"') == 3
