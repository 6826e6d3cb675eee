"""A new player on a phone: the header's "Sign up", the form, the confirmation link read from
the outbox (OutgoingMail), which signs him in; then signing out and in again with his address.
Every page of the way fits a 375 px screen."""

from __future__ import annotations

import re

import pytest

from tests.browser.chromium import CHROMIUM, chromium, fits, on_server, phone_context
from tournaments.models import OutgoingMail

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]

ADDRESS = "new.player@example.org"
PASSWORD = "a-strong-password-42"


def _confirmation_path() -> str:
    mail = OutgoingMail.objects.get(to=ADDRESS)
    found = re.search(r"https?://[^\s/]+(/accounts/confirm-email/\S+)", mail.body)
    assert found, mail.body
    return found.group(1)


def test_a_player_signs_up_confirms_and_signs_in_on_a_phone(live_server) -> None:
    with chromium() as browser:
        context = phone_context(browser, live_server)
        page = context.new_page()
        page.goto(f"{live_server.url}/")
        page.click("#account >> text=Sign up")
        page.wait_for_selector("#sign-up")
        fits(page)
        page.fill("input[name=email]", ADDRESS)
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.click("#sign-up button[type=submit]")
        page.wait_for_url("**/accounts/confirm-email/")
        fits(page)
        link = on_server(_confirmation_path)
        page.goto(f"{live_server.url}{link}")
        fits(page)
        page.click("main form button[type=submit]")
        # Confirmed in the browser that signed up: signed in, back on the page where he
        # chose "Sign up" (its next).
        page.wait_for_url(f"{live_server.url}/")
        assert page.is_visible("#my-account")
        page.click("#account form.signout button")
        page.wait_for_selector("#account >> text=Sign in")
        page.goto(f"{live_server.url}/accounts/login/")
        fits(page)
        page.fill("#id_login", ADDRESS)
        page.fill("#id_password", PASSWORD)
        page.click("#sign-in button[type=submit]")
        page.wait_for_url("**/organizer/")
        page.click("#my-account")
        page.wait_for_url("**/accounts/me/")
        fits(page)
        assert ADDRESS in page.inner_text("#account-addresses")
        context.close()
