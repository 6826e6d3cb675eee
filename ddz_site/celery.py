"""The Celery application: configured from Django settings (CELERY_* names).

Workers start with `celery -A ddz_site worker`. Tasks live in games/tasks.py and
tournaments/tasks.py; they take ids and call one idempotent service each.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ddz_site.settings")

app = Celery("ddz_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
