"""Accounts tied to players' profiles.

Vocabulary: an *account* is a user of the site, made by signing up with an e-mail address
(django-allauth, ddz_site.web.accounts) or by an administrator (officials). An account is
*tied* to a player when Player.user names it: one account is one player and one player one
account (a OneToOneField, so a second tie is refused by the database too). The tie is on the
*person*, the player's kept record (a record merged into another, Player.same_as, is tied
through the record it was merged into), and is made in one of two ways:

- the *invitation*: an organizer of an event mails one of its players a signed link
  (django.core.signing, INVITATION_DAYS) naming the address it was mailed to; the account that
  has that address confirmed (signing in or up on the way, the link kept as ``next``) is tied
  to the player, while it is the player's latest invitation (one sent again to another
  address replaces it: a mistaken address is put right);
- the *claim* (ProfileClaim): a signed-in account with no player asks "this is me" on a public
  profile; an organizer of one of the person's events approves it (the tie) or declines it.

A person is also an account's when an event names her that account's player (EventRole
"player", as the demo's player account): she is tied as much as through Player.user.

Refused (AccountRefused, nothing changed): an expired, forged or replaced link, one opened by
an account without its address confirmed, an invitation to the address of an account tied to
another player, a player already tied to another account, an account already tied to another
player, a second pending claim of one account (to any person), and any invitation, tie or
claim of a robot of an online event
(Player.robot, `refuse_robot`: it plays the seats no entrant holds, at every entrant's table, so
an account tied to it would see every entrant's game). Deciding a claim is for organizers of
the person's events (NotAllowed). Each tie and decision is audited on an event of the
person's: the invitation's, or one the deciding organizer runs.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from tournaments.core import mail
from tournaments.core.access import (
    Actor,
    NotAllowed,
    account_person,
    is_organizer,
    organizer_lock,
    signed_in,
    tied_account,
)
from tournaments.core.audit import audit_record
from tournaments.models import (
    ClaimStatus,
    Entry,
    Event,
    OutgoingMail,
    Player,
    ProfileClaim,
    Seat,
)

INVITATION_DAYS = 14
INVITATION_SALT = "tournaments.people.accounts.invitation"
CLAIM_MESSAGE_MAX = 1000


class AccountRefused(DomainError):
    """A tie of an account to a player that cannot be made; nothing changed."""

    code = "refused"


@dataclass(frozen=True)
class Invitation:
    """What a valid invitation link names: the person to tie, the event it came from and the
    address it was mailed to."""

    player: Player
    event: Event
    address: str


def robot_refusal(player: Player) -> str | None:
    """Why ``player`` is never invited, tied to an account, claimed nor renamed, in the
    reader's language: it is a robot (module docstring); None for a person."""
    if not player.robot:
        return None
    return _(
        "%(name)s is a robot: it plays the seats no entrant holds, and is never tied to an "
        "account nor renamed."
    ) % {"name": player.shown_name}


def refuse_robot(player: Player) -> None:
    """Refuse to invite, tie, claim or rename ``player`` when it is a robot (`robot_refusal`).

    Raises:
        AccountRefused: ``player`` is a robot.
    """
    refusal = robot_refusal(player)
    if refusal is not None:
        raise AccountRefused(refusal)


# --- Reading ---------------------------------------------------------------------------------


def person_of(player: Player) -> Player:
    """The person of ``player``: the record it was merged into, or itself."""
    if player.same_as_id is None:
        return player
    return Player.objects.get(pk=player.same_as_id)


def _records(person: Player) -> list[int]:
    return list(
        Player.objects.filter(Q(pk=person.pk) | Q(same_as_id=person.pk)).values_list(
            "pk", flat=True
        )
    )


def events_of(person: Player) -> list[Event]:
    """The events the person (any of her records) entered or was seated in, oldest first."""
    ids = _records(person)
    entered = Entry.objects.filter(player_id__in=ids).values("event_id")
    seated = Seat.objects.filter(player_id__in=ids).values("table__round__event_id")
    return list(Event.objects.filter(Q(pk__in=entered) | Q(pk__in=seated)).order_by("pk"))


def account_player(user: Actor) -> Player | None:
    """The player tied to ``user``'s account (Player.user, or an event's player role), or
    None (also for anyone not signed in): tournaments.core.access.account_person."""
    return account_person(user)


def organized_event(actor: Actor, person: Player) -> Event | None:
    """An event of the person's that ``actor`` organizes (the first), or None: where a claim's
    decision is audited, and whether he may decide it."""
    return next((e for e in events_of(person) if is_organizer(actor, e)), None)


