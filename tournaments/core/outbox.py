"""Sending the outbox (tournaments.models.OutgoingMail): how a queued message reaches its
address once, through Django's e-mail machinery, whatever the workers and the SMTP server do.

Vocabulary:

- *row*: one message to one address, written by tournaments.core.mail.queue under its ``key``.
  Its ``state`` goes pending → sending → sent, or → failed after DDZ_MAIL_ATTEMPTS attempts;
  a failed attempt puts it back to pending.
- *claim*: one conditional UPDATE (pending, or sending with its lease expired → sending, the
  attempt counted): of two workers given the same row, one takes it; the other does nothing.
- *lease*: how long a claim holds (DDZ_MAIL_LEASE_SECONDS, 60 by default): a worker killed
  mid-send leaves its row sending, and once the lease has passed the sweep sends it again and
  another worker claims it. It must exceed the longest send (EMAIL_TIMEOUT per SMTP step).
- *due*: a pending row's ``claimed_at`` after a failed attempt is when its next attempt is due
  (DDZ_MAIL_RETRY_SECONDS doubled at each attempt, at most an hour); None: at once.
- *sweep* (mail_sweep, from the beat sweep of tournaments.tasks): sends again the rows waiting
  longer than they should (a message lost to a broker outage, a retry due) and those whose
  claim's lease expired.

Never twice: a sent row is never claimed again, and ``Message-ID`` is made from the key, so
the same message always carries the same identifier. The one window for a duplicate is
between the SMTP server's acceptance of the message and the commit of "sent" (a worker killed
or the database lost in between): the row is then sent again after its lease, under the same
Message-ID, which lets mail clients and servers that deduplicate show it once.
"""

from __future__ import annotations

import hashlib
import logging
import smtplib
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db.models import F, Q
from django.utils import timezone

from ddz_site.kernel.dispatch import MAIL_SEND, enqueue
from tournaments.models import MailState, OutgoingMail

logger = logging.getLogger(__name__)

# A retry waits in a task's countdown only when it is short: the broker gives a message a
# worker holds back to another after its visibility timeout (settings.CELERY_BROKER_TRANSPORT_
# OPTIONS), so a longer wait is left to the sweep, which sends the row once it is due.
COUNTDOWN_MAX_SECONDS = 60
BACKOFF_MAX_SECONDS = 3600
ERROR_CHARS = 2000


def message_id(key: str) -> str:
    """The ``Message-ID`` of the message queued under ``key``: the same for every attempt
    (``<HEX@host>``, the host of DDZ_SITE_URL)."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:40]
    host = urlsplit(settings.DDZ_SITE_URL).hostname or "localhost"
    return f"<{digest}@{host}>"


def backoff_seconds(attempts: int) -> int:
    """Seconds before the attempt after ``attempts`` failed ones: DDZ_MAIL_RETRY_SECONDS,
    doubled at each attempt, at most an hour."""
    base = int(settings.DDZ_MAIL_RETRY_SECONDS)
    return int(min(base * 2 ** max(attempts - 1, 0), BACKOFF_MAX_SECONDS))


def mail_claim(*, mail_id: int) -> OutgoingMail | None:
    """Take row ``mail_id`` for one attempt: one conditional UPDATE (pending, or sending with
    its lease expired → sending, ``attempts`` + 1, ``claimed_at`` now), committed at once; the
    row, or None when it is sent, failed, absent or held by a live claim."""
    now = timezone.now()
    expired = now - timedelta(seconds=settings.DDZ_MAIL_LEASE_SECONDS)
    taken = (
        OutgoingMail.objects.filter(pk=mail_id)
        .filter(Q(state=MailState.PENDING) | Q(state=MailState.SENDING, claimed_at__lt=expired))
        .update(state=MailState.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    )
    return OutgoingMail.objects.filter(pk=mail_id).first() if taken else None


def _send(mail: OutgoingMail) -> None:
    """Hand ``mail`` to the configured e-mail backend (SMTP, or the console without
    EMAIL_HOST). Raises what the backend raises (smtplib.SMTPException, OSError)."""
    connection = get_connection(fail_silently=False)
    message = EmailMessage(
        subject=mail.subject,
        body=mail.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers={"Message-ID": message_id(mail.key)},
        connection=connection,
    )
    # Opened here so that the backend does not close it inside send_messages: once the server
    # has accepted the message, a failure at QUIT must not count as a failed attempt.
    connection.open()
    try:
        sent = connection.send_messages([message])
    except BaseException:
        _close(connection)
        raise
    _close(connection)
    if not sent:
        raise smtplib.SMTPException("the e-mail backend sent nothing")


def _close(connection: object) -> None:
    try:
        connection.close()  # type: ignore[attr-defined]
    except (smtplib.SMTPException, OSError) as exc:
        logger.info("closing the SMTP connection failed (the message was handed over): %s", exc)


def _permanent(exc: BaseException) -> bool:
    """An address the server refuses for good (5xx on every recipient): no retry helps."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _msg in exc.recipients.values())
    return False


