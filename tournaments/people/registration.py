"""Registration: how a player gets into an event before it starts.

Vocabulary: the organizer *opens* registration (Event.status becomes registration_open) with a
*limit* (Event.registration_limit: how many entries can be accepted; empty, no limit), a
*deadline* (Event.registration_deadline), a *waiting list* (Event.waiting_list: once the places
are taken, new registrations wait for one instead of being refused) and the *categories* an
entrant may declare (Event.categories: women, youth, senior, novice — CATEGORIES — or the
organizer's own labels); he *closes* it again. A *registration* (tournaments.models.Registration)
is made online by a signed-in account (one per account per event) or added by the organizer;
he *accepts* it (the registration's Player — the account's own when it has one, else a new one —
is entered in the event: Entry, with the registration's categories), *declines* it or puts it on
the *waiting list*. The accepted registrations never outnumber the limit: each decision locks
the event row (tournaments.core.access.organizer_lock), so of two organizers accepting the last
place at once exactly one succeeds. A *withdrawal* of an accepted entry frees its place: its
Entry is removed while no round has started, else it is withdrawn from the next round
(Entry.withdrawn_from). Every entrant has a registration, whose ``token`` the check-in QR code
carries (tournaments.people.checkin); the players file (tournaments.events.players_csv) makes
accepted registrations under the same rules.

Every change is audited (``registration.*``) and each registration received or decided is
written to its address by tournaments.core.mail in the same transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.text import blank, text_refusal
from tournaments.core import mail
from tournaments.core.access import (
    Actor,
    NotAllowed,
    is_organizer,
    organizer_lock,
    signed_in,
)
from tournaments.core.audit import audit_record
from tournaments.core.zones import event_time
from tournaments.events.rounds import entry_add
from tournaments.models import (
    STARTED,
    Entry,
    Event,
    EventStatus,
    Player,
    Registration,
    RegistrationStatus,
    RoundState,
)
from tournaments.people import entrants
from tournaments.people.categories import (
    RegistrationRefused,
    categories_check,
    categories_parse,
    category_label,
)

DECISIONS = ("accept", "decline", "waitlist")
# The most places an event offers: more is a typo (and past what the database holds).
MAX_PLACES = 100_000


def accepted_count(event: Event) -> int:
    """How many registrations of ``event`` are accepted: the places taken."""
    return Registration.objects.filter(event=event, status=RegistrationStatus.ACCEPTED).count()


def full_refusal(event: Event, taken: int | None = None, *, waiting: str = "") -> str | None:
    """Why no more registration of ``event`` can be accepted ("all 24 places are taken…"),
    None while a place is free (or it has no limit); `waiting`: the name of one on the
    waiting list already, who stays there."""
    if event.registration_limit is None:
        return None
    taken = accepted_count(event) if taken is None else taken
    if taken < event.registration_limit:
        return None
    n = event.registration_limit
    if waiting:
        return _(
            "All %(n)s places are taken: %(name)s stays on the waiting list until a place is "
            "freed or the limit is raised."
        ) % {"n": n, "name": waiting}
    return _("All %(n)s places are taken; put it on the waiting list or raise the limit.") % {
        "n": n
    }


def _deadline_refusal(event: Event, deadline: datetime | None) -> str | None:
    """Why ``deadline`` cannot be ``event``'s registration deadline (past, or after the
    event's end), or None."""
    if deadline is not None and deadline <= timezone.now():
        return _("The registration deadline is past: choose a later one.")
    if deadline is not None and event.ends_at is not None and deadline > event.ends_at:
        return _(
            "The registration deadline is after the event's end (%(end)s): choose an earlier one."
        ) % {"end": event_time(event, event.ends_at)}
    return None