def claims_pending(*, event: Event) -> list[ProfileClaim]:
    """The pending claims to the persons of ``event``'s players (its entries), oldest first,
    with their account and player."""
    entered = Entry.objects.filter(event=event).values_list("player_id", "player__same_as_id")
    persons = {same_as or pk for pk, same_as in entered}
    return list(
        ProfileClaim.objects.filter(status=ClaimStatus.PENDING, player_id__in=persons)
        .select_related("user", "player")
        .order_by("created_at", "pk")
    )


def claim_of(*, user: Actor, player: Player) -> ProfileClaim | None:
    """``user``'s latest claim to the person of ``player`` (any status), or None."""
    account = signed_in(user)
    if account is None:
        return None
    return (
        ProfileClaim.objects.filter(user=account, player=person_of(player))
        .order_by("-created_at", "-pk")
        .first()
    )


# --- Invitations -----------------------------------------------------------------------------


def invitation_token(*, player: Player, event: Event, address: str) -> str:
    """The signed token of an invitation to the person of ``player`` from ``event``, mailed
    to ``address``."""
    return signing.dumps(
        {"p": person_of(player).pk, "e": event.pk, "a": address}, salt=INVITATION_SALT
    )


def invitation_read(token: str) -> Invitation:
    """The invitation ``token`` names.

    Raises:
        AccountRefused: expired (older than INVITATION_DAYS), forged or damaged, naming a
        player or event that no longer exists, or naming a robot (one mailed before
        invitation_send refused robots).
    """
    try:
        data = signing.loads(token, salt=INVITATION_SALT, max_age=timedelta(days=INVITATION_DAYS))
    except signing.SignatureExpired:
        raise AccountRefused(
            _(
                "This invitation has expired (it works for %(days)d days). Ask the organizer "
                "to send a new one."
            )
            % {"days": INVITATION_DAYS}
        ) from None
    except signing.BadSignature:
        raise AccountRefused(
            _("This invitation link is not valid: copy the whole link from the e-mail.")
        ) from None
    address = data.get("a")
    if not isinstance(address, str):
        # Made before invitations named their address: ask for one that does.
        raise AccountRefused(
            _("This invitation is out of date. Ask the organizer to send a new one.")
        )
    player = Player.objects.filter(pk=data.get("p")).first()
    event = Event.objects.filter(pk=data.get("e")).first()
    if player is None or event is None:
        raise AccountRefused(_("This invitation names a player who is no longer on the site."))
    refuse_robot(player)
    return Invitation(player=person_of(player), event=event, address=address)


def _has_address(account: User, address: str) -> bool:
    """Whether ``account`` has ``address`` confirmed (django-allauth's EmailAddress)."""
    return EmailAddress.objects.filter(user=account, email__iexact=address, verified=True).exists()


def _address(email: str) -> str:
    address = email.strip()
    if not address:
        raise AccountRefused(_("Give the player's e-mail address."))
    unfit = text_refusal(address, max_length=254)
    if unfit is not None:
        raise AccountRefused(unfit[1])
    try:
        validate_email(address)
    except ValidationError:
        raise AccountRefused(
            _("“%(address)s” is not an e-mail address.") % {"address": address}
        ) from None
    return address


def invitation_send(
    *,
    event: Event,
    player: Player,
    email: str,
    actor: Actor,
    link: Callable[[str], str],
) -> OutgoingMail | None:
    """Write ``email`` as the address of ``player`` (a player of ``event``) and mail it an
    invitation to tie an account to the player's profile: ``link(token)`` is the absolute
    address of the invitation page. One transaction; audited (``player.invite``).

    Returns the queued mail (tournaments.core.mail.queue).

    Raises:
        NotOrganizer: ``actor`` is not an organizer of ``event``;
        AccountRefused: the player is not in the event, is a robot (`refuse_robot`), the
        address is not one or is an account's tied to another player, or the player is
        already tied to an account.
    """
    address = _address(email)
    with transaction.atomic():
        organizer_lock(event, actor)
        record = Player.objects.select_for_update().filter(pk=player.pk).first()
        if record is None or not Entry.objects.filter(event=event, player=record).exists():
            raise AccountRefused(_("This player is not in the event."))
        refuse_robot(record)
        person = person_of(record)
        if tied_account(person) is not None:
            raise AccountRefused(
                _("%(name)s is already tied to an account.") % {"name": person.name}
            )
        _refuse_address_tied_elsewhere(address, person)
        before = record.email
        if before != address:
            Player.objects.filter(pk=record.pk).update(email=address)
        token = invitation_token(player=person, event=event, address=address)
        site = event.name
        queued = mail.queue(
            key=f"invitation:{person.pk}:{uuid.uuid4()}",
            to=address,
            subject=_("%(event)s: your player profile on the site") % {"event": site},
            body=_(
                "The organizer of %(event)s invites you to tie your account on the site to "
                "your player profile, %(name)s: your events and results in one place.\n\n"
                "Open this link and sign in, or sign up with this address if you have no "
                "account yet:\n\n%(link)s\n\n"
                "The link works for %(days)d days. If you did not expect this message, ignore "
                "it."
            )
            % {"event": site, "name": person.name, "link": link(token), "days": INVITATION_DAYS},
            event=event,
            player=record,
        )
        audit_record(
            event=event,
            actor=actor,
            action="player.invite",
            obj=record,
            changes={"email": [before, address], "person": person.pk},
        )
    return queued


