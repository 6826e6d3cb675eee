"""Problems a new user found on the public pages: the archive event's empty standings, a
scorecard of a player who never sat in the event, the Chinese words of calls, plays, stages and
the engine's error on a game page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.engine import format_cards, parse_cards
from tests.factories import PlayerFactory, bot_record, duplicate_round
from tournaments.models import Event
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]
DATA = Path(__file__).resolve().parent / "data" / "rlcard_rule_agents.jsonl"
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture
def archive(tmp_path: Path) -> Event:
    """An event of three imported real games: boards and games, nobody seated."""
    lines = DATA.read_text(encoding="utf-8").splitlines()[:3]
    path = tmp_path / "three.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    call_command("ddz_import_records", str(path), "--event", "Polish archive")
    return Event.objects.get(name="Polish archive")


def test_an_event_that_seats_nobody_says_so_instead_of_waiting(client, archive) -> None:
    assert archive.boards.count() == 3 and not archive.standings.exists()
    for url in (archive.get_absolute_url(), reverse("public:standings", args=[archive.slug])):
        html = client.get(url).content.decode()
        assert "seats no players, so there is nothing to rank" in html
        assert "listed by board" in html and "No standings yet" not in html
        zh = client.get(url, **ZH).content.decode()
        assert "没有安排选手入座" in zh and "No standings" not in zh


def test_a_seated_event_without_results_still_waits_for_them(client) -> None:
    event, *_ = duplicate_round(tables=1, boards=1, seed="polish-wait")
    html = client.get(event.get_absolute_url()).content.decode()
    assert "No standings yet" in html and "seats no players" not in html


def test_the_scorecard_of_a_player_without_a_seat_in_the_event_is_404(client) -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="polish-card")
    seated = tables[0].seats.get(seat="S").player
    stranger = PlayerFactory()
    for player, status in ((seated, 200), (stranger, 404)):
        for name in ("public:scorecard", "public:scorecard_csv"):
            url = reverse(name, kwargs={"slug": event.slug, "player_id": player.pk})
            assert client.get(url).status_code == status, (name, player)


@pytest.fixture
def one_table():
    """One table, one board: the bot's legal record of it and the helpers to store variants."""
    _event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="polish-zh")
    return tables[0], boards[0]


def _stored(table, board, record):
    game = game_submit(table=table, board=board, record=record, replace=True)
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
    # Wholly in Chinese (issue 12 item 5): the engine's English words only for English readers.
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
