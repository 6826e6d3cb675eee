"""The e-mail the site sends (DESIGN.md "Mail"): each message is one OutgoingMail row,
written in the caller's transaction under a key naming what it says to whom, so the same message
is never queued twice; after commit the workers send it through Django's e-mail machinery
(tournaments.tasks.mail_send → tournaments.core.outbox.mail_deliver), retried, and a row
claimed by a worker killed mid-send is taken again after its lease. Players who turned e-mail
off (Player.mail_off) get none.

The messages: registration received and decided, a round's seating, results published, the
correction window; and the organizer's message to every player of an event. Each is written
in the site's default language (settings.LANGUAGE_CODE) from a plain-text template of
templates/mail/, with absolute links on DDZ_SITE_URL, and ends with a link that turns the
reader's e-mail off.

Vocabulary:

- *key*: what a message says to whom, unique (``seating:<round>:<player>:<table>:<seat>``,
  ``results:<round>:<player>``, ``correction:<round>:<player>``, ``registration:<id>:<status>``,
  ``broadcast:<event>:<nonce>:<player>``); a key already written queues nothing.
- *mail off*: per address: a player's choice (Player.mail_off) holds for every player record
  with his address, so the same person never gets the site's messages through another record.
  Replies to an account's own request (the account mails) are sent whatever it says.
- *unsubscribe token*: the address signed with the site's key (django.core.signing); the page
  it opens turns the address's mail off with a button (tournaments.web.people.mail).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Lower
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ddz_site.kernel.dispatch import MAIL_SEND, enqueue
from ddz_site.kernel.errors import DomainError
from games.models import Game
from tournaments.core import zones
from tournaments.core.access import Actor, organizer_lock
from tournaments.core.audit import audit_record
from tournaments.models import (
    Entry,
    Event,
    MailState,
    OutgoingMail,
    Player,
    PlayerLink,
    Registration,
    RegistrationStatus,
    Round,
    Seat,
)

UNSUBSCRIBE_SALT = "tournaments.core.mail.off"
SUBJECT_CHARS = 200  # OutgoingMail.subject
BODY_CHARS = 20_000
NONCE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class MailRefused(DomainError):
    """A message the organizer may not send as written (nothing was queued)."""

    code = "invalid"


# --- Addresses, links and rendering -------------------------------------------------------


def site_url(path: str) -> str:
    """``path`` (``/events/x/``) as an absolute URL on the site's address (DDZ_SITE_URL)."""
    return settings.DDZ_SITE_URL.rstrip("/") + path


def unsubscribe_token(address: str) -> str:
    """The signed token of ``address`` that the unsubscribe link carries."""
    # No timestamp: the same address always has the same link, and it never expires.
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object(address.strip().lower())


def unsubscribe_address(token: str) -> str | None:
    """The address a token of unsubscribe_token names; None when the token is not one (cut,
    altered, or signed with another key)."""
    try:
        address = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    return address if isinstance(address, str) and address else None


def unsubscribe_url(address: str) -> str:
    """The absolute URL of the page that turns ``address``'s e-mail off."""
    return site_url(reverse("mail:off", kwargs={"token": unsubscribe_token(address)}))


def mail_is_off(address: str) -> bool:
    """Whether a player with ``address`` turned the site's e-mail off."""
    return Player.objects.filter(email__iexact=address.strip(), mail_off=True).exists()


def _addressed(players: Iterable[Player]) -> list[Player]:
    """Those of ``players`` the site writes to: an address, and e-mail not turned off (by them
    or by another record with their address)."""
    with_address = [p for p in players if p.email and not p.mail_off]
    off = set(
        Player.objects.filter(mail_off=True)
        .annotate(address=Lower("email"))
        .filter(address__in={p.email.lower() for p in with_address})
        .values_list("address", flat=True)
    )
    return [p for p in with_address if p.email.lower() not in off]


def _render(template: str, address: str, **context: Any) -> str:
    """The body of ``templates/mail/<template>.txt`` for ``address``, in the active language,
    with the unsubscribe footer."""
    context.update(unsubscribe_url=unsubscribe_url(address), site_url=site_url("/"))
    return render_to_string(f"mail/{template}.txt", context).strip() + "\n"


# --- Queueing ------------------------------------------------------------------------------


