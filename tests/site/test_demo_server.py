"""The demo's server answers as a site does: `make demo-server`, the server
`make demo` ends with, runs with DEBUG off on plain HTTP at the loopback, so a page that does
not exist is the site's own 404 page in the reader's language (never Django's technical page
with the URL patterns), its static files and favicon are served, and its forms work over HTTP
(cookies not limited to HTTPS). The secret key is made once into a git-ignored file.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.browser.chromium import CHROMIUM, chromium
from tests.conftest import wait_listening
from tests.paths import ROOT_DIR, site_env

ROOT = ROOT_DIR
HOST = "127.0.0.1"

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


def _open(opener, url: str, *, data: bytes | None = None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("demo")
    stamp = tmp / "installed"
    stamp.touch()  # the virtualenv is the one running the tests
    port = _free_port()
    env = site_env()
    env["DDZ_SQLITE_PATH"] = str(tmp / "db.sqlite3")
    log = (tmp / "server.log").open("wb")
    server = subprocess.Popen(
        [
            "make",
            "--no-print-directory",
            "demo-server",
            f"PY={sys.executable}",
            f"STAMP={stamp}",
            f"DEMO_ADDRESS={HOST}:{port}",
            f"DEMO_VAR={tmp / 'var'}",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        wait_listening(server, HOST, port, tmp / "server.log", timeout=180)
        yield f"http://{HOST}:{port}", tmp
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)  # make, the server and its reloader
            server.wait(timeout=30)
        log.close()


def test_a_missing_page_is_the_sites_own_404_in_the_readers_language(demo_server) -> None:
    site, _tmp = demo_server
    opener = urllib.request.build_opener()
    for path in ("/events/nope/", "/games/99999/", "/people/999/", "/series/nope/"):
        status, headers, body = _open(opener, site + path, headers={"Accept-Language": "zh-hans"})
        html = body.decode()
        assert status == 404, (path, status)
        assert "页面不存在" in html and 'id="account"' in html, path
        assert "URLconf" not in html and "Page not found at" not in html
    status, headers, body = _open(opener, site + "/api/events/nope/boards/-1/games/")
    assert status == 404 and headers["Content-Type"].startswith("application/json")


def test_static_files_and_the_favicon_are_served(demo_server) -> None:
    site, tmp = demo_server
    opener = urllib.request.build_opener()
    status, _headers, body = _open(opener, site + "/")
    assert status == 200
    href = re.search(r'<link rel="icon" href="([^"]+)"', body.decode())
    assert href
    status, headers, _body = _open(opener, urllib.parse.urljoin(site, href.group(1)))
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
    status, _headers, body = _open(opener, site + "/favicon.ico")
    assert status == 200 and body[:4] == b"\x00\x00\x01\x00"
    # The secret key was made once, into the demo's git-ignored directory.
    key = (tmp / "var" / "demo-secret-key").read_text().strip()
    assert len(key) >= 50
    assert "/var/" in (ROOT / ".gitignore").read_text().split()


def test_signing_in_works_over_plain_http(demo_server) -> None:
    site, _tmp = demo_server
    jar = http.cookiejar.CookieJar()  # it keeps HTTPS-only cookies from plain HTTP
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)
    status, _headers, body = _open(opener, site + "/accounts/login/")
    assert status == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode())
    assert token
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token.group(1), "login": "nobody", "password": "wrong"}
    ).encode()
    status, _headers, body = _open(
        opener, site + "/accounts/login/", data=form, headers={"Origin": site}
    )
    # The form again with its error: the CSRF cookie came back over HTTP.
    assert status == 200, body.decode()[:500]
    assert 'name="login"' in body.decode()


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_a_browser_finds_every_file_and_shows_the_favicon(demo_server) -> None:
    site, _tmp = demo_server
    with chromium() as browser:
        page = browser.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        failed: list[str] = []
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        page.goto(site + "/")
        page.wait_for_load_state("networkidle")
        assert errors == [] and failed == []
        # Both icons decode as images (the ICO of /favicon.ico, the SVG the pages link).
        sizes = page.evaluate(
            """async () => {
              const size = (src) => new Promise((ok) => {
                const img = new Image();
                img.onload = () => ok(img.naturalWidth);
                img.onerror = () => ok(0);
                img.src = src;
              });
              const svg = document.querySelector('link[rel="icon"]').href;
              return [await size('/favicon.ico'), await size(svg)];
            }"""
        )
        assert sizes[0] >= 16 and sizes[1] > 0
