"""A worker killed in the middle of sending a message (SIGKILL while the SMTP server holds its
DATA) leaves the row claimed; once the claim's lease has passed (DDZ_MAIL_LEASE_SECONDS, 2 s
here) beat's sweep sends it again, a new worker claims it, and the message arrives exactly once.

Not a race on timing: the SMTP server holds the first DATA until the test has killed the worker,
then answers 421 to nobody and keeps nothing (a message the server never accepted).
On real PostgreSQL, Redis, Celery worker processes, beat and an SMTP server.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import transaction

from tests.conftest import Worker, wait_for
from tests.site.test_faults_lose_nothing import _forget_unacked
from tests.smtp_server import SmtpSink
from tournaments.core import mail
from tournaments.core.outbox import message_id
from tournaments.models import MailState, OutgoingMail

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

LEASE = "2"


def test_a_message_a_killed_worker_was_sending_arrives_once(
    celery_worker: Worker, celery_beat, smtp_server: SmtpSink
) -> None:
    key = "test:killed-mid-send"
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    hold = smtp_server.hold()
    try:
        with transaction.atomic():
            mail.queue(key=key, to="killed@example.org", subject="Seat", body="Table 7, seat E")
        assert hold.arrived.wait(60), "the worker never sent the message's DATA"
        row = OutgoingMail.objects.get(key=key)
        assert (row.state, row.attempts) == (MailState.SENDING, 1)
        celery_worker.kill()
        hold.release()
        assert smtp_server.with_id(message_id(key)) == []
        # The next worker, and the sweep it runs, count the lease in seconds.
        celery_worker.env["DDZ_MAIL_LEASE_SECONDS"] = LEASE
        celery_worker.restart()
        celery_beat()
        wait_for(
            lambda: OutgoingMail.objects.get(key=key).state == MailState.SENT,
            timeout=60,
            what="the sweep and the new worker to send the message after the lease",
        )
        celery_worker.drain()
        smtp_server.wait(lambda got: False, timeout=3)  # two more sweeps: nothing more arrives
    finally:
        hold.release()
        del_lease = celery_worker.env.pop("DDZ_MAIL_LEASE_SECONDS", None)
        if celery_worker.process.poll() is None and del_lease is not None:
            celery_worker.kill()  # the session's worker goes on with the site's lease
        if celery_worker.process.poll() is not None:
            celery_worker.restart()
        _forget_unacked(queue)
    assert len(smtp_server.with_id(message_id(key))) == 1
    row = OutgoingMail.objects.get(key=key)
    assert row.attempts == 2 and row.sent_at is not None
