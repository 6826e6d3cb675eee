"""The big screen on a projector, in headless Chromium: the room's part (boards in play, late
tables) refreshes by itself; with ``?cycle=S`` it shows one page at a time, the room, then the
standings a screenful at a time, then the traveller of each board everyone may see, each for S
seconds under a visible countdown, and starts again; a board still being played never comes
up."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.browser.chromium import CHROMIUM, chromium, on_server
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify
from tournaments.web import public as views_public
from tournaments.web import screen as views_screen

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (apt install chromium)",
    ),
]


def test_the_screen_cycles_through_the_room_the_standings_and_the_travellers(
    live_server, monkeypatch
) -> None:
    cache.clear()
    # Two seconds a page keeps the test short; the site itself takes no fewer than five.
    monkeypatch.setattr(views_screen, "CYCLE_MIN_SECONDS", 1)
    world = build_world(seed="cycle-browser", tables=4, boards=2)
    boards = {b.number: b for b in world.boards}
    # Board 1 at every table (open), board 2 at three tables of four (under embargo).
    for table in world.tables:
        for number in (1, 2) if table.number < 4 else (1,):
            board = boards[number]
            game = game_submit(table=table, board=board, record=bot_record(board, table))
            game_verify(game_id=game.pk)
    standings_recompute(event_id=world.event.pk)
    url = f"{live_server.url}/events/{world.event.slug}/screen/?cycle=2"

    with chromium() as browser:
        # A short projector: the twelve players' standings take more than one screenful.
        page = browser.new_page(viewport={"width": 1024, "height": 420})
        seen: list[str] = []
        page.on("console", lambda m: seen.append(m.text) if m.type == "error" else None)
        page.goto(url)
        room = page.locator("#screen-seating")
        standings = page.locator("#screen-standings")
        traveller = page.locator("#screen-board-1")
        timer = page.locator("#cycle-timer")
        expect(room).to_be_visible()
        expect(standings).to_be_hidden()
        expect(traveller).to_be_hidden()
        expect(timer).to_be_visible()
        assert re.search(r"\d", timer.inner_text())
        assert page.locator("#screen-board-2").count() == 0

        # The countdown runs.
        first = timer.inner_text()
        expect(timer).not_to_have_text(first, timeout=3_000)

        expect(standings).to_be_visible(timeout=5_000)
        expect(room).to_be_hidden()
        # The standings a screenful at a time: the first page, then the next one under it.
        label = page.locator("#cycle-timer .cycle-page")
        expect(label).to_have_text(re.compile(r"1\s*/\s*[2-9]"))
        top = page.locator("#standings tbody tr").first
        expect(top).to_be_in_viewport()
        expect(label).to_have_text(re.compile(r"2\s*/\s*[2-9]"), timeout=5_000)
        expect(top).not_to_be_in_viewport()

        expect(traveller).to_be_visible(timeout=15_000)
        expect(standings).to_be_hidden()
        assert page.locator("#screen-board-1 tbody tr").count() == 4

        # After the last page the cycle starts again from the room.
        expect(room).to_be_visible(timeout=15_000)
        assert not seen, seen


def test_the_room_part_of_the_screen_refreshes_by_itself(live_server, monkeypatch) -> None:
    cache.clear()
    monkeypatch.setattr(views_public, "REFRESH_SECONDS", 1)
    world = build_world(seed="room-refresh", tables=3, boards=1)
    board = world.boards[0]
    for table in world.tables[:2]:
        game_submit(table=table, board=board, record=bot_record(board, table))
    url = f"{live_server.url}/events/{world.event.slug}/screen/"

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        progress = page.locator("#screen-boards [data-board='1']")
        expect(progress).to_have_attribute("data-finished", "2")
        # Two tables finished the board, the third did not: it is behind the room.
        expect(page.locator("#screen-late [data-late-table]")).to_have_count(1)
        expect(page.locator("#screen-late [data-late-table='3']")).to_be_visible()

        last = world.tables[2]
        on_server(lambda: game_submit(table=last, board=board, record=bot_record(board, last)))
        expect(progress).to_have_attribute("data-finished", "3", timeout=5_000)
        expect(page.locator("#screen-late")).to_have_count(0)
