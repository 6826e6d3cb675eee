"""Defects a user trial of the demo found (DEBUG off), not in a browser:

1. A NUL in the path (``/events/%00/``) answered a bare English ``text/plain`` 404: it is the
   site's own 404 page in the reader's language (the API's error shape on the JSON doors).
2. A player's link posting a check on a game that is not hers said "This link opens nothing
   now" although the link works: the page says the game is not hers, with a way back to her
   page. Error pages offer "Sign in" to an anonymous visitor, "Sign in with another account"
   only to a signed-in user.
3. A replay compared with a game of another board (``?with=``) was a 404 "Nothing is at
   /games/1/replay/": it is the replay alone, with a message that the game is not compared.
4. An illegal game's engine error showed the raw word "pass" in Chinese: the engine's pass is
   said in the reader's language wherever a play or call is shown on the game page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import EventFactory, bot_record, duplicate_round
from tournaments.archive.records import records_import
from tournaments.links import tokens
from tournaments.models import ResultCheck
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

ZH = {"headers": {"accept-language": "zh-hans"}}
DATA = Path(__file__).resolve().parent / "data"


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


# --- 1. a NUL in the path ----------------------------------------------------------------


def test_a_nul_in_the_path_is_the_sites_own_404_in_the_readers_language() -> None:
    response = Client(raise_request_exception=False, **ZH).get("/events/%00/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "页面不存在" in html and 'id="account"' in html  # the site's page, in Chinese
    assert "No page has this address." not in html
    english = Client(raise_request_exception=False).get("/events/%00/")
    assert english.status_code == 404 and "Page not found" in english.content.decode()


def test_a_nul_in_the_path_of_the_api_or_a_json_door_answers_json() -> None:
    client = Client(raise_request_exception=False)
    for url in ("/api/v1/events/%00/", "/t/abc/boards/%00/entry/"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response.json()["error"]["code"] == "not_found", url


# --- 2. a player's check on a game not hers; "Sign in" -------------------------------------


@pytest.fixture
def player_linked():
    world = build_world(seed="pages2-player")
    made = tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table1, table2 = world.tables
    board = world.boards[0]
    mine = game_submit(table=table1, board=board, record=bot_record(board, table1))
    theirs = game_submit(table=table2, board=board, record=bot_record(board, table2))
    seat = table1.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    return world, token, mine, theirs


def test_a_check_on_a_game_not_hers_says_so_with_a_way_back(player_linked) -> None:
    _world, token, _mine, theirs = player_linked
    for client, heading, text, back in (
        (Client(), "Not one of your games", "This is not one of your games.", "Back to your page"),
        (Client(**ZH), "不是你的牌局", "这不是你的牌局。", "返回你的页面"),
    ):
        response = client.post(reverse("links:check", args=[token, theirs.pk]), {"kind": "confirm"})
        assert response.status_code == 403
        html = response.content.decode()
        assert f"<h1>{heading}</h1>" in html
        assert text in html
        assert (
            "This link opens nothing now" not in html and "此链接现在无法打开任何内容" not in html
        )
        assert f'<a href="{reverse("links:player", args=[token])}">{back}</a>' in html
    assert not ResultCheck.objects.exists()


def test_a_check_outside_the_window_says_so_with_a_way_back(player_linked) -> None:
    world, token, mine, _theirs = player_linked
    world.event.correction_minutes = 0
    world.event.save(update_fields=["correction_minutes"])
    response = Client().post(reverse("links:check", args=[token, mine.pk]), {"kind": "confirm"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "<h1>This game cannot be checked now</h1>" in html
    assert "This link opens nothing now" not in html
    assert f'<a href="{reverse("links:player", args=[token])}">Back to your page</a>' in html


def _way_back(html: str) -> str:
    match = re.search(r"<main.*?</main>", html, re.S)
    return match.group(0) if match else html


def test_error_pages_offer_sign_in_to_an_anonymous_visitor(player_linked) -> None:
    world, *_rest = player_linked
    page = _way_back(Client().get("/events/no-such-event/").content.decode())
    assert ">Sign in</a>" in page and "Sign in with another account" not in page
    zh = _way_back(Client(**ZH).get("/events/no-such-event/").content.decode())
    assert ">登录</a>" in zh
    signed_in = Client()
    signed_in.force_login(world.users["player"])
    for url, status in (
        ("/events/no-such-event/", 404),
        (f"/referee/events/{world.event.slug}/", 403),
    ):
        response = signed_in.get(url)
        assert response.status_code == status
        page = _way_back(response.content.decode())
        assert "Sign in with another account" in page
        # Signed in, the sign-in page sends her straight back: the button signs out first.
        form = re.search(r'<form[^>]*action="([^"]+)"[^>]*>(.*?)</form>', page, re.S)
        assert form and form.group(1) == reverse("organizer:logout")
        assert "Sign in with another account" in form.group(2)
        following = re.search(r'name="next" value="([^"]+)"', form.group(2))
        assert following
        after = Client()
        after.force_login(world.users["player"])
        sent = after.post(form.group(1), {"next": following.group(1).replace("&amp;", "&")})
        assert sent.status_code == 302
        where = urlsplit(sent["Location"])
        assert where.path == reverse("organizer:login")
        assert parse_qs(where.query) == {"next": [url]}
        assert after.get(sent["Location"]).status_code == 200  # the sign-in form, not a bounce


# --- 3. a replay compared with a game of another board -------------------------------------


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


# --- 4. the engine's pass on the game page -------------------------------------------------


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
