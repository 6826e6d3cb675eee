"""Shared set-up of the browser tests: Debian's headless Chromium through Playwright, a
phone-sized context signed in by a session cookie, and a game's steps typed by keyboard."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.test import Client
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 375, "height": 740}
# True once the page lists `n` steps (calls and plays) of the game being entered.
SHOWN = "document.querySelectorAll('#calls li, #plays li').length === %d"


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Chromium, closed on leaving the block."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def session_of(user: Any) -> str:
    """The value of a session cookie signed in as `user`."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def phone_context(
    browser: Browser,
    live_server: Any,
    session: str | None = None,
    *,
    viewport: dict[str, int] = PHONE,
    language: str | None = None,
) -> BrowserContext:
    """A new context at `viewport` (a phone's by default), signed in by the session cookie value
    `session` if given, in `language` (a LANGUAGE_COOKIE_NAME value) if given."""
    context = browser.new_context(viewport=viewport)
    cookies: list[tuple[str, str]] = []
    if session is not None:
        cookies.append((settings.SESSION_COOKIE_NAME, session))
    if language is not None:
        cookies.append((settings.LANGUAGE_COOKIE_NAME, language))
    if cookies:
        context.add_cookies([{"name": n, "value": v, "url": live_server.url} for n, v in cookies])
    return context


def enter(page: Page, text: str, n: int) -> None:
    """Type one step into the live entry's box and wait until the page lists `n` steps."""
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    page.wait_for_function(SHOWN % n)


def enter_all(page: Page, steps: Iterable[str], start: int = 1) -> None:
    """Type `steps` one by one, the first being step number `start`."""
    for i, step in enumerate(steps, start=start):
        enter(page, step, i)


def fits(page: Page, width: int = PHONE["width"]) -> None:
    """The page is no wider than `width` px (no sideways scrolling)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= width, f"the page is {wide} px wide"


def on_server(question: Callable[[], Any]) -> Any:
    """`question` asked of the database from a thread of its own (its connection closed after):
    Playwright's event loop runs in the test's thread, where Django refuses the database."""

    def ask() -> Any:
        try:
            return question()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(ask).result()
