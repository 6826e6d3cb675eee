"""The e-mail the site sends (DESIGN.md "Messages"): each message is one OutgoingMail row,
written in the caller's transaction under a key naming what it says to whom, so the same message
is never queued twice; after commit the workers send it through Django's e-mail machinery
(tournaments.tasks.mail_send), retried, and a row claimed by a worker killed mid-send is taken
again after its lease. Players who turned e-mail off (Player.mail_off) get none.

The messages: registration received and accepted, a round's seating, results published, the
correction window; and the organizer's message to every player of an event.
"""

from __future__ import annotations

from tournaments.models import Event, OutgoingMail, Player, Registration, Round


def queue(
    *,
    key: str,
    to: str,
    subject: str,
    body: str,
    event: Event | None = None,
    player: Player | None = None,
) -> OutgoingMail | None:
    """Queue one message (the primitive under the others; the account mails of django-allauth
    come here through the site's account adapter): write its row under ``key`` in the caller's
    transaction and have a worker send it after commit. A ``key`` already written queues nothing
    (returns None), so the same message is never sent twice."""
    raise NotImplementedError


def registration_received(registration: Registration) -> None:
    """Queue "registration received" to the registration's address (none when it has none)."""
    raise NotImplementedError  # written by the messages work (issue 21 item 5)


def registration_decided(registration: Registration) -> None:
    """Queue the organizer's decision (accepted, waiting list, declined) to the registration's
    address."""
    raise NotImplementedError


def round_seated(round_: Round) -> None:
    """Queue to every seated player of ``round_`` his table and seat ("Round 3: table 7, seat E")."""
    raise NotImplementedError
