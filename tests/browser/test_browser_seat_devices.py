"""A live table's seat devices in headless Chromium against a real ASGI server (Daphne, Redis
channel layer): three seat phones (S, E, W) and the referee device follow one board while the
phones play a whole real game (recorded by RLCard's rule agents), each seat tapping only its own
moves. Every device shows every
step, the board is stored once, seat E's phone never receives another seat's dealt cards, and
every move button is a thumb's size. With DDZ_SCREENSHOTS set, seat E's phone is photographed
mid-game in English and Simplified Chinese for a person to look at."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Browser, Page, Response, WebSocket

from games.models import Game
from games.notation import rank_cards
from tests.browser.chromium import CHROMIUM, PHONE, chromium, on_server
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

REFEREE = {"width": 1280, "height": 800}
MIDGAME = 10  # steps shown when the screenshots are taken
# Outside the repository, where a person looks at them (only with DDZ_SCREENSHOTS set).
SHOTS = Path(tempfile.gettempdir())
# True once the page lists `n` steps of the board.
SHOWN = "n => document.querySelectorAll('#steps li').length === n"
# True once the page has no tap being checked (a seat acting twice in a row must not be refused
# as busy: the bidding's last caller may lead).
IDLE = "() => !document.body.classList.contains('sending')"
# True once the page's socket is open: its status line says "Live" (in the page's language).
LIVE = """() => document.getElementById('live').textContent
  === JSON.parse(document.getElementById('device-texts').textContent).live"""
# Every shown move button's size, in CSS px.
SIZES = """() => [...document.querySelectorAll('#actions button.move')]
  .filter(b => b.offsetParent !== null)
  .map(b => { const r = b.getBoundingClientRect();
              return [b.dataset.step, r.width, r.height]; })"""


def _steps(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(seat, step) of every call and play of `record`, a play as the menus spell it: its cards,
    with ``@type`` when the record names its reading (games.live.seat)."""
    out = [(str(seat), str(call)) for seat, call, *_ in record["bidding"]]
    for play in record["plays"]:
        seat, text = str(play[0]), str(play[1])
        out.append((seat, f"{text}@{play[2]}" if len(play) > 2 and play[2] else text))
    return out


def _tap(page: Page, step: str) -> None:
    """Tap the move button of `step`, opening the group that holds it when it is not among the
    primary buttons."""
    button = page.locator(f'#actions button.move[data-step="{step}"]')
    assert button.count() == 1, f"no single button for {step!r} in the menu"
    if not button.is_visible():
        inner = page.locator(f'button.move[data-step="{step}"]')
        group = page.locator("#groups details.group", has=inner)
        group.locator("summary").click()
    button.click()


def _thumb_sized(page: Page) -> None:
    """Every move button shown (the groups opened) is at least 44 px each way."""
    page.evaluate("() => document.querySelectorAll('#groups details').forEach(d => d.open = true)")
    sizes = page.evaluate(SIZES)
    assert sizes, "a seat with its turn shows move buttons"
    small = [s for s in sizes if s[1] < 44 or s[2] < 44]
    assert not small, f"move buttons under 44 px: {small}"
    page.evaluate("() => document.querySelectorAll('#groups details').forEach(d => d.open = false)")


def _screenshot(browser: Browser, base: str, url: str, language: str, path: str) -> None:
    """Seat E's phone in `language` (the site's language cookie), its viewport only: what a
    player sees without scrolling."""
    locale = "zh-CN" if language.startswith("zh") else "en-US"
    context = browser.new_context(viewport=PHONE, locale=locale)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}])
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(SHOWN, arg=MIDGAME)
    page.screenshot(path=path)
    context.close()


def test_three_seat_phones_play_a_whole_game_every_device_showing_every_step(
    asgi_server: str,
) -> None:
    world = build_world(seed="browser-seat-devices")
    table, board = world.tables[0], world.boards[0]
    made = tokens.table_links_make(
        event=world.event, round_=table.round, actor=world.users["organizer"]
    )
    seat_urls = dict(made[0].seats)
    # A real game (RLCard's rule agents, tests/data): its deal becomes board 1, its landlord
    # the first bidder, who bids 1 as the record says (it has no auction), then its plays.
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
    # The hands E must never receive: as dealt (stored) and rank-only, as a JSON string.
    secrets = [board.hands[s] for s in ("S", "W")]
    secrets += [json.dumps(rank_cards(board.hands[s])) for s in ("S", "W")]
    frames: list[str] = []
    responses: list[Response] = []
    e_path = seat_urls["E"]

    def keep_frames(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(str(payload)))

    def keep_response(response: Response) -> None:
        # The seat's own doors (its page, position, steps): everything E's phone reads by HTTP.
        if response.url.startswith(asgi_server + e_path) and response.status < 300:
            responses.append(response)

    with chromium() as browser:
        pages: dict[str, Page] = {}
        for seat in ("S", "E", "W"):
            pages[seat] = browser.new_context(viewport=PHONE).new_page()
        referee_url = f"{asgi_server}{made[0].url}boards/{board.number}/device/"
        pages["referee"] = browser.new_context(viewport=REFEREE).new_page()
        pages["E"].on("websocket", keep_frames)
        pages["E"].on("response", keep_response)
        for seat in ("S", "E", "W"):
            pages[seat].goto(asgi_server + seat_urls[seat])
            pages[seat].wait_for_url(f"**/boards/{board.number}/")
        pages["referee"].goto(referee_url)
        # Every socket is open before the first tap, so that every step reaches every device
        # by its socket (a device left polling would pass the count checks more slowly).
        for page in pages.values():
            page.wait_for_function(LIVE)

        for i, (seat, step) in enumerate(steps):
            page = pages[seat]
            page.wait_for_function(IDLE)
            assert "mine" in (page.get_attribute("#turn", "class") or ""), (i, seat)
            _thumb_sized(page)
            _tap(page, step)
            for other in pages.values():
                other.wait_for_function(SHOWN, arg=i + 1)
            if i + 1 == MIDGAME and os.environ.get("DDZ_SCREENSHOTS"):
                e_url = pages["E"].url
                pages["E"].screenshot(path=str(SHOTS / "seat-phone-en.png"))
                _screenshot(
                    browser, asgi_server, e_url, "zh-hans", str(SHOTS / "seat-phone-zh.png")
                )

        for who, page in pages.items():
            page.locator("#result").wait_for(state="visible")
            assert page.locator("#error").is_hidden(), (who, page.inner_text("#error"))
        bodies = [r.text() for r in responses]

    # Its page over HTTP; its steps went over its socket (their answers are frames too).
    assert bodies, "E's page was recorded"
    assert len(frames) >= len(steps), "E's socket carried every step"
    # The recording holds what E may see (its own hand), so the search below is not vacuous.
    own = (board.hands["E"], json.dumps(rank_cards(board.hands["E"])))
    assert any(o in t for t in frames for o in own) and any(o in t for t in bodies for o in own)
    for text in frames + bodies:
        for secret in secrets:
            assert secret not in text
    games = on_server(lambda: list(Game.objects.filter(table=table, board=board)))
    assert [g.source for g in games] == ["seat"]