def registration_open(
    *,
    event: Event,
    actor: Actor,
    limit: int | None = None,
    deadline: datetime | None = None,
    waiting_list: bool = True,
    categories: list[str] | None = None,
    check_in_required: bool | None = None,
) -> Event:
    """Open registration of ``event`` (or change its settings while open): its ``limit`` of
    places (None: no limit), ``deadline``, ``waiting_list`` and ``categories`` (keys of
    CATEGORIES or the organizer's labels, as categories_parse gives them), and whether its
    rounds are seated with those checked in (``check_in_required``; None: unchanged). Audited
    (``registration.open``).

    Raises:
        NotOrganizer; RegistrationRefused: the event finished or under way (a round started), a
        limit below 1, above MAX_PLACES or below the entries accepted already, a deadline past
        or after the event's end,
        a category declared by a registration and dropped.
    """
    categories = categories_parse(",".join(categories or []))
    if limit is not None and limit < 1:
        raise RegistrationRefused(_("The limit is at least 1 place (or empty: no limit)."))
    if limit is not None and limit > MAX_PLACES:
        raise RegistrationRefused(
            _("An event has at most %(n)s places (or empty: no limit).") % {"n": MAX_PLACES}
        )
    refusal = _deadline_refusal(event, deadline)
    if refusal is not None:
        raise RegistrationRefused(refusal)
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        if locked.status == EventStatus.FINISHED or locked.started_round() is not None:
            raise RegistrationRefused(
                _("%(event)s is under way or finished: its registration stays closed.")
                % {"event": locked.name}
            )
        taken = accepted_count(locked)
        if limit is not None and limit < taken:
            raise RegistrationRefused(
                _("%(n)s entries are accepted already: the limit cannot be below that.")
                % {"n": taken}
            )
        declared = {
            c
            for cs in Registration.objects.filter(event=locked).values_list("categories", flat=True)
            for c in cs
        }
        dropped = sorted(declared - set(categories))
        if dropped:
            raise RegistrationRefused(
                _("Entrants declared %(categories)s already: keep these categories.")
                % {"categories": ", ".join(category_label(c) for c in dropped)}
            )
        values: dict[str, Any] = {
            "status": EventStatus.REGISTRATION_OPEN,
            "registration_limit": limit,
            "registration_deadline": deadline,
            "waiting_list": waiting_list,
            "categories": categories,
        }
        if check_in_required is not None:
            values["check_in_required"] = check_in_required
        Event.objects.filter(pk=locked.pk).update(**values)
        audit_record(
            event=locked,
            actor=actor,
            action="registration.open",
            obj=locked,
            changes={
                **values,
                "registration_deadline": deadline.isoformat() if deadline else None,
                "was": locked.status,
            },
        )
    for name, value in values.items():
        setattr(event, name, value)
    return event


def registration_close(*, event: Event, actor: Actor) -> Event:
    """Close registration of ``event`` (its status back to announced). Audited.

    Raises:
        NotOrganizer; RegistrationRefused: registration is not open.
    """
    with transaction.atomic():
        organizer_lock(event, actor)
        if not Event.objects.filter(pk=event.pk, status=EventStatus.REGISTRATION_OPEN).update(
            status=EventStatus.ANNOUNCED
        ):
            raise RegistrationRefused(_("Registration of this event is not open."))
        audit_record(
            event=event,
            actor=actor,
            action="registration.close",
            obj=event,
            changes={"status": [EventStatus.REGISTRATION_OPEN, EventStatus.ANNOUNCED]},
        )
    event.status = EventStatus.ANNOUNCED
    return event


def _fields(name: str, email: str, club: str, note: str) -> tuple[str, str, str, str]:
    """The typed fields of a registration, stripped; RegistrationRefused when one is unfit."""
    name, email, club, note = name.strip(), email.strip(), club.strip(), note.strip()
    if not name or blank(name):
        raise RegistrationRefused(_("Give the player's name."))
    for label, value, length, lines in (
        (_("Name"), name, 120, False),
        (_("Club"), club, 120, False),
        (_("E-mail address"), email, 254, False),
        (_("Note"), note, 2000, True),
    ):
        unfit = text_refusal(value, max_length=length, lines=lines)
        if unfit is not None:
            raise RegistrationRefused(
                _("%(field)s: %(reason)s") % {"field": label, "reason": unfit[1]}
            )
    return name, email, club, note


def closed_refusal(event: Event) -> str | None:
    """Why ``event`` takes no registration now (its status is not "registration open", or its
    deadline is past), in the reader's language; None while it takes them. The one rule of the
    registration form, register and the API's ``registration.open``."""
    if event.status != EventStatus.REGISTRATION_OPEN:
        return _("Registration of %(event)s is not open.") % {"event": event.name}
    deadline = event.registration_deadline
    if deadline is not None and timezone.now() > deadline:
        return _("Registration of %(event)s closed on %(deadline)s.") % {
            "event": event.name,
            "deadline": timezone.localtime(deadline).strftime("%Y-%m-%d %H:%M"),
        }
    return None


