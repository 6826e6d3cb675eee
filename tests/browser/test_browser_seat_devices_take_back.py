"""A step taken back redraws every device of the table (headless Chromium, Daphne, Redis).

Three seat phones play four steps; the seat that played the last one asks to take it back and
the seat to move agrees: every phone and the referee device go back to three steps with the
right seat to move, and the game goes on from there without a refusal. Then the referee device
takes a step back on its own, and every device follows again. Last, a step is taken back while
the devices hear nothing of it (a lost notice): the seat shown to move taps, is refused with
"here is the table now", and its phone shows that table at once."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page

from games.models import EntryDraft
from tests.browser.chromium import CHROMIUM, PHONE, chromium, on_server
from tests.browser.test_browser_seat_devices import IDLE, LIVE, REFEREE, SHOWN, _steps, _tap
from tests.entry_personas import build_world
from tests.paths import DATA_DIR
from tournaments.core.rules import rules_of
from tournaments.links import tokens

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

TO_MOVE = "() => (document.querySelector('#table-seats tr.to-move') || {}).dataset?.seat || null"


def _shows(pages: dict[str, Page], n: int, to_move: str) -> None:
    """Every device lists `n` steps and marks `to_move` as the seat to move."""
    for who, page in pages.items():
        page.wait_for_function(SHOWN, arg=n, timeout=10_000)
        assert page.evaluate(TO_MOVE) == to_move, who


def test_a_step_taken_back_redraws_every_device(asgi_server: str) -> None:
    world = build_world(seed="browser-seat-take-back")
    table, board = world.tables[0], world.boards[0]
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    seat_urls = dict(made[0].seats)
    real = json.loads((DATA_DIR / "rlcard_rule_agents.jsonl").read_text().splitlines()[0])
    board.hands, board.bottom = real["hands"], real["bottom"]
    board.first_bidder = real["landlord"]
    board.save()
    seats = list(rules_of(world.event).seats)
    first = seats.index(real["landlord"])
    bidding = [
        [seats[(first + k) % len(seats)], call] for k, call in enumerate(["1", "pass", "pass"])
    ]
    steps = _steps({"bidding": bidding, "plays": real["plays"]})

    with chromium() as browser:
        pages: dict[str, Page] = {}
        for seat in ("S", "E", "W"):
            pages[seat] = browser.new_context(viewport=PHONE).new_page()
            pages[seat].goto(asgi_server + seat_urls[seat])
            pages[seat].wait_for_url(f"**/boards/{board.number}/")
        pages["referee"] = browser.new_context(viewport=REFEREE).new_page()
        pages["referee"].goto(f"{asgi_server}{made[0].url}boards/{board.number}/device/")
        for page in pages.values():
            page.wait_for_function(LIVE)

        def play(i: int) -> None:
            seat, step = steps[i]
            pages[seat].wait_for_function(IDLE)
            _tap(pages[seat], step)
            for page in pages.values():
                page.wait_for_function(SHOWN, arg=i + 1)

        for i in range(4):
            play(i)
        last, after = steps[3][0], steps[4][0]
        assert last != after
        # The seat that played step 4 asks (its phone says it waits for an agreement); the
        # seat to move now agrees.
        texts = "JSON.parse(document.getElementById('device-texts').textContent)"
        pages[last].click("#undo")
        pages[last].wait_for_function(
            f"() => document.getElementById('live').textContent === {texts}.undoWaiting"
        )
        pages[after].wait_for_function(
            f"() => document.getElementById('undo').textContent === {texts}.agree"
        )
        pages[after].click("#undo")
        _shows(pages, 3, last)
        # Taken back: no device still says an undo is asked (a trial's phones kept saying it).
        for who, page in pages.items():
            page.wait_for_function(
                f"() => !document.getElementById('live').textContent.includes("
                f"{texts}.undoAsked.split('%(seat)s')[1])",
                timeout=10_000,
            )
            assert page.inner_text("#live") != page.evaluate(f"{texts}.undoWaiting"), who
        # The table goes on from step 3: the seat that took its step back plays it again.
        play(3)
        _shows(pages, 4, after)
        for who, page in pages.items():
            assert page.locator("#error").is_hidden(), (who, page.inner_text("#error"))

        # The referee device takes the last step back at once.
        pages["referee"].wait_for_function(IDLE)
        pages["referee"].click("#undo")
        _shows(pages, 3, last)
        play(3)
        _shows(pages, 4, after)
        for who, page in pages.items():
            assert page.locator("#error").is_hidden(), (who, page.inner_text("#error"))

        # A step taken back that no device hears of: the seat its phone shows to move taps and
        # is refused; the refusal's position (the table now) is drawn at once.
        def take_back_silently() -> None:
            draft = EntryDraft.objects.get(table=table, board=board)
            draft.steps = list(draft.steps)[:3]
            draft.save(update_fields=["steps"])

        on_server(take_back_silently)
        pages[after].wait_for_function(IDLE)
        _tap(pages[after], steps[4][1])
        pages[after].wait_for_function(SHOWN, arg=3, timeout=10_000)
        assert pages[after].evaluate(TO_MOVE) == last
        assert pages[after].locator("#error").is_visible()
