"""Error pages say why and offer a way on: a player's check refused (a game not hers, the
correction window closed) says so with a way back to her page, in her language; an error page
offers "Sign in" to an anonymous visitor and "Sign in with another account" (signing out
first, then back to the page) to a signed-in one.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import tokens
from tournaments.models import ResultCheck
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

ZH = {"headers": {"accept-language": "zh-hans"}}


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


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
        assert form and form.group(1) == reverse("account_logout")
        assert "Sign in with another account" in form.group(2)
        following = re.search(r'name="next" value="([^"]+)"', form.group(2))
        assert following
        after = Client()
        after.force_login(world.users["player"])
        sent = after.post(form.group(1), {"next": following.group(1).replace("&amp;", "&")})
        assert sent.status_code == 302
        where = urlsplit(sent["Location"])
        assert where.path == reverse("account_login")
        assert parse_qs(where.query) == {"next": [url]}
        assert after.get(sent["Location"]).status_code == 200  # the sign-in form, not a bounce
