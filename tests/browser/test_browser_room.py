"""What the room sees, in headless Chromium: the big-screen page's clock runs and pauses by
itself, standings at a phone's 375 px keep rank, name and % in view without widening the page
and show that they scroll, and the printed hand records put several boards on an A4 page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from playwright.sync_api import expect

from tests.browser.chromium import CHROMIUM, chromium, on_server
from tests.entry_personas import build_world
from tests.factories import bot_record, duplicate_round
from tournaments.models import EventRole, Role
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Debian's chromium is not installed at /usr/bin/chromium (apt install chromium)",
    ),
]


def _seconds(text: str) -> int:
    sign = -1 if text.startswith(("−", "-")) else 1
    parts = [int(p) for p in re.findall(r"\d+", text)]
    total = 0
    for p in parts:
        total = total * 60 + p
    return sign * total


def test_the_big_screen_clock_runs_and_pauses(live_server, monkeypatch) -> None:
    from tournaments.events import clock
    from tournaments.web import screen as views_screen

    cache.clear()
    monkeypatch.setattr(views_screen, "POLL_SECONDS", 1)
    world = build_world(seed="screen-browser", tables=3, boards=1)
    round_, chief = world.tables[0].round, world.users["chief"]
    url = f"{live_server.url}/events/{world.event.slug}/screen/"

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(url)
        main = page.locator(".round-clock .clock-main .clock-time")
        state = page.locator(".round-clock .clock-state")
        expect(state).to_have_text("Clock not started")
        for table in world.tables:
            row = page.locator(f"#screen-seating [data-table='{table.number}']")
            expect(row).to_be_visible()

        # Started from the referee's side: the open screen picks it up and counts down.
        on_server(lambda: clock.clock_start(round_=round_, minutes=30, actor=chief))
        expect(state).to_have_text("Running", timeout=5_000)
        first = _seconds(main.inner_text())
        assert 29 * 60 <= first <= 30 * 60
        page.wait_for_timeout(2_200)
        assert _seconds(main.inner_text()) <= first - 2

        table2 = world.tables[1]
        on_server(lambda: clock.clock_extra_time(table=table2, minutes=5, actor=chief))
        extra = page.locator("#screen-seating [data-table='2'] .clock-time")
        expect(extra).not_to_be_empty(timeout=5_000)
        assert _seconds(extra.inner_text()) - _seconds(main.inner_text()) in (299, 300, 301)

        on_server(lambda: clock.clock_pause(round_=round_, actor=chief))
        expect(state).to_have_text("Paused", timeout=5_000)
        frozen = main.inner_text()
        page.wait_for_timeout(2_200)
        assert main.inner_text() == frozen

        # A reload shows the same time: it is counted from the server's timestamps.
        page.reload()
        expect(state).to_have_text("Paused")
        assert abs(_seconds(main.inner_text()) - _seconds(frozen)) <= 1

        on_server(lambda: clock.clock_resume(round_=round_, actor=chief))
        expect(state).to_have_text("Running", timeout=5_000)
        page.wait_for_timeout(2_200)
        assert _seconds(main.inner_text()) < _seconds(frozen)


def test_standings_at_375_px_keep_rank_name_and_percentage_in_view(live_server) -> None:
    cache.clear()
    event, _round, tables, boards = duplicate_round(tables=4, boards=1, seed="narrow")
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    # A long name, as real fields have.
    longest = tables[0].seats.get(seat="S").player
    longest.name = "Ouyang Xiaoming-Chen"
    longest.save()
    standings_recompute(event_id=event.pk)

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 375, "height": 812})
        for language in ("en", "zh-hans"):
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page.goto(f"{live_server.url}/events/{event.slug}/standings/")
            expect(page.locator("#standings tbody tr")).to_have_count(12)
            expect(page.locator("#standings thead th:nth-child(3)")).to_have_text("%")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, (language, width)
            for row in range(1, 13):
                for column in (1, 2, 3):
                    box = page.locator(
                        f"#standings tbody tr:nth-child({row}) td:nth-child({column})"
                    ).bounding_box()
                    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375, (
                        language,
                        row,
                        column,
                        box,
                    )
            assert re.fullmatch(
                r"\d+(\.\d+)?",
                page.locator("#standings tbody tr:first-child td:nth-child(3)").inner_text(),
            )
            # Where the other columns do not fit (English words are longer than the
            # Chinese ones) they are there, to the right, and the table says it scrolls.
            container = page.locator("#standings-live .scroll")
            overflows = container.evaluate("e => e.scrollWidth > e.clientWidth + 1")
            assert overflows or language != "en"
            hint = page.locator("#standings-live .scroll-hint")
            if overflows:
                expect(hint).to_be_visible()
                assert hint.inner_text().strip()
            else:
                expect(hint).to_have_count(0)
            container.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
            # Rank and name stay where they are while the numbers scroll under them.
            box = page.locator("#standings tbody tr:first-child td:nth-child(2)").bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_printed_hand_records_put_several_boards_on_an_a4_page(live_server, tmp_path) -> None:
    event, round_, _tables, _boards = duplicate_round(tables=2, boards=12, seed="a4")
    organizer = User.objects.create_user("a4-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client = Client()
    client.force_login(organizer)
    session = client.cookies["sessionid"].value
    url = f"{live_server.url}/organizer/events/{event.slug}/rounds/{round_.number}/print/"
    url += "hand-records/"

    with chromium() as browser:
        context = browser.new_context()
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        page = context.new_page()
        page.goto(url)
        colour = page.evaluate("getComputedStyle(document.querySelector('.suit-h')).color")
        assert colour == "rgb(204, 0, 0)"
        black = page.evaluate("getComputedStyle(document.querySelector('.suit-s')).color")
        assert black == "rgb(0, 0, 0)"
        pdf = page.pdf(format="A4")
        (tmp_path / "hands.pdf").write_bytes(pdf)
        # Twelve boards, at least six to a page.
        assert 1 <= _pdf_pages(pdf) <= 2, _pdf_pages(pdf)
