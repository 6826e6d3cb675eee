"""The paper of a finished event as Chromium prints it to PDF (A4): the final results page (the
overall standings and each category's ranking with their prizes, in Chinese too, fitting a
375 px phone) and the certificates, exactly one A4 page each, naming the player, her place,
her ranking and her prize."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from tests.browser.chromium import CHROMIUM, chromium, fits, phone_context, session_of
from tests.factories import EventFactory, PlayerFactory
from tournaments.models import Entry, EventRole, EventStatus, Prize, Role, Standing

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

# A4 less the print style's 12 mm margins, in CSS pixels (96 per inch).
PRINTABLE = {"width": round((210 - 24) / 25.4 * 96), "height": round((297 - 24) / 25.4 * 96)}
# Name, declared categories: the overall standings' order.
FIELD = [
    ("王芳 Wang Fang", ["women"]),
    ("Bo", ["youth"]),
    ("Chen", ["women", "youth"]),
    ("Dana", []),
    ("Eli", ["women"]),
    ("Averyveryverylongnamewithoutanyspace" * 2, ["youth"]),
]
PRIZES = [("", 1, "¥500 and a trophy"), ("", 2, "¥300"), ("women", 1, "Rose"), ("youth", 1, "Book")]


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_final_results_and_certificates_print(live_server) -> None:
    event = EventFactory(
        name="Spring Cup 春季杯",
        categories=["women", "youth"],
        status=EventStatus.FINISHED,
        starts_at=datetime(2026, 4, 4, 1, 30, tzinfo=UTC),
        time_zone="Asia/Shanghai",
        venue_name="Demo Hall",
    )
    for position, (name, categories) in enumerate(FIELD, 1):
        player = PlayerFactory(name=name)
        Entry.objects.create(event=event, player=player, categories=categories)
        Standing.objects.create(
            event=event,
            player=player,
            method="matchpoints",
            position=position,
            rank=str(position),
            total=str(60 - position),
            top="100",
            percentage=str(60 - position),
            boards=9,
        )
    for category, place, text in PRIZES:
        Prize.objects.create(event=event, category=category, place=place, description=text)
    organizer = get_user_model().objects.create_user("print-certificates", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    session = session_of(organizer)  # before Playwright's loop runs: the ORM is synchronous
    with chromium() as browser:
        public = phone_context(browser, live_server, language="zh-hans")
        page = public.new_page()
        page.goto(f"{live_server.url}/events/{event.slug}/results/")
        fits(page)
        # Overall, then one ranking per category. One prize per player: Wang Fang has the
        # trophy, so the women's rose goes to Chen; Bo has ¥300 and Chen the rose, so the
        # youth book goes to the next youth, the long name.
        rankings = page.eval_on_selector_all(
            "section.ranking",
            """sections => sections.map(s => [...s.querySelectorAll("tbody tr")].map(
                r => [r.cells[1].innerText, r.cells[3].innerText]))""",
        )
        long_name = FIELD[5][0]
        assert rankings == [
            [
                [FIELD[0][0], "¥500 and a trophy"],
                ["Bo", "¥300"],
                ["Chen", ""],
                ["Dana", ""],
                ["Eli", ""],
                [long_name, ""],
            ],
            [[FIELD[0][0], ""], ["Chen", "Rose"], ["Eli", ""]],
            [["Bo", ""], ["Chen", ""], [long_name, "Book"]],
        ]
        page.emulate_media(media="print")
        results_pdf = page.pdf(format="A4", print_background=True)
        public.close()

        context = phone_context(browser, live_server, session, viewport=PRINTABLE)
        page = context.new_page()
        page.goto(f"{live_server.url}/organizer/events/{event.slug}/print/certificates/")
        page.emulate_media(media="print")
        sheets = page.eval_on_selector_all(
            ".certificate",
            """cs => cs.map(c => ({text: c.innerText, player: c.dataset.player,
                spills: c.scrollWidth > c.clientWidth + 1,
                breaks: getComputedStyle(c).breakAfter}))""",
        )
        winners_pdf = page.pdf(format="A4", print_background=True)
        page.goto(f"{live_server.url}/organizer/events/{event.slug}/print/certificates/?all=1")
        page.emulate_media(media="print")
        every_pdf = page.pdf(format="A4", print_background=True)
        context.close()
    assert results_pdf.startswith(b"%PDF") and _pages(results_pdf) >= 1
    # Four prizes, four winners: one certificate each, in the order the prizes were given.
    assert [s["text"].split("\n")[0] for s in sheets] == ["Certificate"] * 4
    assert [s["player"] for s in sheets] == [
        FIELD[0][0],
        "Bo",
        "Chen",
        long_name,
    ]
    assert "Rose" in sheets[2]["text"] and "Place 2" in sheets[2]["text"]
    assert all("Spring Cup 春季杯" in s["text"] and "Demo Hall" in s["text"] for s in sheets)
    assert not any(s["spills"] for s in sheets)
    # One A4 page per certificate, however long the name.
    assert _pages(winners_pdf) == 4
    assert _pages(every_pdf) == len(FIELD)
