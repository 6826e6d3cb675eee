"""Where the tests find the repository and their recorded data, whatever folder a test sits in."""

from __future__ import annotations

from pathlib import Path

ROOT_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT_DIR / "tests" / "data"

# The variables that configure the site: a process started with none of them runs on the
# site's own defaults (what a fresh machine sees), whatever the test run sets for itself.
SITE_VARIABLES = ("DJANGO_", "DATABASE_", "CELERY_", "DDZ_", "SENTRY_")


def site_env(**settings: str) -> dict[str, str]:
    """This process's environment without any of the site's variables, then `settings`: the
    environment of a site process configured only as the caller says."""
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(SITE_VARIABLES)}
    env.update(settings)
    return env
