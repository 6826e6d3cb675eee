"""An entrant plays a board of an online event against robots in headless Chromium, against a
real ASGI server (Daphne, Redis channel layer): from his page of the event, "Play board 1", then
one tap a move until the board ends, the robots answering at once. The game is stored once
through the seat devices' write path, his page then lists it finished with its score, and
nothing his phone received (pages, JSON, socket frames) holds a robot's hand as dealt."""

from __future__ import annotations

import contextlib
import json
from types import SimpleNamespace

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Response, WebSocket

from games.models import Game
from games.notation import rank_cards
from tests.browser.chromium import CHROMIUM, chromium, on_server, phone_context, session_of
from tests.factories import online_event
from tournaments.online.play import board_seat

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

IDLE = "() => !document.body.classList.contains('sending')"
LIVE = """() => document.getElementById('live').textContent
  === JSON.parse(document.getElementById('device-texts').textContent).live"""
# The first move button a seat with its turn shows (any legal move: the robots answer it).
FIRST_MOVE = "#actions button.move >> visible=true"


def test_an_entrant_plays_a_board_against_robots_in_the_browser(asgi_server: str) -> None:
    event, _td, (user,) = online_event(entrants=1, boards=1, strength="strong")
    board = event.boards.get(number=1)
    mine = board_seat(event, 1)
    robots = [s for s in board.hands if s != mine]
    # The robots' hands as dealt (stored with suits, and by rank as a device would spell them).
    secrets = [board.hands[s] for s in robots] + [
        json.dumps(rank_cards(board.hands[s])) for s in robots
    ]
    frames: list[str] = []
    bodies: list[str] = []

    def keep_frames(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    def keep_response(response: Response) -> None:
        if response.url.startswith(asgi_server) and response.status < 300:
            # A redirect has no body to read.
            with contextlib.suppress(PlaywrightError):
                bodies.append(response.text())

    session = session_of(user)
    with chromium() as browser:
        context = phone_context(browser, SimpleNamespace(url=asgi_server), session)
        page = context.new_page()
        page.on("websocket", keep_frames)
        page.on("response", keep_response)
        page.goto(f"{asgi_server}/events/{event.slug}/online/")
        page.get_by_role("button", name="Play board 1").click()
        page.wait_for_url("**/online/boards/1/")
        page.wait_for_function(LIVE)
        assert not page.locator("#undo").is_visible()  # online play takes no step back
        for _tap in range(80):
            if page.locator("#result").is_visible():
                break
            page.wait_for_function(IDLE)
            move = page.locator(FIRST_MOVE).first
            if not move.is_visible():
                page.wait_for_timeout(100)  # the robots' answer is on its way
                continue
            move.click()
        page.locator("#result").wait_for(state="visible")
        assert page.locator("#error").is_hidden(), page.inner_text("#error")
        # One board a round online: no "Next board" (it showed, leading nowhere); the way on
        # is his boards' page.
        assert page.locator("#next").is_hidden()
        page.locator("#your-boards").click()
        page.wait_for_url(f"**/events/{event.slug}/online/")
        row = page.locator('#online-boards tr[data-board="1"]')
        assert "finished" in row.inner_text()
        context.close()

    games = on_server(
        lambda: list(Game.objects.filter(board=board, table__seats__player__user=user))
    )
    assert [g.source for g in games] == ["seat"]
    # What his phone received holds his own hand (the search below is not vacuous) and no
    # robot's hand as dealt.
    own = (board.hands[mine], json.dumps(rank_cards(board.hands[mine])))
    received = frames + bodies
    assert any(o in text for text in received for o in own)
    for text in received:
        for secret in secrets:
            assert secret not in text
