"""An online table of three entrants (tournaments.online.tables) in headless Chromium, against a
real ASGI server (Daphne, Redis channel layer): three browser contexts signed in as three
accounts each press "Play board 1"; the first two wait, seeing who has joined live; the third
fills the table and the board starts on all three pages; each entrant taps his own moves on his
own page until the board ends. The game is stored once through the seat devices' write path, each
page lists it finished, and nothing a page received (pages, JSON, socket frames) holds another
seat's hand as dealt. And an entrant alone: when the wait ends his page has the robots fill the
table, and "Leave the table" (confirmed) hands his seat to the robot, marked on his page."""

from __future__ import annotations

import contextlib
import json
from types import SimpleNamespace

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, Response, WebSocket

from games.models import Game
from games.notation import rank_cards
from tests.browser.chromium import CHROMIUM, chromium, on_server, phone_context, session_of
from tests.factories import online_event
from tournaments.core.rules import rules_of
from tournaments.models import Seat

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

IDLE = "() => !document.body.classList.contains('sending')"
# The first move button a seat with its turn shows (any legal move).
FIRST_MOVE = "#actions button.move >> visible=true"
# The names the waiting page shows, seat by seat ("" for a seat still free).
WAITING_NAMES = """() => Array.from(document.querySelectorAll('#waiting-seats tbody td'))
  .map(td => td.classList.contains('muted') ? '' : td.textContent)"""


def _recorded(page: Page, base: str, received: list[str]) -> None:
    """Keep in `received` every socket frame and every response body `page` gets."""

    def keep_frames(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: received.append(str(payload)))

    def keep_response(response: Response) -> None:
        if response.url.startswith(base) and response.status < 300:
            with contextlib.suppress(PlaywrightError):  # a redirect has no body to read
                received.append(response.text())

    page.on("websocket", keep_frames)
    page.on("response", keep_response)


def test_three_entrants_play_one_online_table_in_three_browsers(asgi_server: str) -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True, seat_wait_seconds=600)
    seats = rules_of(event).seats
    board = event.boards.get(number=1)
    names = ["Entrant 1", "Entrant 2", "Entrant 3"]
    received: dict[str, list[str]] = {s: [] for s in seats}
    home = f"{asgi_server}/events/{event.slug}/online/"
    sessions = [session_of(user) for user in users]  # before Playwright's loop runs here
    with chromium() as browser:
        pages: dict[str, Page] = {}
        for i, (seat, session) in enumerate(zip(seats, sessions, strict=True)):
            context = phone_context(browser, SimpleNamespace(url=asgi_server), session)
            page = context.new_page()
            _recorded(page, asgi_server, received[seat])
            page.goto(home)
            page.get_by_role("button", name="Play board 1").click()
            page.wait_for_url("**/online/boards/1/")
            pages[seat] = page
            if i < len(seats) - 1:
                # Seated in the rules' order as they arrive; the table waits for the others,
                # and every waiting page hears each arrival live.
                page.locator("#waiting-seats").wait_for()
                expected = names[: i + 1] + [""] * (len(seats) - i - 1)
                for waiting in pages.values():
                    waiting.wait_for_function(
                        f"() => ({WAITING_NAMES})().join('|') === {json.dumps('|'.join(expected))}"
                    )
        # The third filled the table: every page is the seat's device now, his own seat.
        for seat, page in pages.items():
            page.locator("#device").wait_for()
            assert page.locator("#device").get_attribute("data-seat") == seat
            assert page.locator("#waiting-seats").count() == 0
            assert page.locator("#leave").is_visible()
        for _tap in range(300):
            if all(p.locator("#result").is_visible() for p in pages.values()):
                break
            tapped = False
            for page in pages.values():
                if page.locator("#result").is_visible():
                    continue
                page.wait_for_function(IDLE)
                move = page.locator(FIRST_MOVE).first
                if move.is_visible():
                    move.click()
                    tapped = True
            if not tapped:
                next(iter(pages.values())).wait_for_timeout(100)  # a page's view is on its way
        for page in pages.values():
            page.locator("#result").wait_for(state="visible")
            assert page.locator("#error").is_hidden(), page.inner_text("#error")
            assert page.locator("#leave").is_hidden()  # nothing to leave once the board ended
        for seat, page in pages.items():
            page.goto(home)
            row = page.locator('#online-boards tr[data-board="1"]')
            assert "finished" in row.inner_text() and seat in row.inner_text()
        for page in pages.values():
            page.context.close()

    def stored() -> list[tuple[str, dict[str, int]]]:
        games = Game.objects.filter(board=board, replaced_at__isnull=True)
        return [
            (g.source, {s.seat: s.player.user_id for s in Seat.objects.filter(table=g.table)})
            for g in games
        ]

    games = on_server(stored)
    assert games == [("seat", {s: u.pk for s, u in zip(seats, users, strict=True)})]
    for seat in seats:
        mine = (board.hands[seat], json.dumps(rank_cards(board.hands[seat])))
        assert any(m in text for text in received[seat] for m in mine)  # not vacuous
        for other in seats:
            if other == seat:
                continue
            for secret in (board.hands[other], json.dumps(rank_cards(board.hands[other]))):
                for text in received[seat]:
                    assert secret not in text, (seat, other)


def test_robots_fill_the_table_when_the_wait_ends_and_take_over_a_leaver(asgi_server: str) -> None:
    event, _td, (user,) = online_event(entrants=1, boards=1, tables=True, seat_wait_seconds=3)
    seats = rules_of(event).seats
    session = session_of(user)
    home = f"{asgi_server}/events/{event.slug}/online/"
    with chromium() as browser:
        context = phone_context(browser, SimpleNamespace(url=asgi_server), session)
        page = context.new_page()
        page.goto(home)
        page.get_by_role("button", name="Play board 1").click()
        page.locator("#waiting-seats").wait_for()
        expected = "|".join(["Entrant 1"] + [""] * (len(seats) - 1))
        assert page.evaluate(WAITING_NAMES) == expected.split("|")
        # The countdown ends: the page asks, the robots fill the free seats, the board starts.
        page.locator("#device").wait_for(timeout=20_000)
        names = page.locator("#table-seats tbody td:nth-child(2)").all_inner_texts()
        assert names == ["Entrant 1"] + [f"Robot {s}" for s in seats[1:]]
        # He leaves (confirming): the robot plays his seat to the end, and his page says so.
        page.on("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Leave the table").click()
        page.wait_for_url(home)
        row = page.locator('#online-boards tr[data-board="1"]').inner_text()
        context.close()

    def mark() -> int | None:
        return Seat.objects.get(table__round__event=event, player__user=user).robot_from

    at = on_server(mark)
    assert at is not None and f"played by the robot from move {at + 1}" in row
