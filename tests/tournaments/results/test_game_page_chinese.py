"""The game page and the replay in Chinese: a wrong result's stage and engine error, an
illegal play explained with the hand held, and the calls and passes, all in the reader's
words (the engine's English only for English readers).
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engine import format_cards, parse_cards
from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def one_table():
    """One table, one board: the bot's legal record of it and the helpers to store variants."""
    _event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="polish-zh")
    return tables[0], boards[0]


def _stored(table, board, record):
    current = Game.objects.filter(table=table, board=board, replaced_at__isnull=True).first()
    replaces = current.version if current is not None else None
    game = game_submit(table=table, board=board, record=record, replaces=replaces)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    return game


def test_game_page_in_chinese_translates_calls_passes_and_stages(client, one_table) -> None:
    table, board = one_table
    record = bot_record(board, table)
    record["declared"] = {seat: 0 for seat in record["hands"]}  # wrong on purpose
    game = _stored(table, board, record)
    assert game.status == "mismatch" and game.error["stage"] == "result"
    html = client.get(game.get_absolute_url(), **ZH).content.decode()
    # Stage of the fault: 结果 (result), never the English word.
    assert "阶段: 结果" in html
    # The engine's error from its attributes: the declared and the engine's score per seat.
    declared = "S 0, E 0, W 0"
    scored = ", ".join(f"{s} {game.score[s]:+d}" if game.score[s] else f"{s} 0" for s in "SEW")
    assert f"记录申报 {declared}；引擎计分 {scored}。" in html
    # Wholly in Chinese: the engine's English words only for English readers.
    assert game.error["message"] not in html.replace("&#x27;", "'")
    english = client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert game.error["message"] in english.replace("&#x27;", "'")
    # Calls and passes in Chinese: a bidding pass 不叫, a play pass 不要.
    calls = [c for _seat, c in record["bidding"]]
    plays = [c for _seat, c in record["plays"]]
    if "pass" in calls:
        assert ": 不叫</li>" in html
    assert "pass" in plays  # a bot game of 17 cards each has passes
    assert '<span class="cards">不要</span>' in html
    assert '<span class="cards">pass</span>' not in html and ": pass</li>" not in html


def test_an_illegal_play_is_explained_in_chinese_with_the_hand_held(client, one_table) -> None:
    table, board = one_table
    record = bot_record(board, table)
    landlord = record["plays"][0][0]
    held = [
        a + b
        for a, b in zip(
            parse_cards(record["hands"][landlord]), parse_cards(record["bottom"]), strict=True
        )
    ]
    missing = "3456789TJQKA2BR"[held.index(0)]  # a rank the landlord does not hold
    record["plays"] = [[landlord, missing]]
    record.pop("declared", None)
    game = _stored(table, board, record)
    assert game.status == "illegal" and game.error["rule"] == "R-VERIFY"
    html = client.get(game.get_absolute_url(), **ZH).content.decode()
    assert "阶段: 出牌" in html
    assert f"{landlord} 手中没有 {missing}（手牌 {format_cards(tuple(held))}）。" in html
    english = client.get(game.get_absolute_url()).content.decode()
    assert f"{landlord} does not hold {missing} (holds {format_cards(tuple(held))})." in english
    assert "Stage: play" in english


def test_replay_names_calls_and_passes_in_chinese(client, one_table) -> None:
    table, board = one_table
    game = _stored(table, board, bot_record(board, table))
    html = client.get(reverse("public:replay", args=[game.pk]), **ZH).content.decode()
    steps = json.loads(re.search(r'data-steps="([^"]*)"', html).group(1).replace("&quot;", '"'))
    actions = [s["action"] for s in steps if s["kind"] in ("call", "play")]
    assert "pass" not in actions and "不要" in actions
