"""Every audited admin screen's "History" link opens: for a model that keeps every version
(django-simple-history) its versions, for one that does not (a game: its record is the history,
and the audit log keeps its changes) Django's own log of admin actions. A trial found a 500 on
a game's history page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


def test_the_history_page_of_every_audited_object_opens(admin_client) -> None:
    event, round_, tables, boards = duplicate_round(tables=3, seed="history")
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    for name, obj in [
        ("games_game", game),
        ("games_board", boards[0]),
        ("tournaments_event", event),
        ("tournaments_round", round_),
        ("tournaments_table", tables[0]),
    ]:
        response = admin_client.get(reverse(f"admin:{name}_history", args=[obj.pk]))
        assert response.status_code == 200, name
        assert str(obj) in response.content.decode(), name
