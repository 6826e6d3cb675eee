"""An SMTP server that refuses for now (4xx) gets the message again after a backoff, and it
arrives once; after DDZ_MAIL_ATTEMPTS refusals the message is failed with the server's answer
(the dashboard lists it), and a failed or sent message is never sent again."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import override_settings

from tests.conftest import Worker, wait_for
from tests.smtp_server import SmtpSink
from tournaments.core import mail
from tournaments.core.outbox import backoff_seconds, mail_deliver, message_id
from tournaments.models import MailState, OutgoingMail


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_refused_once_then_sent_once(celery_worker: Worker, smtp_server: SmtpSink) -> None:
    key = "test:refused-once"
    smtp_server.refuse(1)
    with transaction.atomic():
        mail.queue(key=key, to="refused@example.org", subject="Try again", body="Text")
    wait_for(
        lambda: OutgoingMail.objects.get(key=key).state == MailState.SENT,
        what="the message sent on its second attempt",
    )
    celery_worker.drain()
    row = OutgoingMail.objects.get(key=key)
    assert row.attempts == 2 and row.last_error == ""
    assert len(smtp_server.with_id(message_id(key))) == 1
    assert [m["Message-ID"] for m in smtp_server.refused].count(message_id(key)) == 1


def _smtp(smtp_server: SmtpSink, **extra: object) -> override_settings:
    return override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST=smtp_server.host,
        EMAIL_PORT=smtp_server.port,
        **extra,
    )


@pytest.mark.django_db
def test_failed_after_the_last_attempt_and_never_sent_again(smtp_server: SmtpSink) -> None:
    # Not committed: no worker sees this row; the test makes each attempt itself.
    row = OutgoingMail.objects.create(key="test:failing", to="f@example.org", subject="s", body="b")
    smtp_server.refuse(2)
    with _smtp(smtp_server, DDZ_MAIL_ATTEMPTS=2, DDZ_MAIL_RETRY_SECONDS=30):
        assert mail_deliver(mail_id=row.pk) == "retry"
        row.refresh_from_db()
        assert row.state == MailState.PENDING and "451" in row.last_error
        # Its next attempt is due after the backoff.
        assert row.claimed_at is not None and row.created_at < row.claimed_at
        assert backoff_seconds(1) == 30 and backoff_seconds(3) == 120
        assert mail_deliver(mail_id=row.pk) == "failed"
        row.refresh_from_db()
        assert row.state == MailState.FAILED and row.attempts == 2 and "451" in row.last_error
        assert mail_deliver(mail_id=row.pk) == "skipped"
    assert smtp_server.with_id(message_id("test:failing")) == []


@pytest.mark.django_db
def test_a_sent_message_is_not_claimed_again(smtp_server: SmtpSink) -> None:
    row = OutgoingMail.objects.create(
        key="test:sent-once", to="s@example.org", subject="s", body="b"
    )
    with _smtp(smtp_server):
        assert mail_deliver(mail_id=row.pk) == "sent"
        assert mail_deliver(mail_id=row.pk) == "skipped"
    smtp_server.wait(lambda got: False, timeout=0.3)
    assert len(smtp_server.with_id(message_id("test:sent-once"))) == 1
    row.refresh_from_db()
    assert row.state == MailState.SENT and row.sent_at is not None
