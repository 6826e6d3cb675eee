"""A player's scorecard (page and CSV) exists only in an event she has a seat in: any other
player's is a 404.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, duplicate_round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def test_the_scorecard_of_a_player_without_a_seat_in_the_event_is_404(client) -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="polish-card")
    seated = tables[0].seats.get(seat="S").player
    stranger = PlayerFactory()
    for player, status in ((seated, 200), (stranger, 404)):
        for name in ("public:scorecard", "public:scorecard_csv"):
            url = reverse(name, kwargs={"slug": event.slug, "player_id": player.pk})
            assert client.get(url).status_code == status, (name, player)
