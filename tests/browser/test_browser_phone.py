"""The live entry page on a phone, measured in headless Chromium at 375 px,
in English and in Simplified Chinese: after twenty plays the seat to move and the play to beat
stand in view right above the input; Ctrl+Z undoes typing in a box with text and takes back a
recorded play only from the empty box; a refusal reads wholly in the page's language; no
button's text breaks over two lines; after the submission the game page offers the next board;
the round clock shows. Set DDZ_SHOTS_DIR to keep the screenshots (else the test's tmp dir)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.browser.chromium import (
    CHROMIUM,
    SHOWN,
    chromium,
    enter,
    enter_all,
    phone_context,
    session_of,
)
from tests.conftest import Worker
from tests.entry_personas import build_world
from tests.factories import bot_record
from tests.tournaments.links.test_phone_entry_pages import HAN, english_words
from tournaments.events import clock

pytestmark = [
    pytest.mark.browser,
    pytest.mark.services,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

PHONE = {"width": 375, "height": 667}  # an iPhone SE's viewport, the smallest in common use

# Rectangles of the turn line and the input, and the viewport's height.
MEASURE = """() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
                        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  return {move: box("to-move"), beat: box("to-beat"), input: box("step"),
          height: window.innerHeight, width: window.innerWidth,
          scroll: document.documentElement.scrollHeight};
}"""

# Each visible button whose text lies on more than one line (a word broken over two lines).
BROKEN_BUTTONS = """() => [...document.querySelectorAll("button")].filter((b) => {
  if (!b.offsetParent || !b.textContent.trim()) return false;
  const range = document.createRange(); range.selectNodeContents(b);
  const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                        .map((r) => Math.round(r.top)));
  return tops.size > 1;
}).map((b) => b.textContent)"""


def _in_view(rect: dict[str, float], height: float, width: float) -> bool:
    return rect["top"] >= 0 and rect["bottom"] <= height and rect["right"] <= width


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_entry_page_at_375_px_after_twenty_plays(
    language: str, celery_worker: Worker, live_server, tmp_path: Path
) -> None:
    shots = Path(os.environ.get("DDZ_SHOTS_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    world = build_world(seed=f"phone-{language}", tables=1, boards=2)
    table, board, second = world.tables[0], world.boards[0], world.boards[1]
    clock.clock_start(round_=table.round, minutes=60, actor=world.users["chief"], at=timezone.now())
    record = bot_record(board, table)
    calls = [c for _s, c in record["bidding"]]
    plays = record["plays"]
    # Twenty plays or more, the last one cards (not a pass), so that a play is to be beaten.
    k = next(i for i in range(20, len(plays)) if plays[i - 1][1] != "pass")
    session = session_of(world.users["referee1"])
    url = live_server.url + reverse("referee:live", args=[world.event.slug, table.pk, board.number])
    next_url = reverse("referee:live", args=[world.event.slug, table.pk, second.number])
    tag = "en" if language == "en" else "zh"

    with chromium() as browser:
        context = phone_context(browser, live_server, session, viewport=PHONE, language=language)
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector("#seats tr.to-move")
        enter_all(page, calls)
        enter_all(page, [cards for _seat, cards in plays[:k]], start=len(calls) + 1)
        done = len(calls) + k

        # The seat to move and the play to beat, in view right above the input, both as
        # the referee left the page and scrolled back to its top.
        owner, last = plays[k - 1]
        mover = plays[k][0]
        beat = page.inner_text("#to-beat")
        assert last in beat and owner in beat and mover in page.inner_text("#to-move")
        for scrolled in (False, True):
            if scrolled:
                page.evaluate("window.scrollTo(0, 0)")
            m = page.evaluate(MEASURE)
            assert m["scroll"] > m["height"], "twenty plays make the page longer than one screen"
            for name in ("move", "beat", "input"):
                assert _in_view(m[name], m["height"], m["width"]), (name, m)
            assert 0 <= m["input"]["top"] - m["beat"]["bottom"] <= 60, m  # right above
        page.screenshot(path=str(shots / f"entry-375-{tag}.png"))
        assert re.search(r"\d+:\d\d", page.inner_text(".round-clock .clock-time"))

        # No button's text breaks over two lines, in either language.
        assert page.evaluate(BROKEN_BUTTONS) == []

        # Ctrl+Z in a box with text undoes the typing, never a recorded play.
        page.focus("#step")
        page.keyboard.type("3")
        page.keyboard.press("Control+z")
        page.wait_for_timeout(600)
        assert page.evaluate("document.querySelectorAll('#calls li, #plays li').length") == done
        # With the box empty it takes back the last recorded play.
        page.fill("#step", "")
        page.keyboard.press("Control+z")
        page.wait_for_function(SHOWN % (done - 1))
        enter(page, last, done)

        # A refusal in the page's language: cards the seat to move does not hold (R-VERIFY).
        hand = page.inner_text(f'#seats tr[data-seat="{mover}"] .hand')
        missing = next(r for r in "3456789TJQKA2" if r not in hand)
        page.keyboard.type(missing)
        page.keyboard.press("Enter")
        error = page.locator("#entry-error")
        error.wait_for(state="visible")
        text = error.inner_text()
        assert "R-VERIFY" in text
        if language == "en":
            assert "does not hold" in text
        else:
            assert HAN.search(text) and not english_words(text), text
        page.screenshot(path=str(shots / f"entry-375-{tag}-refusal.png"))
        page.fill("#step", "")

        enter_all(page, [cards for _seat, cards in plays[k:]], start=done + 1)
        page.locator("#result").wait_for(state="visible")
        assert page.evaluate(BROKEN_BUTTONS) == []
        page.screenshot(path=str(shots / f"entry-375-{tag}-done.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # After the submission: the next board, one tap away.
        page.keyboard.press("Enter")  # the submit button has the focus
        page.wait_for_url("**/games/*/")
        link = page.locator("#next-board")
        assert link.is_visible() and link.get_attribute("href") == next_url
        page.screenshot(path=str(shots / f"submitted-375-{tag}.png"))
