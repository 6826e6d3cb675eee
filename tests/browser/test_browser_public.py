"""The public site in headless Chromium, in Chinese: live standings that refresh by themselves
and a traveller (Debian's chromium through Playwright, on a phone-sized screen)."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache
from django.db import connection
from playwright.sync_api import expect

from tests.browser.chromium import CHROMIUM, chromium
from tests.factories import bot_record, duplicate_round
from tournaments.standings.penalties import penalty_add
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify
from tournaments.web import public as views

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (apt install chromium)",
    ),
]


def penalise(event, player) -> None:
    penalty_add(event=event, player=player, points="1", reason="late")
    standings_recompute(event_id=event.pk)
    connection.close()


def test_live_standings_and_a_traveller_in_chinese(live_server, monkeypatch) -> None:
    cache.clear()
    monkeypatch.setattr(views, "REFRESH_SECONDS", 1)
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="browser")
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    last = (
        event.standings.filter(stage__isnull=True).order_by("-position").select_related("player")[0]
    )
    standings_url = f"{live_server.url}/events/{event.slug}/standings/"

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(standings_url)
        page.select_option("select[name=language]", "zh-hans")
        expect(page.locator("h1")).to_have_text("排名")
        rows = page.locator("#standings tbody tr")
        expect(rows).to_have_count(9)
        assert "比赛分" in page.locator("#standings thead").inner_text()

        # A penalty moves the last player's total: the open page shows it by itself.
        # (In another thread: Playwright runs an event loop in this one.)
        worker = threading.Thread(target=penalise, args=(event, last.player))
        worker.start()
        worker.join()
        row = page.locator("#standings tbody tr", has_text=last.player.name)
        expect(row).to_contain_text("−1", timeout=10_000)

        page.goto(f"{live_server.url}{boards[0].get_absolute_url()}")
        expect(page.locator("h1")).to_contain_text("牌副成绩对照")
        expect(page.locator("h1")).to_contain_text("第 1 副")
        head = page.locator("#traveller thead").inner_text()
        assert "叫分" in head and "地主" in head
        tables_rows = page.locator("#traveller tbody tr")
        expect(tables_rows).to_have_count(3)
        # Each seat's matchpoints over three tables add up to n(n-1) = 6.
        for column in (3, 5, 7):
            cells = tables_rows.locator(f"td:nth-child({column})").all_inner_texts()
            assert sum(float(c) for c in cells) == 6
        assert any(s in page.locator("#hands").inner_text() for s in "♠♥♦♣")
        page.locator("#traveller a", has_text="复盘").first.click()
        expect(page.locator("#replay-position")).to_contain_text("0 /")
        page.locator("#replay-next").click()
        expect(page.locator("#replay-position")).to_contain_text("1 /")
