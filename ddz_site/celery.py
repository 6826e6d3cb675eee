"""The Celery application: configured from Django settings (CELERY_* names).

Workers start with `celery -A ddz_site worker`. Tasks live in games/tasks.py and
tournaments/tasks.py; they take ids and call one idempotent service each.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals
from django.db import close_old_connections

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ddz_site.settings")

app = Celery("ddz_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_prerun.connect
@signals.task_postrun.connect
def _task_connections(**_kwargs: Any) -> None:
    """Around each task, what Django does around each request: close a database connection
    that failed or outlived DATABASE_CONN_MAX_AGE (so with the default 0 one per task, as
    before), and health-check a kept one before its next use (settings: CELERY_DB_REUSE_MAX)."""
    close_old_connections()
