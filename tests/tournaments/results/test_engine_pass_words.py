"""The engine's pass on the game page is said in the reader's language: an illegal lead
pass in the engine's error and in the tricks, an illegal call after the bidding ended.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.factories import EventFactory, bot_record, duplicate_round
from tests.paths import DATA_DIR
from tournaments.archive.records import records_import
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

ZH = {"headers": {"accept-language": "zh-hans"}}
DATA = DATA_DIR


def test_an_illegal_pass_on_the_game_page_is_in_the_readers_language() -> None:
    line = json.loads(
        (DATA / "rlcard_rule_agents.jsonl").read_text(encoding="utf-8").splitlines()[0]
    )
    # S won the trick and leads again: a pass there is illegal.
    line["plays"][3] = ["S", "pass"]
    line["id"] = "an-illegal-lead-pass"
    event = EventFactory(rules=None)
    report = records_import(event=event, lines=[json.dumps(line)])
    assert report.stored == 1
    game = Game.objects.get(record_id="an-illegal-lead-pass")
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.error and game.error["cards"] == "pass"
    html = Client(**ZH).get(reverse("public:game", kwargs={"pk": game.pk})).content.decode()
    error = re.search(r'<div class="error" id="engine-error">.*?</div>', html, re.S)
    assert error
    assert "不要" in error.group(0)
    assert "pass" not in error.group(0).replace('lang="en"', "")
    tricks = re.search(r'<ol id="tricks".*?</ol>', html, re.S)
    assert tricks and "pass" not in tricks.group(0) and "不要" in tricks.group(0)


def test_an_illegal_call_on_the_game_page_is_in_the_readers_language() -> None:
    _event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="pages2-call")
    table, board = tables[0], boards[0]
    record = bot_record(board, table)
    seats = ["S", "E", "W"]
    first = seats.index(record["bidding"][0][0])
    order = seats[first:] + seats[:first]
    # Three passes end the deal (passed out); a fourth pass is a call after the end.
    record["bidding"] = [[seat, "pass"] for seat in order] + [[order[0], "pass"]]
    game = game_submit(table=table, board=board, record=record)
    game_verify(game_id=game.pk)
    game.refresh_from_db()
    assert game.error and game.error["stage"] == "bidding" and game.error["cards"] == "pass"
    html = Client(**ZH).get(reverse("public:game", kwargs={"pk": game.pk})).content.decode()
    error = re.search(r'<div class="error" id="engine-error">.*?</div>', html, re.S)
    assert error and "叫牌: 不叫" in error.group(0)
    assert "pass" not in error.group(0)