def _attempt_failed(mail: OutgoingMail, exc: BaseException) -> str:
    error = f"{type(exc).__name__}: {exc}"[:ERROR_CHARS]
    mine = OutgoingMail.objects.filter(pk=mail.pk, state=MailState.SENDING)
    if _permanent(exc) or mail.attempts >= settings.DDZ_MAIL_ATTEMPTS:
        mine.update(state=MailState.FAILED, last_error=error)
        logger.warning("mail %s to %s failed after %s attempts: %s", mail.key, mail.to,
                       mail.attempts, error)  # fmt: skip
        return "failed"
    delay = backoff_seconds(mail.attempts)
    due = timezone.now() + timedelta(seconds=delay)
    mine.update(state=MailState.PENDING, claimed_at=due, last_error=error)
    # Eager tasks (the embedded demo, no broker) would retry at once, inside this one.
    if delay <= COUNTDOWN_MAX_SECONDS and not settings.CELERY_TASK_ALWAYS_EAGER:
        enqueue(MAIL_SEND, mail.pk, countdown=delay)
    logger.info("mail %s: attempt %s failed, again in %ss: %s", mail.key, mail.attempts, delay,
                error)  # fmt: skip
    return "retry"


def mail_deliver(*, mail_id: int) -> str:
    """One attempt at sending row ``mail_id`` (tournaments.tasks.mail_send): claim it
    (mail_claim), hand it to the e-mail backend with its Message-ID, mark it sent.

    Returns "sent"; "skipped" when the row could not be claimed (sent already, failed, held by
    a live claim, absent); "retry" after an SMTP error (the row pending again, its next attempt
    due after backoff_seconds, sent by a countdown or the sweep); "failed" after the last of
    DDZ_MAIL_ATTEMPTS attempts, or an address refused for good (``last_error`` says why).
    Database errors propagate (the task retries them; the claim's lease covers the rest).
    """
    mail = mail_claim(mail_id=mail_id)
    if mail is None:
        return "skipped"
    try:
        _send(mail)
    except (smtplib.SMTPException, OSError) as exc:
        return _attempt_failed(mail, exc)
    OutgoingMail.objects.filter(pk=mail.pk).exclude(state=MailState.SENT).update(
        state=MailState.SENT, sent_at=timezone.now(), last_error=""
    )
    return "sent"


def mail_sweep(*, older_than: float, limit: int = 500) -> int:
    """Send again (a task each, oldest first, at most ``limit``) the rows pending more than
    ``older_than`` seconds after they were queued or their attempt was due (a message lost to a
    broker outage, a retry left to the sweep) and the rows sending whose claim's lease expired
    (a worker killed mid-send); the number of rows found. Stops at the first message the broker
    does not take (the next sweep sends the rest)."""
    now = timezone.now()
    since = now - timedelta(seconds=older_than)
    expired = now - timedelta(seconds=settings.DDZ_MAIL_LEASE_SECONDS)
    waiting = list(
        OutgoingMail.objects.filter(
            Q(state=MailState.PENDING, claimed_at__isnull=True, created_at__lt=since)
            | Q(state=MailState.PENDING, claimed_at__lt=since)
            | Q(state=MailState.SENDING, claimed_at__lt=expired)
        )
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    for mail_id in waiting:
        if not enqueue(MAIL_SEND, mail_id):
            break
    if waiting:
        logger.info("mail sweep: %s messages sent again", len(waiting))
    return len(waiting)
