"""The live entry replaces a stored result only on purpose, in headless Chromium on a phone:
the page names the version the table has; the game typed and submitted is refused naming it,
and the submit button becomes "Replace version 1"; if the chief replaces that version
meanwhile, pressing it is refused naming version 2 and the button follows; pressing "Replace
version 2" stores the game as version 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.models import Game
from tests.browser.chromium import (
    CHROMIUM,
    chromium,
    enter_all,
    on_server,
    phone_context,
    session_of,
)
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.tables.submission import game_submit, submission_record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

FARMERS_WIN = {"landlord": "S", "bid": 1, "winner": "farmers"}


def _quick(world, replaces=None) -> Game:
    table, board = world.tables[0], world.boards[0]
    record, _given = submission_record(table=table, board=board, submission={"quick": FARMERS_WIN})
    return game_submit(
        table=table, board=board, record=record, replaces=replaces, actor=world.users["chief"]
    )


def test_the_live_entry_asks_before_replacing_and_follows_a_newer_version(
    live_server, tmp_path: Path
) -> None:
    world = build_world(seed="browser-replace", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    record = bot_record(board, table)
    steps = [c for _s, c in record["bidding"]] + [c for _s, c in record["plays"]]
    _quick(world)
    session = session_of(world.users["referee1"])
    url = f"{live_server.url}/referee/events/{world.event.slug}/tables/{table.pk}/boards/1/"

    with chromium() as browser:
        page = phone_context(browser, live_server, session).new_page()
        page.goto(url)
        seen = page.inner_text("#version-seen")
        assert "version 1" in seen and world.users["chief"].get_username() in seen
        page.wait_for_selector("#seats tr.to-move")
        enter_all(page, steps)
        page.locator("#result").wait_for(state="visible")
        submit = page.locator("#submit")
        assert submit.inner_text() == "Submit for verification"
        submit.click()
        error = page.locator("#entry-error")
        error.wait_for(state="visible")
        assert "already has a game" in error.inner_text() and "version 1" in error.inner_text()
        page.wait_for_function("document.getElementById('submit').textContent.includes('1')")
        assert submit.inner_text() == "Replace version 1" and submit.is_enabled()
        # The refusal says which version there is now; the notice of the opened page goes.
        assert not page.locator("#version-seen").is_visible()
        assert on_server(lambda: Game.objects.count()) == 1
        # The chief replaces version 1 while the referee reads the question.
        on_server(lambda: _quick(world, replaces=1))
        submit.click()
        page.wait_for_function("document.getElementById('submit').textContent.includes('2')")
        assert "version 2" in error.inner_text()
        assert submit.inner_text() == "Replace version 2"
        page.screenshot(path=str(tmp_path / "replace.png"), full_page=True)
        submit.click()
        page.wait_for_url("**/games/*/")

    current = Game.objects.get(table=table, board=board, replaced_at__isnull=True)
    assert current.version == 3 and current.entered_by == world.users["referee1"]
    assert current.record["plays"] == record["plays"]
    assert Game.objects.filter(table=table, board=board).count() == 3
