"""The standings CSV of the public site has the columns of ``manage.py ddz_standings``, the
decimal percentage rounded half up.
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_web_standings_csv_has_the_commands_columns(client) -> None:
    import csv as csv_module

    from tournaments.management.commands.ddz_standings import FIELDS
    from tournaments.models import Standing

    event = EventFactory()
    for position, (player, percentage) in enumerate(
        (("Ann", "775/12"), ("Bo", "129/2"), ("Chen", "1/200")), start=1
    ):
        Standing.objects.create(
            event=event,
            player=PlayerFactory(name=player),
            method="matchpoints",
            position=position,
            rank=str(position),
            total="1",
            top="2",
            percentage=percentage,
            boards=1,
        )
    body = client.get(reverse("public:standings_csv", args=[event.slug])).content.decode()
    rows = list(csv_module.DictReader(io.StringIO(body)))
    assert set(FIELDS) <= set(rows[0])
    # 775/12 = 64.583…, 129/2 = 64.5, 1/200 = 0.005 → half up.
    assert [r["percentage_decimal"] for r in rows] == ["64.58", "64.50", "0.01"]