def register(
    *,
    event: Event,
    actor: Actor,
    name: str,
    email: str = "",
    club: str = "",
    categories: list[str] | None = None,
    note: str = "",
) -> Registration:
    """A signed-in account registers for ``event`` (its name, address, club, categories and a
    note to the organizer, as the form gave them). The registration is received (pending), or
    on the waiting list when every place is taken and the event has one. Audited; the
    "registration received" message is queued.

    Raises:
        NotAllowed: nobody signed in; RegistrationRefused: registration not open, its deadline
        past, this account registered already (unless withdrawn: the same registration is then
        received again), every place taken and no waiting list, a
        category the event does not have, an unfit field (the reason).
    """
    user = signed_in(actor)
    if user is None:
        raise NotAllowed(_("Sign in to register: each registration belongs to an account."))
    name, email, club, note = _fields(name, email, club, note)
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        entrants.another_name_refusal(locked, user, name)
        closed = closed_refusal(locked)
        if closed is not None:
            raise RegistrationRefused(closed)
        chosen = categories_check(locked, categories or [])
        before = Registration.objects.filter(event=locked, user=user).first()
        if before is not None and before.status != RegistrationStatus.WITHDRAWN:
            raise RegistrationRefused(
                _("This account is registered for %(event)s already: see your registration.")
                % {"event": locked.name}
            )
        status = RegistrationStatus.PENDING
        if full_refusal(locked) is not None:
            if not locked.waiting_list:
                raise RegistrationRefused(
                    _("All %(n)s places of %(event)s are taken.")
                    % {"n": locked.registration_limit, "event": locked.name}
                )
            status = RegistrationStatus.WAITLISTED
        # One registration an account: one withdrawn is received again (a change of mind).
        registration, _made = Registration.objects.update_or_create(
            event=locked,
            user=user,
            defaults={
                "name": name,
                "email": email or user.email,
                "club": club,
                "categories": chosen,
                "note": note,
                "status": status,
                "decided_at": None,
            },
        )
        audit_record(
            event=locked,
            actor=actor,
            action="registration.receive",
            obj=registration,
            changes={"name": name, "status": status, "categories": chosen},
        )
        mail.registration_received(registration)
    return registration


def registration_add(
    *,
    event: Event,
    actor: Actor,
    name: str,
    email: str = "",
    club: str = "",
    categories: list[str] | None = None,
    note: str = "",
    accept: bool = False,
    player: Player | None = None,
) -> Registration:
    """The organizer adds an entrant to ``event`` (any time, registration open or not): a
    registration received (pending), or accepted at once with ``accept`` (as
    registration_decide). ``player``: a player already on the site it is. Audited.

    Raises:
        NotOrganizer; RegistrationRefused: an unfit field, a category the event does not have,
        the player registered already; on ``accept``, as registration_decide.
    """
    name, email, club, note = _fields(name, email, club, note)
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        chosen = categories_check(locked, categories or [])
        if player is not None and Registration.objects.filter(event=locked, player=player).exists():
            raise RegistrationRefused(
                _("%(name)s is registered for this event already.") % {"name": player.name}
            )
        registration = Registration.objects.create(
            event=locked,
            player=player,
            name=name,
            email=email,
            club=club,
            categories=chosen,
            note=note,
        )
        audit_record(
            event=locked,
            actor=actor,
            action="registration.add",
            obj=registration,
            changes={"name": name, "categories": chosen},
        )
        if accept:
            _accept(locked, registration, actor)
        else:
            mail.registration_received(registration)
    return registration


def _last_seated(event: Event) -> int | None:
    """The number of the last round of ``event`` seated or played, if any: an entrant
    accepted now enters from the round after it (a late entry)."""
    return event.rounds.exclude(state=RoundState.DRAFT).aggregate(n=Max("number"))["n"] or None


def _accept(event: Event, registration: Registration, actor: Actor) -> None:
    """Accept a locked registration of the locked ``event`` (see registration_decide)."""
    if registration.status == RegistrationStatus.ACCEPTED:
        raise RegistrationRefused(_("%(name)s is accepted already.") % {"name": registration.name})
    if registration.status == RegistrationStatus.WITHDRAWN:
        raise RegistrationRefused(_("%(name)s withdrew.") % {"name": registration.name})
    waiting = registration.status == RegistrationStatus.WAITLISTED
    full = full_refusal(event, waiting=registration.shown_name if waiting else "")
    if full is not None:
        raise RegistrationRefused(full)
    player = entrants.entrant_for(event, registration)
    try:
        with transaction.atomic():
            Registration.objects.filter(pk=registration.pk).update(
                status=RegistrationStatus.ACCEPTED, decided_at=timezone.now(), player=player
            )
    except IntegrityError:
        raise RegistrationRefused(
            _("%(name)s is registered for this event already.") % {"name": player.name}
        ) from None
    entry = entry_add(event=event, player=player, actor=actor)
    changes: dict[str, Any] = {"categories": registration.categories}
    seated = _last_seated(event)
    if seated is not None and entry.first_round is None:
        # Rounds are seated already: he plays from the next one (a late entry).
        changes["first_round"] = seated + 1
    Entry.objects.filter(pk=entry.pk).update(**changes)
    registration.status, registration.player = RegistrationStatus.ACCEPTED, player
    audit_record(
        event=event,
        actor=actor,
        action="registration.accept",
        obj=registration,
        changes={"name": player.name, "player": player.pk, **changes},
    )
    mail.registration_decided(registration)