def _refuse_address_tied_elsewhere(address: str, person: Player) -> None:
    """AccountRefused when an account with ``address`` confirmed is another person's."""
    for account in User.objects.filter(
        emailaddress__email__iexact=address, emailaddress__verified=True
    ):
        other = account_person(account)
        if other is not None and other.pk != person.pk:
            raise AccountRefused(
                _("The account of %(address)s is already tied to another player, %(name)s.")
                % {"address": address, "name": other.name}
            )


def _tie(person: Player, account: User) -> None:
    """Tie ``account`` to ``person`` inside the caller's transaction, or refuse; the other
    accounts' pending claims to her are declined, and a person without an address takes the
    account's confirmed one."""
    _refuse_tie(person, account)
    try:
        with transaction.atomic():
            # Conditional: two ties at once leave one, never a tie overwritten.
            tied = Player.objects.filter(
                Q(user__isnull=True) | Q(user=account), pk=person.pk
            ).update(user=account)
    except IntegrityError:
        tied = 0
    if not tied:
        raise AccountRefused(
            _("%(name)s is already tied to another account.") % {"name": person.name}
        )
    # The site writes to a player at her record's address (tournaments.core.mail): a
    # profile with none takes the account's confirmed one, or its owner would get no mail
    # of her events (a trial's claimed profile got no results).
    if not person.email:
        confirmed = (
            EmailAddress.objects.filter(user=account, verified=True)
            .order_by("-primary", "pk")
            .values_list("email", flat=True)
            .first()
        )
        if confirmed:
            Player.objects.filter(pk=person.pk, email="").update(email=confirmed)
            person.email = confirmed
    # The other accounts' claims to her are answered: she is someone's now.
    ProfileClaim.objects.filter(player=person, status=ClaimStatus.PENDING).exclude(
        user=account
    ).update(status=ClaimStatus.DECLINED, decided_at=timezone.now())


def _refuse_tie(person: Player, account: User) -> None:
    """AccountRefused when ``person`` is a robot, or another account's, or ``account`` is
    another person's."""
    refuse_robot(person)
    other = account_person(account)
    if other is not None and other.pk != person.pk:
        raise AccountRefused(
            _("This account is already tied to another player, %(name)s.") % {"name": other.name}
        )
    tied = tied_account(person)
    if tied is not None and tied != account.pk:
        raise AccountRefused(
            _("%(name)s is already tied to another account.") % {"name": person.name}
        )


def invitation_accept(*, token: str, user: Actor) -> Player:
    """Tie the signed-in ``user``'s account to the player ``token`` invites. Audited
    (``player.account``, on the invitation's event). Opening it again once tied changes
    nothing.

    Raises:
        AccountRefused: the link (invitation_read), nobody signed in, the link replaced by
        a newer invitation or mailed to an address the account has not confirmed, the
        player tied to another account, the account tied to another player.
    """
    account = signed_in(user)
    if account is None:
        raise AccountRefused(_("Sign in first."))
    invitation = invitation_read(token)
    with transaction.atomic():
        person = Player.objects.select_for_update().get(pk=invitation.player.pk)
        if person.user_id == account.pk:
            return person
        _refuse_tie(person, account)  # said first: no address makes a tie possible
        _refuse_other_address(invitation, person, account)
        _tie(person, account)
        audit_record(
            event=invitation.event,
            actor=account,
            action="player.account",
            obj=person,
            changes={"user": [None, account.pk], "how": "invitation"},
        )
    person.user = account
    return person


def _refuse_replaced(invitation: Invitation, person: Player) -> None:
    """AccountRefused unless ``invitation`` is the person's latest: her records still carry
    its address (invitation_send writes the one it mails)."""
    if not Player.objects.filter(
        pk__in=_records(person), email__iexact=invitation.address
    ).exists():
        raise AccountRefused(
            _(
                "This invitation was replaced by a newer invitation, mailed to another "
                "address. Open the link of the latest one."
            )
        )


def invitation_refusal(*, token: str, user: Actor) -> str | None:
    """Why `user` opening the invitation `token` would tie nothing (invitation_accept's
    refusals, read without writing: the page says it before the button), or None. For one not
    signed in, only what no account changes: the link itself, replaced or not."""
    try:
        invitation = invitation_read(token)
        person = invitation.player
        account = signed_in(user)
        if account is None:
            _refuse_replaced(invitation, person)
        elif person.user_id != account.pk:
            _refuse_tie(person, account)
            _refuse_other_address(invitation, person, account)
    except AccountRefused as exc:
        return exc.message
    return None


