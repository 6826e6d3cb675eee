"""The replay viewer: its first and last buttons are labelled text, and a replay compared
with a game of another board (``?with=``) is the replay alone with a message saying so, in
the reader's language, while a game of the same board is still shown beside it.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

ZH = {"headers": {"accept-language": "zh-hans"}}


def test_the_replay_buttons_are_text_with_labels(client) -> None:
    from tests.factories import duplicate_round

    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="replay")
    for table in tables:
        game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
    game = Game.objects.filter(board=boards[0]).first()
    page = client.get(reverse("public:replay", args=[game.pk])).content.decode()
    assert "⏮" not in page and "⏭" not in page
    for button, label in (("replay-first", "First step"), ("replay-last", "Last step")):
        assert f'id="{button}" aria-label="{label}"' in page


def test_a_replay_compared_with_a_game_of_another_board_is_shown_alone_with_a_message() -> None:
    event, _round, tables, boards = duplicate_round(tables=2, boards=2, seed="pages2-replay")
    games = {}
    for board in boards:
        for table in tables:
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)
            games[board.number, table.number] = game
    game, other_board = games[1, 1], games[2, 2]
    url = reverse("public:replay", kwargs={"pk": game.pk})
    response = Client().get(f"{url}?with={other_board.pk}")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="replay-panel"') == 1
    assert (
        f"Game {other_board.pk} is not a game of board 1 that can be shown beside this one" in html
    )
    assert "Nothing is at" not in html
    zh = Client(**ZH).get(f"{url}?with={other_board.pk}").content.decode()
    assert f"牌局 {other_board.pk} 不是第 1 副牌中可以并排显示的牌局" in zh
    # A game of the same board is still compared.
    same = games[1, 2]
    html = Client().get(f"{url}?with={same.pk}").content.decode()
    assert html.count('class="replay-panel"') == 2
