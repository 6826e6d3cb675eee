"""An online table of three entrants in headless Chromium against a real ASGI server (Daphne,
Redis channel layer): two pages open, one in English, one in Chinese; the third entrant leaves
the table and both pages show it at once, live ("Entrant 3 left: the robot plays that seat from
move N.", his row marked as the robot's); the board played to its end, each page's result line
says who won and the verdict once, the Chinese one without an English word."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from tests.browser.chromium import CHROMIUM, chromium, on_server, phone_context, session_of
from tests.factories import online_event, online_table_seated, online_table_step
from tournaments.core.rules import rules_of
from tournaments.online import play
from tournaments.tables import live

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

LIVE = """() => document.getElementById('live').textContent
  === JSON.parse(document.getElementById('device-texts').textContent).live"""


def test_the_others_see_a_take_over_live_and_the_result_once(asgi_server: str) -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    seats = rules_of(event).seats
    devices = online_table_seated(event, users, 1)
    table, board = devices[seats[0]][0].table, devices[seats[0]][0].board
    sessions = [session_of(user) for user in users[:2]]  # before Playwright's loop runs here
    url = f"{asgi_server}/events/{event.slug}/online/boards/1/"
    left = seats[2]

    def leave() -> int | None:
        return play.online_board_leave(event=event, user=users[2], number=1)

    def play_to_the_end() -> None:
        others = {s: devices[s] for s in seats[:2]}
        state = live.live_state(table=table, board=board)
        for _turn in range(200):
            if state.game is not None:
                return
            state = online_table_step(others, state)
        raise AssertionError("the board did not end")

    with chromium() as browser:
        pages = {}
        for seat, session, language in zip(seats, sessions, ("en", "zh-hans"), strict=False):
            server = SimpleNamespace(url=asgi_server)
            context = phone_context(browser, server, session, language=language)
            page = context.new_page()
            page.goto(url)
            page.wait_for_function(LIVE)
            assert page.locator("#taken-over").is_hidden()
            assert page.locator("#table-seats tr.robot").count() == 0
            pages[seat] = page
        at = on_server(leave)
        assert at is not None
        english, chinese = pages[seats[0]], pages[seats[1]]
        note = english.locator("#taken-over li")
        note.wait_for()
        assert note.all_inner_texts() == [
            f"Entrant 3 left: the robot plays that seat from move {at + 1}."
        ]
        row = english.locator(f'#table-seats tr[data-seat="{left}"]')
        assert "robot" in (row.get_attribute("class") or "")
        assert row.locator(".robot-from").inner_text() == f"played by the robot from move {at + 1}"
        mark = chinese.locator(f'#table-seats tr[data-seat="{left}"].robot .robot-from')
        mark.wait_for()
        assert mark.inner_text() == f"从第 {at + 1} 步起由机器人代打"
        on_server(play_to_the_end)
        for page in pages.values():
            page.locator("#result").wait_for(state="visible")
            page.wait_for_function("() => document.getElementById('result-line').textContent")
        line = english.inner_text("#result-line")
        # Where the robot takes over depends on the moment: its bids may leave every seat
        # passing, and a passed-out board is a result too (R-PASSOUT).
        assert re.fullmatch(
            r"(The (landlord wins|farmers win)|Passed out) · Recorded: game \d+, "
            r"(pending|verified)\.",
            line,
        ), line
        assert len(re.findall("pending|verified", line)) == 1, line
        zh = chinese.inner_text("#result-line")
        assert zh and re.search("[A-Za-z]", zh) is None, zh
        # The mark stays on the row once the board is over.
        assert english.locator(f'#table-seats tr[data-seat="{left}"].robot').count() == 1
        for page in pages.values():
            page.context.close()
