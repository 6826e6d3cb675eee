"""What a person sees: the demo event in headless Chromium (Debian's chromium, Playwright).

The demo data (the demo event and the archive of real games) are made by `manage.py ddz_demo`
and verified by the real Celery worker; the pages are served by a live server on the test
database.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.conftest import Worker
from tests.paths import DATA_DIR
from tournaments.management.commands.ddz_demo import ARCHIVE_EVENT, DEMO_EVENT, PLAYERS
from tournaments.models import Event

DATA = DATA_DIR

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (apt install chromium)",
    ),
]


def test_standings_and_traveller_of_the_demo(
    celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    from playwright.sync_api import sync_playwright

    # All database work happens before Playwright starts its event loop in this thread.
    out = io.StringIO()
    call_command("ddz_demo", "--timeout", "240", stdout=out)
    records = [
        json.loads(line)
        for path in sorted(DATA.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    verified = sum(r["expected"]["status"] == "verified" for r in records)
    assert f"{verified} of {len(records)} verified" in out.getvalue()
    assert "demo-referee    password referee-demo" in out.getvalue()  # the logins are printed
    event = Event.objects.get(name=DEMO_EVENT)
    best = event.standings.order_by("position").select_related("player")[0]

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
            page.goto(live_server.url + "/")
            page.get_by_role("link", name=DEMO_EVENT).click()
            page.wait_for_selector("#standings")
            assert page.locator("h1").inner_text() == DEMO_EVENT
            rows = page.locator("#standings tbody tr")
            assert rows.count() == len(PLAYERS)
            names = rows.locator("td:nth-child(2)").all_inner_texts()
            assert sorted(names) == sorted(PLAYERS)
            first = rows.nth(0).locator("td").all_inner_texts()
            assert first[0] in ("1", "1=") and first[1] == best.player.name
            page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)

            page.get_by_role("link", name="Board 1", exact=True).click()
            page.wait_for_selector("#traveller")
            assert "Traveller" in page.locator("h1").inner_text()
            tables = page.locator("#traveller tbody tr")
            assert tables.count() == 3
            statuses = tables.locator(".status").all_inner_texts()
            assert statuses == ["verified"] * 3
            hands = page.locator("#hands").inner_text()
            assert any(suit in hands for suit in "♠♥♦♣")
            # Each seat's matchpoints on one board add up to n(n-1) = 6 over three tables.
            for column in (3, 5, 7):
                cells = tables.locator(f"td:nth-child({column})").all_inner_texts()
                assert sum(float(c) for c in cells) == 6
            page.screenshot(path=str(tmp_path / "traveller.png"), full_page=True)

            page.goto(live_server.url + "/")
            page.get_by_role("link", name=ARCHIVE_EVENT).click()
            page.wait_for_selector("#boards")
            assert page.locator("#boards tbody tr").count() > 500

            page.goto(live_server.url + event.get_absolute_url())
            page.select_option("select[name=language]", "zh-hans")
            page.wait_for_selector("text=排名")
            assert "复式" in page.content()
        finally:
            browser.close()