def _after_commit(mail_ids: list[int]) -> None:
    def send() -> None:
        for mail_id in mail_ids:
            if not enqueue(MAIL_SEND, mail_id):
                break  # the broker is away: the sweep sends the rest (tournaments.core.outbox)

    transaction.on_commit(send)


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
    (returns None), so the same message is never sent twice.

    Safe under concurrency: of two transactions queueing one key, PostgreSQL makes the second
    wait on the unique index until the first ends, and it then finds the row (get_or_create);
    a key whose first transaction rolled back is written by the second. ``subject`` is cut to
    200 characters; ``mail_off`` is not checked here (the message functions check it; the
    account mails answer the reader's own request).

    Raises:
        ValueError: an empty ``key`` or ``to``.
    """
    if not key or not to:
        raise ValueError("a message needs a key and an address")
    subject = " ".join(subject.split())[:SUBJECT_CHARS]
    with transaction.atomic():
        mail, created = OutgoingMail.objects.get_or_create(
            key=key[:200],
            defaults={
                "to": to.strip(),
                "subject": subject,
                "body": body,
                "event": event,
                "player": player,
            },
        )
    if not created:
        return None
    _after_commit([mail.pk])
    return mail


@dataclass(frozen=True)
class _Message:
    key: str
    player: Player
    subject: str
    body: str


def _queue_all(event: Event, messages: list[_Message]) -> int:
    """Queue ``messages`` in one statement (ON CONFLICT DO NOTHING on ``key``), then send the
    rows still pending after commit; the number of messages given."""
    if not messages:
        return 0
    OutgoingMail.objects.bulk_create(
        [
            OutgoingMail(
                key=m.key[:200],
                to=m.player.email,
                subject=" ".join(m.subject.split())[:SUBJECT_CHARS],
                body=m.body,
                event=event,
                player=m.player,
            )
            for m in messages
        ],
        ignore_conflicts=True,
    )
    # A row that was there already and is pending gets one more task: harmless, its claim
    # is conditional (tournaments.core.outbox.mail_claim).
    ids = OutgoingMail.objects.filter(
        key__in=[m.key[:200] for m in messages], state=MailState.PENDING
    ).values_list("pk", flat=True)
    _after_commit(list(ids))
    return len(messages)


# --- Registration --------------------------------------------------------------------------


def _registration_player(registration: Registration) -> Player | None:
    if registration.player_id is not None:
        return registration.player
    user = registration.user
    return getattr(user, "player", None) if user is not None else None


def _registration_address(registration: Registration) -> str:
    player = _registration_player(registration)
    address = registration.email or (player.email if player is not None else "")
    if not address or mail_is_off(address) or (player is not None and player.mail_off):
        return ""
    return address


def registration_status_url(registration: Registration) -> str:
    """The absolute URL of the registration's own page (its status and check-in QR code), or
    of the event's page when the site has no such page."""
    event = registration.event
    try:
        path = reverse(
            "registration:status", kwargs={"slug": event.slug, "token": registration.token}
        )
    except NoReverseMatch:
        path = event.get_absolute_url()
    return site_url(path)


def _registration_context(registration: Registration) -> dict[str, Any]:
    event = registration.event
    starts = zones.event_time(event, event.starts_at)
    return {
        "registration": registration,
        "event": event,
        "starts": starts,
        "status_url": registration_status_url(registration),
        "event_url": site_url(event.get_absolute_url()),
    }


def registration_received(registration: Registration) -> None:
    """Queue "registration received" to the registration's address (none when it has none)."""
    address = _registration_address(registration)
    if not address:
        return
    event = registration.event
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(event)s: your registration is received") % {"event": event.name}
        body = _render("registration_received", address, **_registration_context(registration))
    queue(
        key=f"registration:{registration.pk}:received",
        to=address,
        subject=subject,
        body=body,
        event=event,
        player=_registration_player(registration),
    )


def registration_decided(registration: Registration) -> None:
    """Queue the organizer's decision (accepted, waiting list, declined) to the registration's
    address; nothing for a registration still pending or withdrawn, or without an address. One
    message per decision: accepted after the waiting list is a second message, the same
    decision saved again is none."""
    decided = (
        RegistrationStatus.ACCEPTED,
        RegistrationStatus.WAITLISTED,
        RegistrationStatus.DECLINED,
    )
    address = _registration_address(registration)
    if registration.status not in decided or not address:
        return
    event = registration.event
    with translation.override(settings.LANGUAGE_CODE):
        subjects = {
            RegistrationStatus.ACCEPTED: _("%(event)s: your registration is accepted"),
            RegistrationStatus.WAITLISTED: _("%(event)s: you are on the waiting list"),
            RegistrationStatus.DECLINED: _("%(event)s: your registration is declined"),
        }
        subject = subjects[RegistrationStatus(registration.status)] % {"event": event.name}
        body = _render(
            "registration_decided",
            address,
            status=registration.status,
            **_registration_context(registration),
        )
    queue(
        key=f"registration:{registration.pk}:{registration.status}",
        to=address,
        subject=subject,
        body=body,
        event=event,
        player=_registration_player(registration),
    )


# --- Rounds --------------------------------------------------------------------------------


def _seated(round_: Round) -> list[Seat]:
    """The seats of ``round_`` whose player the site writes to, by table and seat."""
    seats = list(
        Seat.objects.filter(table__round=round_)
        .select_related("table", "player")
        .order_by("table__number", "seat")
    )
    writable = {p.pk for p in _addressed(s.player for s in seats)}
    return [s for s in seats if s.player_id in writable]


def round_seated(round_: Round) -> None:
    """Queue to every seated player of ``round_`` his table and seat ("Round 3: table 7, seat E",
    the seat as the site names it, SEAT_CHOICES). Seated again at the same table and seat, a
    player gets nothing more; moved, he gets his new place."""
    event = round_.event
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        for seat in _seated(round_):
            player, table = seat.player, seat.table
            place = {"round": round_.number, "table": table.number, "seat": seat.seat}
            subject = _("%(event)s: round %(round)s, table %(table)s, seat %(seat)s") % {
                "event": event.name,
                **place,
            }
            body = _render(
                "round_seated",
                player.email,
                event=event,
                player=player,
                event_url=site_url(event.get_absolute_url()),
                **place,
            )
            key = f"seating:{round_.pk}:{player.pk}:{table.number}:{seat.seat}"
            messages.append(_Message(key, player, subject, body))
    _queue_all(event, messages)


def round_published(round_: Round) -> None:
    """Queue to every player seated in ``round_`` that its results are published, with his
    scorecard and the standings (public pages once the round is published)."""
    event = round_.event
    standings = site_url(reverse("public:standings", kwargs={"slug": event.slug}))
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(event)s: results of round %(round)s") % {
            "event": event.name,
            "round": round_.number,
        }
        for seat in _seated(round_):
            player = seat.player
            scorecard = reverse(
                "public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk}
            )
            body = _render(
                "round_published",
                player.email,
                event=event,
                player=player,
                round=round_.number,
                scorecard_url=site_url(scorecard),
                standings_url=standings,
            )
            messages.append(_Message(f"results:{round_.pk}:{player.pk}", player, subject, body))
    _queue_all(event, messages)


