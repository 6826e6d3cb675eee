"""A tap made while the previous step is still being checked is never lost: on the referee's
live entry (a phone, a slow network) two quick taps on "pass" record both passes, in order."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.chromium import CHROMIUM, SHOWN, chromium, phone_context
from tests.entry_personas import build_world
from tests.factories import bot_record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


def test_a_second_tap_while_the_first_is_checked_is_recorded_after_it(live_server) -> None:
    world = build_world(seed="browser-taps-in-flight", tables=1, boards=1)
    table, board = world.tables[0], world.boards[0]
    calls = [c for _s, c in bot_record(board, table)["bidding"]]
    client = Client()
    client.force_login(world.users["referee1"])
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    url = f"{live_server.url}/referee/events/{world.event.slug}/tables/{table.pk}/boards/1/"

    with chromium() as browser:
        context = phone_context(browser, live_server, session)
        page = context.new_page()

        # A slow network: each step's check takes 400 ms to come back.
        def slow(route) -> None:
            if route.request.method == "POST":
                time.sleep(0.4)
            route.continue_()

        page.route("**/entry/", slow)
        page.goto(url)
        page.wait_for_selector("#seats tr.to-move")
        # Two quick taps of the first two calls of a real auction (the first a pass or bid,
        # the second whatever the next seat said), the second while the first is in flight.
        first, second = calls[0], calls[1]
        buttons = page.locator("#calls-allowed button")
        buttons.first.wait_for()
        page.evaluate(
            "([a, b]) => { const box = document.getElementById('step');"
            " const form = document.getElementById('step-form');"
            " box.value = a; form.requestSubmit(); box.value = b; form.requestSubmit(); }",
            [first, second],
        )
        page.wait_for_function(SHOWN % 2, timeout=10_000)
        shown = page.locator("#calls li").all_inner_texts()
    assert len(shown) == 2
