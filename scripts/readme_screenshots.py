"""The README's screenshots (docs/images/*.png), taken from the demo in headless Chromium.

    make demo                      # in one terminal: builds the demo and serves it
    .venv/bin/python scripts/readme_screenshots.py [--site http://127.0.0.1:8000]

Signs in as the demo's organizer (README "Signing in") and takes: the dashboard of the demo
event in play, the registrations of "Demo Open", its check-in list on a phone, and the final
results of "Demo Club Cup 3" with its prizes. Run it again after a change to those pages.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
ORGANIZER = ("demo-organizer", "organizer-demo")
DESKTOP = {"width": 1100, "height": 900}
PHONE = {"width": 375, "height": 760}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default="http://127.0.0.1:8000")
    site = parser.parse_args().site.rstrip("/")
    IMAGES.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        desk = browser.new_context(viewport=DESKTOP, locale="en")
        page = desk.new_page()
        page.goto(f"{site}/accounts/login/")
        page.fill("#id_login", ORGANIZER[0])
        page.fill("#id_password", ORGANIZER[1])
        page.click("#sign-in button[type=submit]")
        page.wait_for_url("**/organizer/")
        shots = {
            "dashboard.png": "/organizer/events/demo-duplicate/",
            "registrations.png": "/organizer/events/demo-open/registrations/",
            "final-results.png": "/events/demo-club-cup-3/results/",
        }
        for name, path in shots.items():
            page.goto(site + path)
            page.screenshot(path=str(IMAGES / name), full_page=False)
        phone = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en"
        )
        phone.add_cookies(desk.cookies())
        mobile = phone.new_page()
        mobile.goto(f"{site}/organizer/events/demo-open/check-in/")
        mobile.screenshot(path=str(IMAGES / "check-in.png"), full_page=False)
        browser.close()
    for name in [*shots, "check-in.png"]:
        print(IMAGES / name)


if __name__ == "__main__":
    main()