def online_closed(event: Event) -> None:
    """Queue to every entrant who played a board of the online robot duplicate ``event`` (its
    robots have no address) that its window closed: his scorecard, compared with the whole
    field now, and the standings. Once per entrant (keyed by event and player), in place of
    the rounds' own mails (tournaments.events.round_states)."""
    played = Player.objects.filter(robot=False, seats__table__round__event=event).distinct()
    standings = site_url(reverse("public:standings", kwargs={"slug": event.slug}))
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(event)s: the window is closed, your results") % {"event": event.name}
        for player in _addressed(played):
            scorecard = reverse(
                "public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk}
            )
            body = _render(
                "online_closed",
                player.email,
                event=event,
                player=player,
                scorecard_url=site_url(scorecard),
                standings_url=standings,
            )
            messages.append(
                _Message(f"online-closed:{event.pk}:{player.pk}", player, subject, body)
            )
    _queue_all(event, messages)


def correction_ends(round_: Round) -> dict[int, datetime]:
    """When the correction window of each table of ``round_`` ends (its id → the moment): the
    event's ``correction_minutes`` after the table's last game was stored (each game's window
    is counted from its own storing: tournaments.core.access.player_check_refusal); empty when
    the event has no window."""
    minutes = round_.event.correction_minutes
    if minutes <= 0:
        return {}
    last = (
        Game.objects.filter(table__round=round_, replaced_at__isnull=True)
        .values("table_id")
        .annotate(last=Max("submitted_at"))
    )
    return {row["table_id"]: row["last"] + timedelta(minutes=minutes) for row in last}


