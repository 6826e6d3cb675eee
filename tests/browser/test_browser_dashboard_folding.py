"""The organizer's dashboard in headless Chromium, several rounds into an event: the round in
play comes first with its tables in view, the past rounds are folded under their summaries
(round, state, boards) and open with a click."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.browser.chromium import CHROMIUM, chromium, phone_context, session_of
from tests.factories import EventFactory, duplicate_round
from tournaments.models import EventRole, Role, Round, RoundState

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_past_rounds_are_folded_below_the_round_in_play(live_server) -> None:
    event = EventFactory(name="Winter Open")
    for number in range(4):
        duplicate_round(tables=6, boards=3, event=event, seed=f"fold-{number}")
    for number, state in ((1, RoundState.PUBLISHED), (2, RoundState.PUBLISHED)):
        Round.objects.filter(event=event, number=number).update(state=state)
    Round.objects.filter(event=event, number=3).update(state=RoundState.CLOSED)
    organizer = User.objects.create_user("fold-director", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    session = session_of(organizer)

    with chromium() as browser:
        context = phone_context(
            browser, live_server, session, viewport={"width": 1280, "height": 800}
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/organizer/events/{event.slug}/")
        rounds = page.locator("#rounds details.round")
        expect(rounds).to_have_count(4)
        assert [rounds.nth(i).get_attribute("id") for i in range(4)] == [
            "round-4",
            "round-3",
            "round-2",
            "round-1",
        ]
        expect(page.locator("#round-4 table.progress")).to_be_visible()
        for number in (1, 2, 3):
            summary = page.locator(f"#round-{number} summary")
            expect(summary).to_be_visible()
            expect(page.locator(f"#round-{number} table.progress")).to_be_hidden()
        # The summary of a folded round says what state it is in.
        expect(page.locator("#round-3 summary .state")).to_have_attribute("data-state", "closed")
        folded = page.evaluate("document.documentElement.scrollHeight")

        page.locator("#round-1 summary").click()
        expect(page.locator("#round-1 table.progress")).to_be_visible()
        expect(page.locator("#round-1 table.progress tbody tr")).to_have_count(6)
        for number in (2, 3):
            page.locator(f"#round-{number} summary").click()
        unfolded = page.evaluate("document.documentElement.scrollHeight")
        # Three rounds of six tables folded away: the page is much shorter.
        assert unfolded - folded > 3 * 6 * 20, (folded, unfolded)