def _refuse_other_address(invitation: Invitation, person: Player, account: User) -> None:
    """AccountRefused unless ``invitation`` is the person's latest (her records still carry
    its address: invitation_send writes the one it mails) and ``account`` has its address
    confirmed."""
    _refuse_replaced(invitation, person)
    address = invitation.address
    if not _has_address(account, address):
        raise AccountRefused(
            _(
                "This invitation was sent to %(address)s: sign in with the account of that "
                "address, or add it to your account's e-mail addresses and confirm it."
            )
            % {"address": address}
        )


# --- Claims ----------------------------------------------------------------------------------


def claim_make(*, user: Actor, player: Player, message: str = "") -> ProfileClaim:
    """The signed-in ``user`` claims to be the person of ``player`` (pending until an
    organizer decides), with an optional ``message`` to him.

    Raises:
        AccountRefused: nobody signed in; the person a robot (`refuse_robot`); the account
        already tied to a player; the person already tied to an account; a claim of this
        account already pending (to this person or another); a message that is not text or
        longer than CLAIM_MESSAGE_MAX characters.
    """
    account = signed_in(user)
    if account is None:
        raise AccountRefused(_("Sign in first."))
    unfit = text_refusal(message, lines=True, max_length=CLAIM_MESSAGE_MAX)
    if unfit is not None:
        raise AccountRefused(unfit[1])
    person = person_of(player)
    refuse_robot(person)
    own = account_person(account)
    if own is not None:
        raise AccountRefused(
            _("Your account is already tied to the player %(name)s.") % {"name": own.name}
        )
    if tied_account(person) is not None:
        raise AccountRefused(_("%(name)s is already tied to an account.") % {"name": person.name})
    waiting = (
        ProfileClaim.objects.filter(user=account, status=ClaimStatus.PENDING)
        .exclude(player=person)
        .select_related("player")
        .first()
    )
    if waiting is not None:
        raise AccountRefused(
            _("You have asked to be %(name)s; an organizer will decide before you ask again.")
            % {"name": waiting.player.name}
        )
    try:
        with transaction.atomic():
            return ProfileClaim.objects.create(user=account, player=person, message=message.strip())
    except IntegrityError:
        raise AccountRefused(
            _("You have already asked to be %(name)s; an organizer will decide.")
            % {"name": person.name}
        ) from None


def claim_decide(*, claim: ProfileClaim, actor: Actor, approve: bool) -> ProfileClaim:
    """Approve (tie the claim's account to its person) or decline a pending claim. One
    transaction; audited (``player.claim.approve`` / ``player.claim.decline``) on an event of
    the person's that ``actor`` organizes.

    Raises:
        NotAllowed: ``actor`` organizes none of the person's events;
        AccountRefused: the claim is no longer pending; on approval, the person a robot, or
        the person or the account already tied elsewhere.
    """
    with transaction.atomic():
        locked = ProfileClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
        person = person_of(locked.player)
        event = organized_event(actor, person)
        if event is None:
            raise NotAllowed(
                _("Only an organizer of one of %(name)s's events may decide this claim.")
                % {"name": person.name}
            )
        if locked.status != ClaimStatus.PENDING:
            raise AccountRefused(_("This claim has already been decided."))
        if approve:
            _tie(person, locked.user)
        status = ClaimStatus.APPROVED if approve else ClaimStatus.DECLINED
        now = timezone.now()
        ProfileClaim.objects.filter(pk=locked.pk).update(
            status=status, decided_at=now, decided_by=signed_in(actor)
        )
        audit_record(
            event=event,
            actor=actor,
            action="player.claim.approve" if approve else "player.claim.decline",
            obj=person,
            changes={
                "claim": locked.pk,
                "status": [ClaimStatus.PENDING.value, status.value],
                **({"user": [None, locked.user_id]} if approve else {}),
            },
        )
    locked.status, locked.decided_at = status, now
    return locked


# --- The account's own settings --------------------------------------------------------------


def account_mail_set(*, user: Actor, mail_on: bool) -> Player:
    """Whether the site mails the player tied to ``user``'s account about his events
    (Player.mail_off, on every record of the person).

    Raises:
        AccountRefused: nobody signed in, or the account is tied to no player.
    """
    player = account_player(user)
    if player is None:
        raise AccountRefused(_("Your account is not tied to a player yet."))
    Player.objects.filter(pk__in=_records(player)).update(mail_off=not mail_on)
    player.mail_off = not mail_on
    return player
