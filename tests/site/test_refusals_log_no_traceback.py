"""A refusal is an answer, not a fault: a 403 (PermissionDenied) or a 400 (a refused request)
is logged as one warning line, with no traceback on the console; a server error keeps its
traceback. Found by a trial of the demo: every page a player was not allowed to see printed a
traceback of Django's handler on the demo's console, as if the site had failed."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from ddz_site.kernel.logs import ClientErrorsWithoutTraceback
from tests.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_the_request_logger_drops_the_traceback_of_a_refusal() -> None:
    assert any(
        isinstance(f, ClientErrorsWithoutTraceback)
        for f in logging.getLogger("django.request").filters
    )


def test_a_403_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    event = EventFactory()
    user = get_user_model().objects.create_user("nosy", password="pw")
    client = Client()
    client.force_login(user)
    with caplog.at_level(logging.WARNING, logger="django.request"):
        page = client.get(f"/organizer/events/{event.slug}/")
    assert page.status_code == 403
    (record,) = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.WARNING
    assert "Forbidden" in record.getMessage()
    assert record.exc_info is None and record.exc_text is None


def test_a_server_error_keeps_its_traceback() -> None:
    record = logging.LogRecord(
        "django.request",
        logging.ERROR,
        __file__,
        1,
        "Internal Server Error: /x",
        None,
        (ValueError, ValueError("boom"), None),
    )
    record.status_code = 500
    assert ClientErrorsWithoutTraceback().filter(record)
    assert record.exc_info is not None