def round_closed(round_: Round) -> None:
    """Queue to every player seated in ``round_`` that his results are in and may be checked
    until the end of the correction window ("check them until Oct. 3, 2026, 9:40 p.m.
    (Asia/Shanghai)", in the event's time zone) through his private link if he has one in
    force, else on his scorecard. Nothing when the event has no correction window, nor to a
    table whose window is already over."""
    event = round_.event
    ends = correction_ends(round_)
    if not ends:
        return
    now = timezone.now()
    seats = [s for s in _seated(round_) if ends.get(s.table_id, now) > now]
    linked = set(
        PlayerLink.objects.filter(
            event=event,
            player_id__in=[s.player_id for s in seats],
            revoked_at__isnull=True,
            expires_at__gt=now,
        ).values_list("player_id", flat=True)
    )
    messages = []
    with translation.override(settings.LANGUAGE_CODE):
        subject = _("%(event)s: check your results of round %(round)s") % {
            "event": event.name,
            "round": round_.number,
        }
        for seat in seats:
            player = seat.player
            scorecard = reverse(
                "public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk}
            )
            body = _render(
                "round_closed",
                player.email,
                event=event,
                player=player,
                round=round_.number,
                until=zones.event_time(event, ends[seat.table_id]),
                has_link=player.pk in linked,
                scorecard_url=site_url(scorecard),
            )
            messages.append(_Message(f"correction:{round_.pk}:{player.pk}", player, subject, body))
    _queue_all(event, messages)


# --- The organizer's message ---------------------------------------------------------------


def broadcast_audience(event: Event) -> list[Player]:
    """The players of ``event`` (its entries, withdrawn or not) a message to all reaches: an
    address, e-mail not turned off; by name."""
    players = Player.objects.filter(
        pk__in=Entry.objects.filter(event=event).values("player_id")
    ).order_by("name", "pk")
    return _addressed(players)


def event_broadcast(*, event: Event, actor: Actor, subject: str, body: str, nonce: str) -> int:
    """Queue the organizer's message to every player of ``event`` (broadcast_audience), under
    ``nonce`` (the form's, one per page shown): the same nonce sent again (a double submit, a
    reload) queues nothing. Audited (``mail.broadcast``) when something was queued. The number
    of messages queued now.

    Raises:
        NotOrganizer: ``actor`` is no organizer of the event.
        MailRefused: an empty subject or message, too long, a malformed nonce, or no player
            to write to.
    """
    subject = " ".join(subject.split())
    body = body.strip()
    if not subject or not body:
        raise MailRefused(_("Write a subject and a message."))
    if len(subject) > SUBJECT_CHARS or len(body) > BODY_CHARS:
        raise MailRefused(
            _("A subject has at most %(subject)s characters, a message %(body)s.")
            % {"subject": SUBJECT_CHARS, "body": BODY_CHARS}
        )
    if not NONCE.match(nonce):
        raise MailRefused(_("This form is out of date: reload the page and write again."))
    with transaction.atomic():
        organizer_lock(event, actor)
        written = 0
        audience = list(broadcast_audience(event))
        if not audience:
            raise MailRefused(
                _(
                    "No player of this event has an e-mail address to write to (or every one "
                    "turned e-mail off): nothing sent."
                )
            )
        with translation.override(settings.LANGUAGE_CODE):
            for player in audience:
                text = _render("broadcast", player.email, event=event, player=player, text=body)
                written += bool(
                    queue(
                        key=f"broadcast:{event.pk}:{nonce}:{player.pk}",
                        to=player.email,
                        subject=f"{event.name}: {subject}",
                        body=text,
                        event=event,
                        player=player,
                    )
                )
        if written:
            audit_record(
                event=event,
                actor=actor,
                action="mail.broadcast",
                obj=event,
                changes={"subject": subject, "recipients": written, "nonce": nonce},
            )
    return written


# --- A player's choice ---------------------------------------------------------------------


def mail_set(*, address: str, off: bool, actor: Actor, event: Event | None = None) -> int:
    """Turn the site's e-mail off (``off``) or on for every player with ``address``; audited
    (``player.mail``) on each player changed, under ``event`` when the change came through one
    of its pages. The number of players changed (0: none has the address, or none changes)."""
    address = address.strip()
    if not address:
        return 0
    with transaction.atomic():
        players = list(
            Player.objects.select_for_update()
            .filter(email__iexact=address)
            .exclude(mail_off=off)
            .order_by("pk")
        )
        for player in players:
            audit_record(
                event=event,
                actor=actor,
                action="player.mail",
                obj=player,
                changes={"mail_off": [not off, off]},
            )
        Player.objects.filter(pk__in=[p.pk for p in players]).update(mail_off=off)
    return len(players)
