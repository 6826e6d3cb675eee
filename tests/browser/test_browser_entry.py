"""A referee enters a whole game by keyboard in headless Chromium on a 375-pixel-wide screen:
the calls and plays typed one by one, an illegal step refused with its message, undone with
Ctrl+Z, then the game submitted; the real Celery worker verifies it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.test import Client

from games.models import Game, Status
from tests.browser.chromium import CHROMIUM, SHOWN, chromium, enter, enter_all, phone_context
from tests.conftest import Worker, wait_for
from tests.entry_personas import build_world
from tests.factories import bot_record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_referee_enters_a_whole_game_by_keyboard(
    celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-entry", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    calls = [c for _s, c in record["bidding"]]
    plays = [c for _s, c in record["plays"]]
    assert plays, "the bot's deal must not be passed out"
    client = Client()
    client.force_login(world.users["referee1"])
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert client.session[SESSION_KEY]
    url = f"{live_server.url}/referee/events/{world.event.slug}/tables/{table.pk}/boards/1/"

    with chromium() as browser:
        context = phone_context(browser, live_server, session)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#seats tr.to-move")
        assert page.inner_text("#step-label").startswith("Call for ")
        enter_all(page, calls)
        # In the play the box asks for cards, not for a call.
        assert page.inner_text("#step-label").startswith("Cards for ")
        # R-LEAD: the landlord leads and may not pass; the step is refused with its rule.
        page.keyboard.type("p")
        page.keyboard.press("Enter")
        error = page.locator("#entry-error")
        error.wait_for(state="visible")
        assert "R-LEAD" in error.inner_text() and "must play" in error.inner_text()
        page.keyboard.press("Control+a")
        page.keyboard.press("Delete")
        # Undo the last call, then type it again.
        page.keyboard.press("Control+z")
        page.wait_for_function(SHOWN % (len(calls) - 1))
        enter(page, calls[-1], len(calls))
        enter_all(page, plays, start=len(calls) + 1)
        page.locator("#result").wait_for(state="visible")
        scores = page.locator("#result-score td").all_inner_texts()
        assert [int(s) for s in scores] == list(record["declared"].values())
        page.screenshot(path=str(tmp_path / "entry.png"), full_page=True)
        wide = page.evaluate("document.documentElement.scrollWidth")
        widest = page.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect()"
            ".right > 375).map(e => e.tagName + '#' + e.id + '.' + e.className).slice(0, 5)"
        )
        assert wide <= 375, f"the page is {wide} px wide: {widest}"
        # Keyboard only: the submit button has the focus once the game is over.
        page.keyboard.press("Enter")
        page.wait_for_url("**/games/*/")

    game = Game.objects.get(table=table, board=board)
    assert game.entered_by == world.users["referee1"] and game.source == "api"
    assert game.record["plays"] == record["plays"]
    wait_for(
        lambda: Game.objects.filter(pk=game.pk, status=Status.VERIFIED).exists(),
        what="the worker to verify the entered game",
    )
    assert Game.objects.get(pk=game.pk).score == record["declared"]
