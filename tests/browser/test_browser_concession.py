"""The live entry after a concession, in headless Chromium: the game over is said once, and
the step box takes no more steps (Undo still takes the concession back)."""

from __future__ import annotations

import pytest

from tests.browser.chromium import CHROMIUM, SHOWN, chromium, phone_context, session_of
from tests.entry_personas import build_world
from tests.factories import bot_record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

OVER = "The game is over: check the result and submit it."


def test_after_a_concession_the_game_over_is_said_once_and_the_box_is_off(live_server) -> None:
    world = build_world(seed="browser-concede", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    calls = [c for _s, c in record["bidding"]]
    plays = [c for _s, c in record["plays"]]
    assert plays, "the bot's deal must not be passed out"
    session = session_of(world.users["referee1"])
    url = f"{live_server.url}/referee/events/{world.event.slug}/tables/{table.pk}/boards/1/"
    with chromium() as browser:
        context = phone_context(browser, live_server, session)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#seats tr.to-move")
        steps = calls + plays[:1] + ["concede"]
        for i, step in enumerate(steps, start=1):
            page.keyboard.type(step)
            page.keyboard.press("Enter")
            if i < len(steps):
                page.wait_for_function(SHOWN % i)
        page.locator("#result").wait_for(state="visible")
        assert page.locator("main").inner_text().count(OVER) == 1
        assert page.locator("#step").is_disabled() and page.locator("#enter").is_disabled()
        # Undo takes the concession back: the box takes steps again.
        page.locator("#undo").click()
        page.wait_for_function("!document.getElementById('step').disabled")
        assert page.locator("#result").is_hidden()
        assert OVER not in page.locator("main").inner_text()
