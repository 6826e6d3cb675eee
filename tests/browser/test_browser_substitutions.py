"""Substitutions in headless Chromium: the organizer records one with the dashboard's form, and
the referee's live entry shows the substitute at the seat on her boards only."""

from __future__ import annotations

import pytest

from tests.browser.chromium import CHROMIUM, chromium, phone_context, session_of
from tests.entry_personas import build_world
from tests.factories import PlayerFactory
from tournaments.models import Entry, Round, RoundState, Substitution

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_the_organizer_records_a_substitute_and_the_live_entry_names_her(live_server) -> None:
    world = build_world(seed="browser-subs", tables=2, boards=4)
    event, table = world.event, world.tables[0]
    Round.objects.filter(pk=table.round_id).update(state=RoundState.IN_PLAY)
    zoe = PlayerFactory(name="Zoe Substitute")
    Entry.objects.create(event=event, player=zoe)
    absent = table.seats.get(seat="E").player
    live = f"{live_server.url}/referee/events/{event.slug}/tables/{table.pk}/boards/%d/"
    sessions = {name: session_of(world.users[name]) for name in ("organizer", "referee1")}

    with chromium() as browser:
        organizer = phone_context(
            browser, live_server, sessions["organizer"], viewport={"width": 1024, "height": 900}
        )
        page = organizer.new_page()
        page.on("dialog", lambda d: d.accept())
        page.goto(f"{live_server.url}/organizer/events/{event.slug}/")
        form = page.locator("#substitutions-1 form.substitution-form")
        form.locator("input[name=table]").fill("1")
        form.locator("select[name=seat]").select_option("E")
        form.locator("select[name=substitute]").select_option(label="Zoe Substitute")
        form.locator("input[name=first_board]").fill("3")
        form.locator("input[name=last_board]").fill("4")
        form.locator("button[type=submit]").click()
        page.wait_for_load_state()
        note = f"Zoe Substitute plays E at table 1 for {absent.name}: boards 3-4"
        assert note in page.locator("#substitutions-1").inner_text()

        referee = phone_context(browser, live_server, sessions["referee1"])
        page = referee.new_page()
        east = page.locator("#seats tbody tr[data-seat=E] .role")
        page.goto(live % 3)
        page.wait_for_selector("#seats tr.to-move")
        assert "Zoe Substitute" in east.inner_text()
        page.goto(live % 1)
        page.wait_for_selector("#seats tr.to-move")
        assert absent.name in east.inner_text() and "Zoe" not in east.inner_text()
    # Outside Playwright's event loop, where the database may be read.
    sub = Substitution.objects.get()
    assert (sub.player, sub.substitute, sub.first_board, sub.last_board) == (absent, zoe, 3, 4)
