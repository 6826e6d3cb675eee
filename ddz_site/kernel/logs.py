"""Logging filters of the site (settings.LOGGING)."""

from __future__ import annotations

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """On the "django.request" logger: a response below 500 (a 403 from PermissionDenied, a
    400 from a refused request) is the site's answer to the request, not a fault of the
    site, so its record keeps its one line and loses the traceback Django attaches; a server
    error (500 and above) keeps it. Never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True
