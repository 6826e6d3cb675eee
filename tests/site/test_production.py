"""Production serves itself.

The README's production steps, run for real: `collectstatic`, then gunicorn with
`DJANGO_DEBUG=false` behind a (pretend) TLS proxy serves the entry page's script, the admin's
and the API docs' assets itself (WhiteNoise); `/healthz` answers JSON naming the database, the
broker and the workers, 200 when all answer and 503 when one does not, without a secret in it;
`SENTRY_DSN` turns error reporting on for Django and Celery, and nothing reports without it.
"""

from __future__ import annotations

import gzip
import json
import re
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import wait_listening
from tests.paths import ROOT_DIR, site_env

ROOT = ROOT_DIR
HOST = "127.0.0.1"
SECRET = "a-production-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG"
CHECKS = {"database", "broker", "workers"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def _production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = site_env()
    env.update(
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET,
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_BEHIND_TLS_PROXY="true",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DDZ_SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        **extra,
    )
    return env


def _get(url: str, *, proxied: bool = True) -> tuple[int, dict[str, str], bytes]:
    # As the TLS proxy in front of gunicorn would send it, or a monitor asking gunicorn itself.
    headers = {"X-Forwarded-Proto": "https"} if proxied else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture(scope="module")
def gunicorn_site(tmp_path_factory):
    """collectstatic, then gunicorn on a free loopback port with production settings; the
    broker points at a closed port (with a password that must never be shown)."""
    tmp_path = tmp_path_factory.mktemp("production")
    closed = _free_port()
    env = _production_env(
        tmp_path, CELERY_BROKER_URL=f"redis://:broker-password-xyz@{HOST}:{closed}/0"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    port = _free_port()
    log = (tmp_path / "gunicorn.log").open("wb")
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "ddz_site.wsgi",
            "--bind",
            f"{HOST}:{port}",
            "--workers",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_listening(server, HOST, port, tmp_path / "gunicorn.log", timeout=60)
        yield f"http://{HOST}:{port}", tmp_path / "static"
    finally:
        server.terminate()
        server.wait(timeout=20)
        log.close()


def test_debug_off_serves_its_own_static_files(gunicorn_site) -> None:
    base, static_root = gunicorn_site
    manifest = json.loads((static_root / "staticfiles.json").read_text())["paths"]
    # The entry page's script and style, by their hashed names (collectstatic's manifest).
    for name in ("games/entry.js", "games/entry.css", "games/status_board.js"):
        status, headers, body = _get(f"{base}/static/{manifest[name]}")
        assert status == 200 and body, name
        assert "max-age=315360000" in headers.get("Cache-Control", ""), name
    # The admin's and the API docs' pages link their assets; each one is served.
    for page in ("/admin/login/", "/api/docs/", "/api/redoc/"):
        status, _headers, body = _get(base + page)
        assert status == 200, page
        assets = re.findall(r'(?:href|src)="(/static/[^"]+)"', body.decode())
        assert assets, page
        for asset in assets:
            assert _get(base + asset)[0] == 200, asset


def test_healthz_is_503_when_the_broker_is_down(gunicorn_site) -> None:
    base, _static = gunicorn_site
    status, headers, body = _get(base + "/healthz")
    assert status == 503
    assert headers["Content-Type"].startswith("application/json")
    answer = json.loads(body)
    assert answer["status"] == "failing"
    assert set(answer["checks"]) == CHECKS
    assert answer["checks"]["database"] == "ok"
    assert answer["checks"]["broker"] == "unavailable"
    assert answer["checks"]["workers"] == "unavailable"
    text = body.decode()
    assert "broker-password-xyz" not in text and SECRET not in text and "redis" not in text
    # A monitor asking gunicorn itself over plain HTTP gets the answer, not a redirect to https.
    assert _get(base + "/healthz", proxied=False)[0] == 503


@pytest.mark.django_db
def test_healthz_is_ok_with_the_real_services(client, celery_worker) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "broker": "ok", "workers": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_without_a_broker_reports_tasks_run_in_the_web_process(client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "eager", "workers": "eager"}


def test_collectstatic_is_in_the_documented_production_steps() -> None:
    guide = (ROOT / "docs" / "OPERATIONS.md").read_text()
    section = guide.split("# Security and production", 1)[1].split("\n# ", 1)[0]
    for step in (
        "collectstatic",
        "gunicorn",
        "celery -A ddz_site worker",
        "/healthz",
        "SENTRY_DSN",
    ):
        assert step in section, step


class _Sentry(BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        _Sentry.received.append(body)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


SENTRY_SCRIPT = """
import django, sentry_sdk
django.setup()
client = sentry_sdk.get_client()
print(json.dumps({"active": client.is_active(),
                  "integrations": sorted(client.integrations)}))
if client.is_active():
    import tournaments.web.public
    def boom(request):
        raise RuntimeError("boom-for-sentry")
    tournaments.web.public.event_list = boom
    from django.test import Client
    Client(raise_request_exception=False).get("/", HTTP_HOST="127.0.0.1")
    sentry_sdk.flush(timeout=10)
"""


def _sentry_run(env: dict[str, str]) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + SENTRY_SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_sentry_reports_errors_only_when_configured(tmp_path) -> None:
    base = _production_env(tmp_path)
    base.update(DJANGO_DEBUG="true", DJANGO_BEHIND_TLS_PROXY="false")
    off = _sentry_run(base)
    assert off == {"active": False, "integrations": []}
    port = _free_port()
    server = HTTPServer((HOST, port), _Sentry)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        on = _sentry_run({**base, "SENTRY_DSN": f"http://public-key@{HOST}:{port}/42"})
    finally:
        server.shutdown()
    assert on["active"] is True
    assert {"django", "celery"} <= set(on["integrations"])  # type: ignore[arg-type]
    assert any(b"boom-for-sentry" in body for body in _Sentry.received)
