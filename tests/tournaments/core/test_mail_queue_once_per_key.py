"""A key names one message: queued twice (in turn, or by concurrent transactions on
PostgreSQL), it is written once and arrives once; an empty key or address is refused."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.conftest import Worker, race, wait_for
from tests.smtp_server import SmtpSink, body_of
from tournaments.core import mail
from tournaments.core.outbox import message_id
from tournaments.models import MailState, OutgoingMail


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_same_key_queued_twice_arrives_once(
    celery_worker: Worker, smtp_server: SmtpSink
) -> None:
    key, to = "test:twice", "twice@example.org"
    with transaction.atomic():
        first = mail.queue(key=key, to=to, subject="Hello", body="First text")
    with transaction.atomic():
        second = mail.queue(key=key, to=to, subject="Hello again", body="Second text")
    assert first is not None and second is None
    wait_for(lambda: OutgoingMail.objects.get(key=key).state == MailState.SENT, what="sent")
    celery_worker.drain()
    got = smtp_server.with_id(message_id(key))
    assert len(got) == 1
    assert body_of(got[0]).strip() == "First text"
    assert OutgoingMail.objects.get(key=key).attempts == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_transactions_queueing_one_key_write_one_row() -> None:
    def queue_once() -> object:
        with transaction.atomic():
            return mail.queue(key="test:race", to="race@example.org", subject="s", body="b")

    outcomes = race(6, queue_once)
    assert len(outcomes) == 6
    assert sum(o is not None for o in outcomes) == 1
    assert OutgoingMail.objects.filter(key="test:race").count() == 1


@pytest.mark.django_db
def test_a_message_needs_a_key_and_an_address() -> None:
    with pytest.raises(ValueError):
        mail.queue(key="", to="a@example.org", subject="s", body="b")
    with pytest.raises(ValueError):
        mail.queue(key="k", to="", subject="s", body="b")
    assert not OutgoingMail.objects.exists()
