"""Numbers that are not numbers (``abc``, ``-5``, ``²``, twenty digits) in a query string
(``?stage=``, ``?round=``, ``?with=``) are the site's own 404 page or ignored, and in an
officials' form are refused: never a server error.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.models import Stage
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def world():
    return build_world(seed="trial-errors")


def _is_site_404(response) -> None:
    assert response.status_code == 404
    html = response.content.decode()
    assert 'id="account"' in html and "Page not found" in html


def test_query_string_garbage_is_not_found_or_ignored(world) -> None:
    Stage.objects.create(event=world.event, number=1, name="Qualifying")
    board, table = world.boards[0], world.tables[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    game_verify(game_id=game.pk)
    slug = world.event.slug
    client = Client(raise_request_exception=False)
    client.force_login(world.users["organizer"])  # who sees every game of the event
    for url in (
        f"/events/{slug}/standings/?stage=abc",
        f"/events/{slug}/standings/?stage=-1",
        f"/events/{slug}/standings/?stage=%C2%B2",
        f"/events/{slug}/standings/?stage=99999999999999999999",
        f"/events/{slug}/screen/?round=-5",
        f"/events/{slug}/screen/?round=abc",
        f"/events/{slug}/screen/?round=%C2%B2",
        f"/events/{slug}/screen/?round=99999999999999999999",
        f"/games/{game.pk}/replay/?with=abc",
        f"/games/{game.pk}/replay/?with=-1",
        f"/games/{game.pk}/replay/?with=%C2%B2",
        f"/games/{game.pk}/replay/?with=99999999999999999999999",
    ):
        response = client.get(url)
        assert response.status_code in (200, 404), (url, response.status_code)
        if response.status_code == 404:
            _is_site_404(response)


def test_officials_forms_with_numbers_that_are_not_numbers_are_refused_not_a_500(world) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(world.users["organizer"])
    slug, round_ = world.event.slug, world.tables[0].round
    Stage.objects.create(event=world.event, number=1, name="Qualifying")
    for url, data in (
        (f"/organizer/events/{slug}/links/tables/", {"stage": "²"}),
        (f"/organizer/events/{slug}/links/tables/", {"round": "²"}),
        (f"/organizer/events/{slug}/links/tables/", {"round": "9" * 30}),
        (f"/organizer/events/{slug}/officials/stages/1/", {"table-1": "²"}),
        (f"/referee/events/{slug}/rounds/{round_.number}/clock/extra/", {"table": "²"}),
        (f"/referee/events/{slug}/rounds/{round_.number}/clock/extra/", {"table": "9" * 30}),
    ):
        response = client.post(url, data)
        assert response.status_code < 500, (url, data, response.status_code)
