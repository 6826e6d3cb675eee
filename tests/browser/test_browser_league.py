"""From the home page to a player's history in three clicks, in headless Chromium (Debian's
chromium through Playwright, on a phone-sized screen): home → club → series → the player."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.chromium import CHROMIUM, chromium
from tournaments.league import clubs
from tournaments.models import Entry, Event, EventStatus, Player, Standing

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (apt install chromium)",
    ),
]


def test_home_to_a_players_history_in_three_clicks(live_server) -> None:
    admin = get_user_model().objects.create_user("td", password="pw", is_staff=True)
    club = clubs.club_create(name="River Club", actor=admin)
    season = clubs.series_create(club=club, actor=admin, name="River Series 2026")
    ann, bo = Player.objects.create(name="Ann"), Player.objects.create(name="Bo")
    for n in (1, 2):
        event = clubs.club_event_open(club=club, actor=admin, name=f"River Cup {n}", series=season)
        # Played and finished: only a finished event counts in its series.
        Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
        for pos, player in enumerate((ann, bo) if n == 1 else (bo, ann), 1):
            Entry.objects.create(event=event, player=player)
            Standing.objects.create(
                event=event,
                player=player,
                method="matchpoints",
                position=pos,
                rank=str(pos),
                total="1",
                top="2",
                percentage="50",
                boards=1,
            )

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"{live_server.url}/")
        page.locator("#clubs").get_by_role("link", name="River Club").click()  # 1
        expect(page.locator("h1")).to_have_text("River Club")
        page.get_by_role("link", name="River Series 2026").click()  # 2
        expect(page.locator("#series-standings tbody tr")).to_have_count(2)
        page.locator("#series-standings").get_by_role("link", name="Ann").click()  # 3
        expect(page.locator("#person-name")).to_have_text("Ann")
        history = page.locator("#history tbody tr")
        expect(history).to_have_count(2)
        # Newest first, as every list of events.
        expect(history.nth(0)).to_contain_text("River Cup 2")
        expect(history.nth(1)).to_contain_text("River Cup 1")
        expect(page.locator("#results-chart svg")).to_be_visible()
