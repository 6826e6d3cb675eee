"""An organizer's address naming an action a round or a stage does not have
(``/organizer/events/<slug>/rounds/1/bogus/``) is a page that does not exist: 404, not 403
("you may not"), which told the organizer himself he lacked a right."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import duplicate_round
from tournaments.events import stages

pytestmark = pytest.mark.django_db


def test_an_unknown_round_or_stage_action_is_not_found() -> None:
    event, round_, _tables, _boards = duplicate_round(tables=1, boards=1, seed="bogus")
    admin = get_user_model().objects.create_superuser("td", password="pw")
    client = Client()
    client.force_login(admin)
    base = f"/organizer/events/{event.slug}"
    assert client.post(f"{base}/rounds/{round_.number}/bogus/").status_code == 404
    stage = stages.stage_create(event=event, actor=admin)
    assert client.post(f"{base}/stages/{stage.number}/bogus/").status_code == 404
