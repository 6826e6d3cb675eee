"""The organizer's check-in list on a 375 px phone: no sideways scrolling, tap targets a thumb
can hit, and a tap checks the entrant in for the next round (its button then says so)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.browser.chromium import CHROMIUM, chromium, fits, on_server, phone_context, session_of
from tests.factories import EventFactory
from tournaments.events import rounds
from tournaments.models import EventRole, EventStatus, Presence, Role
from tournaments.people import registration as reg

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_a_tap_on_the_check_in_list_at_375_px_checks_the_player_in(live_server) -> None:
    event = EventFactory(status=EventStatus.ANNOUNCED, check_in_required=True)
    td = get_user_model().objects.create_user("door", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    reg.registration_open(event=event, actor=td)
    for name in ("选手 Ann", "Bo", "Averyveryverylongnamewithoutanyspace" * 2):
        reg.registration_add(event=event, actor=td, name=name, accept=True)
    rounds.round_create(event=event, actor=td)
    session = session_of(td)  # before Playwright's loop runs: the ORM is synchronous
    with chromium() as browser:
        context = phone_context(browser, live_server, session)
        page = context.new_page()
        page.goto(f"{live_server.url}/organizer/events/{event.slug}/check-in/")
        fits(page)
        button = page.locator("li", has_text="Bo").locator("form.tap button")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
        assert button.inner_text() == "Absent"
        button.click()
        page.wait_for_selector("#messages")
        assert (
            page.locator("li", has_text="Bo").locator("form.tap button").inner_text() == "Present"
        )
        fits(page)
        context.close()
    present = on_server(lambda: list(Presence.objects.values_list("player__name", "round__number")))
    assert present == [("Bo", 1)]
