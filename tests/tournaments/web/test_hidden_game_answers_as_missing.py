"""A game someone may not see yet (tournaments.core.embargo.game_visible_to: another entrant's
board during an online window, a board under embargo) answers its page and its replay exactly
as a game that does not exist: a 404, the same page, nothing of its board or table. Whoever
may see it still does.
"""

from __future__ import annotations

import re

import pytest
from django.db.models import Max
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record, online_board_play, online_event
from tournaments.tables.submission import game_submit

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _client(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    if user is not None:
        client.force_login(user)
    return client


def _missing_id() -> int:
    return (Game.objects.aggregate(top=Max("pk"))["top"] or 0) + 1000


def _page(answer, url: str) -> str:
    """The page's text, its own address and its forms' one-time tokens left out."""
    text = answer.content.decode().replace(url, "ADDRESS")
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "TOKEN", text)


def _same_as_missing(client: Client, game: Game) -> None:
    """`game`'s page and replay answer as those of an id no game has, but for the address."""
    missing = _missing_id()
    for name in ("public:game", "public:replay"):
        hidden_url = reverse(name, args=[game.pk])
        missing_url = reverse(name, args=[missing])
        hidden, absent = client.get(hidden_url), client.get(missing_url)
        assert hidden.status_code == absent.status_code == 404
        hidden_text = _page(hidden, hidden_url)
        assert hidden_text == _page(absent, missing_url)
        assert f"table {game.table.number}" not in hidden_text.lower()


def test_another_entrants_game_during_the_window_is_not_found() -> None:
    event, _organizer, (ann, bob) = online_event(entrants=2, boards=1)
    bobs = online_board_play(event, bob, 1, seed="bob")
    for who in (ann, None):
        _same_as_missing(_client(who), bobs)
    # Bob sees his own.
    assert _client(bob).get(reverse("public:game", args=[bobs.pk])).status_code == 200
    assert _client(bob).get(reverse("public:replay", args=[bobs.pk])).status_code == 200


def test_a_game_under_embargo_is_not_found_but_by_its_officials() -> None:
    world = build_world(seed="hidden-game", tables=2, boards=1)
    board, table = world.boards[0], world.tables[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    for persona in ("player", "referee2", "anonymous"):
        _same_as_missing(_client(world.users[persona]), game)
    for persona in ("organizer", "chief", "referee1"):
        page = _client(world.users[persona]).get(reverse("public:game", args=[game.pk]))
        assert page.status_code == 200 and game.record["id"] in page.content.decode()
