"""The organizers' admin: every screen opens, and a game added there takes the one write path."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Game, Status
from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

MODELS = [
    ("tournaments", "player"),
    ("tournaments", "event"),
    ("tournaments", "round"),
    ("tournaments", "table"),
    ("tournaments", "standing"),
    ("games", "board"),
    ("games", "game"),
]


@pytest.fixture
def data():
    event, _round, tables, boards = duplicate_round(tables=3, seed="admin")
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    return event, tables, boards, game


@pytest.mark.parametrize("app, model", MODELS)
def test_every_admin_screen_opens(admin_client, data, app, model) -> None:
    assert admin_client.get(reverse(f"admin:{app}_{model}_changelist")).status_code == 200
    if model != "standing":
        assert admin_client.get(reverse(f"admin:{app}_{model}_add")).status_code == 200
    obj = {"event": data[0], "table": data[1][0], "board": data[2][0], "game": data[3]}.get(model)
    if obj is not None:
        url = reverse(f"admin:{app}_{model}_change", args=[obj.pk])
        assert admin_client.get(url).status_code == 200


def test_a_game_added_in_the_admin_goes_through_the_service(
    admin_client, data, django_capture_on_commit_callbacks
) -> None:
    _event, tables, boards, _game = data
    record = bot_record(boards[0], tables[1])
    url = reverse("admin:games_game_add")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = admin_client.post(
            url, {"table": tables[1].pk, "board": boards[0].pk, "record": json.dumps(record)}
        )
    assert response.status_code == 302
    game = Game.objects.get(table=tables[1])
    # After commit: the verification, and the notice to the table's live devices.
    assert game.status == Status.PENDING and len(callbacks) == 2
    bad = admin_client.post(
        url, {"table": tables[2].pk, "board": boards[0].pk, "record": '{"x": 1}'}
    )
    assert bad.status_code == 200 and "This is not a game record" in bad.content.decode()
    assert not Game.objects.filter(table=tables[2]).exists()


def test_reverify_action(admin_client, data) -> None:
    game = data[3]
    response = admin_client.post(
        reverse("admin:games_game_changelist"),
        {"action": "reverify", "_selected_action": [game.pk]},
    )
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).status == Status.PENDING
