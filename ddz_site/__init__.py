"""The Django project: settings from the environment, URLs, the Celery app, WSGI/ASGI."""

from __future__ import annotations

from ddz_site.celery import app as celery_app

__all__ = ["celery_app"]
