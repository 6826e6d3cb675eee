"""An online table of three entrants in headless Chromium against a real ASGI server (Daphne,
Redis channel layer), with a move time of 5 s and no periodic sweep running: two entrants' pages
stay open and nobody taps nor reloads. Each page counts the seconds of the move down ("Your
turn: 4 s" on the page of the seat to move, "S to move: 4 s" on the others); once they ran out
the pages ask for the position by themselves, so the robot takes over each seat whose time ran
out, and the moves appear on the pages until the robots end the board. Then the pages show the
result and no leftover hand nor anything to play."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import Page, WebSocket

from tests.browser.chromium import CHROMIUM, chromium, on_server, phone_context, session_of
from tests.factories import online_event
from tournaments.core.rules import rules_of
from tournaments.models import Table
from tournaments.online import play
from tournaments.tables import live

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

MOVE_SECONDS = 5
LIVE = """() => document.getElementById('live').textContent
  === JSON.parse(document.getElementById('device-texts').textContent).live"""
# The page's countdown and the seat its table marks to move, read at once.
CLOCK = """() => [document.getElementById('clock').textContent,
  (document.querySelector('#table-seats tr.to-move') || {dataset: {}}).dataset.seat || '']"""


def _asks(page: Page, sent: list[str]) -> None:
    """Keep in `sent` every request for the position `page` sends over its socket."""

    def keep(ws: WebSocket) -> None:
        ws.on(
            "framesent",
            lambda payload: sent.append(str(payload)) if "position" in str(payload) else None,
        )

    page.on("websocket", keep)


def test_the_pages_have_the_robot_play_every_move_whose_time_ran_out(asgi_server: str) -> None:
    event, _td, users = online_event(
        entrants=3, boards=1, tables=True, move_seconds=MOVE_SECONDS, seat_wait_seconds=600
    )
    seats = rules_of(event).seats
    sessions = [session_of(user) for user in users[:2]]  # before Playwright's loop runs here
    for user in users[:2]:
        play.online_board_start(event=event, user=user, number=1)
    url = f"{asgi_server}/events/{event.slug}/online/boards/1/"

    def third_arrives() -> str:
        table = play.online_board_start(event=event, user=users[2], number=1)
        board = event.boards.get(number=1)
        return str(live.live_state(table=table, board=board).position.to_move)

    def robot_from() -> dict[str, int | None]:
        table = Table.objects.get(round__event=event)
        return {s.seat: s.robot_from for s in table.seats.all()}

    with chromium() as browser:
        pages: dict[str, Page] = {}
        asks: dict[str, list[str]] = {}
        for seat, session in zip(seats, sessions, strict=False):
            context = phone_context(browser, SimpleNamespace(url=asgi_server), session)
            page = context.new_page()
            asks[seat] = []
            _asks(page, asks[seat])
            page.goto(url)
            page.locator("#waiting-seats").wait_for()
            pages[seat] = page
        # The third fills the table: the board starts, its first move's clock with it.
        mover = on_server(third_arrives)
        for seat, page in pages.items():
            page.locator("#device").wait_for()
            page.wait_for_function(LIVE)
            page.evaluate("() => { window.notReloaded = true; }")
            text, marked = page.evaluate(CLOCK)
            assert marked == mover
            said = r"Your turn: (\d) s" if seat == mover else rf"{mover} to move: (\d) s"
            shown = re.fullmatch(said, text)
            assert shown and 0 <= int(shown.group(1)) <= MOVE_SECONDS, text
            n = int(shown.group(1))
            if n < 2:
                continue  # a slow machine: too late to see it count down
            # Counted down every second by the page itself.
            page.wait_for_function(
                f"() => /: (\\d) s$/.test(document.getElementById('clock').textContent)"
                f" && +document.getElementById('clock').textContent.match(/: (\\d) s$/)[1] < {n}",
                timeout=3_000,
            )
        # Nobody taps: each entrant's time runs out in turn, the robot takes his seat over,
        # and once no entrant is left the robots play the board to its end.
        for page in pages.values():
            page.locator("#steps li").first.wait_for(state="attached", timeout=15_000)
            page.locator("#result").wait_for(state="visible", timeout=60_000)
            page.wait_for_function("() => document.getElementById('result-line').textContent")
        taken = on_server(robot_from)
        assert all(taken[s] is not None for s in seats), taken
        for seat, page in pages.items():
            assert page.evaluate("() => window.notReloaded === true")  # by itself, no reload
            # The board is over: no leftover hand, nothing to play, no countdown.
            assert page.locator("#hand-box").is_hidden()
            assert page.locator("#play-picked").is_hidden()
            assert page.locator("#actions").is_hidden()
            assert page.locator("#clock").is_hidden()
            # One ask a deadline at most (three entrants' moves ran out), none once it ended.
            assert 1 <= len(asks[seat]) <= len(seats) + 1, asks[seat]
        done = {seat: len(sent) for seat, sent in asks.items()}
        next(iter(pages.values())).wait_for_timeout(2_500)
        assert {seat: len(sent) for seat, sent in asks.items()} == done
        for page in pages.values():
            page.context.close()