def registration_decide(*, registration: Registration, decision: str, actor: Actor) -> Registration:
    """The organizer's decision on a registration: ``accept`` (a place is taken: the player —
    its own, the account's, or a new one with its name, club and address — is entered in the
    event with its categories; from the next round when rounds are seated already), ``decline``
    or ``waitlist``. Audited; the decision is written to its address.

    Raises:
        NotOrganizer; RegistrationRefused: an unknown decision; accepting beyond the limit
        ("all 24 places are taken; put it on the waiting list or raise the limit"), a withdrawn
        or accepted registration, a name another player of the event has; declining or
        waitlisting one accepted (withdraw it instead) or withdrawn.
    """
    if decision not in DECISIONS:
        raise RegistrationRefused(_("Unknown decision."))
    event = registration.event
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        current = Registration.objects.select_for_update().get(pk=registration.pk)
        if current.event_id != locked.pk:
            raise RegistrationRefused(_("This registration is for another event."))
        if decision == "accept":
            _accept(locked, current, actor)
            return current
        target = (
            RegistrationStatus.DECLINED if decision == "decline" else RegistrationStatus.WAITLISTED
        )
        movable = (
            RegistrationStatus.PENDING,
            RegistrationStatus.WAITLISTED,
            RegistrationStatus.DECLINED,
        )
        if current.status not in movable:
            raise RegistrationRefused(
                _("%(name)s is %(status)s: withdraw the entry to free its place.")
                % {"name": current.name, "status": current.get_status_display()}
            )
        if current.status == target:
            return current
        Registration.objects.filter(pk=current.pk).update(status=target, decided_at=timezone.now())
        audit_record(
            event=locked,
            actor=actor,
            action="registration.decline" if decision == "decline" else "registration.waitlist",
            obj=current,
            changes={"name": current.name, "status": [current.status, target]},
        )
        current.status = target
        mail.registration_decided(current)
    return current


def _withdraw_entry(event: Event, player_id: int) -> dict[str, Any]:
    """Take an accepted entrant out of ``event``: his Entry removed while no round has started
    and he is seated nowhere, else withdrawn from the first round not started."""
    entry = Entry.objects.filter(event=event, player_id=player_id).first()
    if entry is None:
        return {}
    started = event.rounds.filter(state__in=STARTED).exists()
    seated = entry.player.seats.filter(table__round__event=event).exists()
    if not started and not seated:
        entry.delete()
        return {"entry": "removed"}
    # A round seated with him keeps its seating: the organizer replaces him there
    # (tournaments.events.substitutions) or lets the table know.
    number = (
        event.rounds.filter(state__in=(RoundState.DRAFT, RoundState.SEATED))
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    ) or (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    Entry.objects.filter(pk=entry.pk).update(withdrawn_from=number)
    return {"withdrawn_from": number}


def registration_withdraw(*, registration: Registration, actor: Actor) -> Registration:
    """Withdraw a registration: by its account, or by an organizer of its event. An accepted
    one frees its place: the Entry is removed while no round has started, else withdrawn from
    the first round not started (Entry.withdrawn_from). Audited.

    Raises:
        NotAllowed: anyone else; RegistrationRefused: withdrawn already, declined.
    """
    event = registration.event
    user = signed_in(actor)
    own = user is not None and registration.user_id == user.pk
    if not own and not is_organizer(actor, event):
        raise NotAllowed(_("Only the entrant or an organizer of the event withdraws an entry."))
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=event.pk)
        current = Registration.objects.select_for_update().get(pk=registration.pk)
        if current.status in (RegistrationStatus.WITHDRAWN, RegistrationStatus.DECLINED):
            raise RegistrationRefused(
                _("%(name)s's registration is %(status)s already.")
                % {"name": current.name, "status": current.get_status_display()}
            )
        changes: dict[str, Any] = {"name": current.name, "status": [current.status, "withdrawn"]}
        if current.status == RegistrationStatus.ACCEPTED and current.player_id is not None:
            changes.update(_withdraw_entry(locked, current.player_id))
        Registration.objects.filter(pk=current.pk).update(
            status=RegistrationStatus.WITHDRAWN, decided_at=timezone.now()
        )
        audit_record(
            event=locked, actor=actor, action="registration.withdraw", obj=current, changes=changes
        )
        current.status = RegistrationStatus.WITHDRAWN
    return current


def first_waiting(event: Event) -> Registration | None:
    """The registration first on ``event``'s waiting list (the oldest), to accept when a place
    is free; None when the list is empty."""
    return (
        Registration.objects.filter(event=event, status=RegistrationStatus.WAITLISTED)
        .order_by("created_at", "pk")
        .first()
    )
