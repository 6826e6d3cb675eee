"""Who sees a game or a board's results while the board is under embargo (tournaments.core.embargo):
organizers and chief referees everything, a referee only the games of the tables assigned to
him, players and the public nothing; once the board opens, everyone everything. Each page
and endpoint that shows a game or a board's results is asked as each persona."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.entry_personas import PERSONAS, build_world
from tests.factories import bot_record
from tournaments.core import embargo
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

ORG, CHIEF, R1, R2, PLAYER, ANON = PERSONAS


@pytest.fixture
def world():
    """Two tables, one board: table 1 (referee1's) and table 2 (referee2's) each have a game
    once `open` is called; until then only table 1 has one and the board is under embargo."""
    cache.clear()
    w = build_world(seed="visibility", tables=2, boards=1)
    board = w.boards[0]
    w.games = []
    game = game_submit(table=w.tables[0], board=board, record=bot_record(board, w.tables[0]))
    game_verify(game_id=game.pk)
    w.games.append(game)
    return w


def _open(world) -> None:
    board, table = world.boards[0], world.tables[1]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    game_verify(game_id=game.pk)
    world.games.append(game)
    cache.clear()


def _page(world, persona, url) -> tuple[int, str]:
    client = Client()
    if world.users[persona] is not None:
        client.force_login(world.users[persona])
    response = client.get(url)
    return response.status_code, response.content.decode()


def _api(world, persona, url) -> int:
    client = APIClient()
    if world.users[persona] is not None:
        client.force_authenticate(world.users[persona])
    return client.get(url).status_code


def _shows_game(world, persona, game) -> dict[str, bool]:
    record_id = game.record["id"]
    _s, page = _page(world, persona, reverse("public:game", kwargs={"pk": game.pk}))
    _s, replay = _page(world, persona, reverse("public:replay", kwargs={"pk": game.pk}))
    return {
        "game page": record_id in page,
        "replay": 'id="replay"' in replay,
        "api game": _api(world, persona, reverse("api:game", kwargs={"pk": game.pk})) == 200,
    }


# Under the embargo, table 1's game: its referee, the chief and the organizer see it.
SEES_TABLE1 = {ORG: True, CHIEF: True, R1: True, R2: False, PLAYER: False, ANON: False}


@pytest.mark.parametrize("persona", PERSONAS)
def test_an_embargoed_game_is_shown_to_its_tables_referee_only(world, persona) -> None:
    game = world.games[0]
    assert not embargo.board_is_open(world.boards[0])
    expected = SEES_TABLE1[persona]
    assert _shows_game(world, persona, game) == dict.fromkeys(
        ("game page", "replay", "api game"), expected
    )
    assert embargo.game_visible_to(world.users[persona], game) is expected


# The board's games at every table (API) and its traveller, under the embargo.
BOARD_GAMES = {ORG: 200, CHIEF: 200, R1: 200, R2: 200, PLAYER: 403, ANON: 401}
TRAVELLER = {ORG: True, CHIEF: True, R1: False, R2: False, PLAYER: False, ANON: False}


@pytest.mark.parametrize("persona", PERSONAS)
def test_an_embargoed_board_is_shown_by_table(world, persona) -> None:
    board = world.boards[0]
    url = reverse("api:board-games", kwargs={"slug": world.event.slug, "number": board.number})
    client = APIClient()
    if world.users[persona] is not None:
        client.force_authenticate(world.users[persona])
    response = client.get(url)
    assert response.status_code == BOARD_GAMES[persona]
    if response.status_code == 200:
        tables = [g["table"] for g in response.json()]
        # Referee 2's table has no game yet: he sees none; referee 1 sees his table's only.
        expected = {ORG: [world.tables[0].pk], CHIEF: [world.tables[0].pk]}.get(
            persona, [world.tables[0].pk] if persona == R1 else []
        )
        assert tables == expected
    _s, traveller = _page(world, persona, board.get_absolute_url())
    assert ('id="traveller"' in traveller) is TRAVELLER[persona]
    # The event's archive holds every game: organizers and chief referees only.
    status, _c = _page(world, persona, reverse("public:archive", kwargs={"slug": world.event.slug}))
    assert (status == 200) is TRAVELLER[persona]


@pytest.mark.parametrize("persona", PERSONAS)
def test_an_open_board_is_public(world, persona) -> None:
    _open(world)
    board = world.boards[0]
    assert embargo.board_is_open(board)
    for game in world.games:
        assert all(_shows_game(world, persona, game).values())
    _s, traveller = _page(world, persona, board.get_absolute_url())
    assert 'id="traveller"' in traveller
    url = reverse("api:board-games", kwargs={"slug": world.event.slug, "number": board.number})
    assert _api(world, persona, url) == 200
