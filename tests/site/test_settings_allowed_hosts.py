"""With DEBUG off, a site without DJANGO_ALLOWED_HOSTS stops at start-up naming the variable,
instead of starting and answering 400 to every request."""

from __future__ import annotations

from tests.site.test_settings import _settings

_PRODUCTION = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "a-production-secret-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFG",
}


def test_production_without_allowed_hosts_stops_start_up_naming_the_variable() -> None:
    done = _settings(_PRODUCTION, "pass")
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert "DJANGO_ALLOWED_HOSTS must be set" in done.stderr


def test_production_with_allowed_hosts_starts() -> None:
    done = _settings(
        {**_PRODUCTION, "DJANGO_ALLOWED_HOSTS": "ddz.example.org"},
        "print(settings.ALLOWED_HOSTS)",
    )
    assert done.returncode == 0, done.stderr
    assert "ddz.example.org" in done.stdout


def test_debug_keeps_the_loopback_hosts_by_default() -> None:
    done = _settings({"DJANGO_DEBUG": "true"}, "print(settings.ALLOWED_HOSTS)")
    assert done.returncode == 0, done.stderr
    assert "localhost" in done.stdout
