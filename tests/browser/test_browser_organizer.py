"""The organizer's dashboard in headless Chromium: sign in, draw the seed, deal, start a
round through the confirmation dialog (a cancelled dialog changes nothing), see the table
progress and the print pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.factories import EventFactory, PlayerFactory
from tournaments.events import rounds, stages
from tournaments.models import Entry, EventRole, Role, Round

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_dashboard_runs_a_round(live_server, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    event = EventFactory(name="Autumn Open", slug="autumn-open")
    td = get_user_model().objects.create_user("director", password="s3cret-pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for i in range(9):
        Entry.objects.create(event=event, player=PlayerFactory(name=f"P{i + 1}"))
    stage = stages.stage_create(event=event, actor=td, name="Qualifying")
    for _ in range(2):
        rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{live_server.url}/organizer/events/autumn-open/")
            page.fill("input[name=login]", "director")
            page.fill("input[name=password]", "s3cret-pw")
            page.get_by_role("button", name="Sign in").click()
            page.wait_for_selector("#rounds")
            assert page.locator("h1").inner_text() == "Autumn Open"
            states = page.locator("#rounds .state").all_inner_texts()
            assert states == ["seated", "seated"]
            assert page.locator("#round-1 table.progress tbody tr").count() == 3

            page.once("dialog", lambda dialog: dialog.accept())
            page.locator("#commit-seed").click()
            page.wait_for_selector("#commitment")
            commitment = page.locator("#commitment").inner_text()
            assert len(commitment) == 64

            page.locator("#round-1 form[action$='/deal/'] button").click()
            page.wait_for_selector("#round-1 [data-action=start]")
            assert "3 boards" in page.locator("#round-1 h3").inner_text()

            # Cancelled: nothing is sent, the round stays seated.
            page.once("dialog", lambda dialog: dialog.dismiss())
            page.locator("#round-1 [data-action=start]").click()
            page.wait_for_timeout(300)
            assert page.locator("#round-1 .state").get_attribute("data-state") == "seated"

            page.once("dialog", lambda dialog: dialog.accept())
            page.locator("#round-1 [data-action=start]").click()
            page.wait_for_selector("#round-1 [data-state=in_play]")
            assert page.locator("#round-1 [data-action=close]").count() == 1
            assert "0/3" in page.locator("#round-1 table.progress").inner_text()
            page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)

            page.goto(
                f"{live_server.url}/organizer/events/autumn-open/rounds/1/print/hand-records/"
            )
            assert page.locator(".hand-record").count() == 3
            assert any(s in page.locator(".hand-record").first.inner_text() for s in "♠♥♦♣")

            page.goto(f"{live_server.url}/deals/autumn-open/")
            assert page.locator("#commitment").inner_text() == commitment
        finally:
            browser.close()
    assert Round.objects.get(event=event, number=1).state == "in_play"
