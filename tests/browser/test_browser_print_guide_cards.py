"""The guide cards as Chromium prints them to PDF (A4): every card is kept whole on one page,
several to a page, and each names its player's table and seat in every round."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.chromium import CHROMIUM, chromium, phone_context, session_of
from tests.factories import EventFactory, PlayerFactory
from tournaments.events.setup import round_seat
from tournaments.models import EventRole, Role

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

# A4 less the print style's 12 mm margins, in CSS pixels (96 per inch).
PRINTABLE = {"width": round((210 - 24) / 25.4 * 96), "height": round((297 - 24) / 25.4 * 96)}


def test_guide_cards_print_whole_several_to_an_a4_page(live_server) -> None:
    event = EventFactory()
    players = [PlayerFactory(name=f"选手 Player {i:02d}") for i in range(11)]
    # A name without a space (an imported one may be 200 characters) stays inside its card.
    players.append(PlayerFactory(name="Averyveryverylongnamewithoutanyspace" * 2))
    for number in range(1, 5):
        # Each round the seats rotate by `number` places: everyone moves.
        order = players[number:] + players[:number]
        round_seat(event=event, number=number, tables=[order[t : t + 3] for t in range(0, 12, 3)])
    organizer = get_user_model().objects.create_user("print-guide", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    session = session_of(organizer)  # before Playwright's loop runs: the ORM is synchronous
    with chromium() as browser:
        context = phone_context(browser, live_server, session, viewport=PRINTABLE)
        page = context.new_page()
        page.goto(f"{live_server.url}/organizer/events/{event.slug}/print/guide-cards/")
        page.emulate_media(media="print")
        cards = page.eval_on_selector_all(
            ".guide-card",
            """cards => cards.map(c => ({
                top: c.getBoundingClientRect().top,
                height: c.getBoundingClientRect().height,
                avoid: getComputedStyle(c).breakInside,
                spills: c.scrollWidth > c.clientWidth + 1,
                rows: c.querySelectorAll("tbody tr").length}))""",
        )
        assert len(cards) == 12
        assert all(c["rows"] == 4 for c in cards)
        assert all(c["avoid"] == "avoid" for c in cards)
        assert not any(c["spills"] for c in cards)
        assert all(c["height"] < PRINTABLE["height"] / 2 for c in cards)
        # Several to a row: the cards share their rows' tops.
        assert len({round(c["top"]) for c in cards}) < len(cards)
        pdf = page.pdf(format="A4", print_background=True)
        context.close()
    assert pdf.startswith(b"%PDF")
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    # 12 cards of 4 rounds fit on one or two A4 pages, never one a page.
    assert 1 <= pages <= 2
