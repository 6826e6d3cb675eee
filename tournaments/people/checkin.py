"""At the venue: check-in, late entries and withdrawals, round by round.

Vocabulary: a player is *present* for a round once checked in for it (a Presence row: one per
player and round, a database constraint, so a second scan changes nothing). He is checked in
for the event's *next round* — the first round still a draft or seated — by the QR code of his
registration (Registration.token: ``checkin_by_token``, opened by an organizer or a referee of
the event scanning it), or by the organizer's tap on the check-in list (``presence_set``).
Only an *accepted* entrant who *plays* the round is checked in: a *late entry* plays from
Entry.first_round, a *withdrawal* until the round before Entry.withdrawn_from
(``entry_rounds_set``). Seating a round of an event with check-in seats those present for it
(tournaments.events.stages.round_seat_present).

Every change is audited (``checkin.*``, ``entry.rounds``); a refused one writes nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.core.access import (
    Actor,
    AdministrationRefused,
    NotAllowed,
    is_official,
    organizer_lock,
    signed_in,
)
from tournaments.core.audit import audit_record
from tournaments.events.fields import plays_in
from tournaments.models import (
    Entry,
    Event,
    Player,
    Presence,
    Registration,
    RegistrationStatus,
    Round,
    RoundState,
    Seat,
)

# Check-in is for the rounds not started yet: a round in play has its players at the tables.
OPEN_FOR_CHECK_IN = (RoundState.DRAFT, RoundState.SEATED)


class CheckInRefused(AdministrationRefused):
    """A check-in, or a change to an entry's rounds, that cannot be made; nothing was
    written."""


@dataclass(frozen=True)
class CheckIn:
    """What a check-in did: the ``registration`` checked in for ``round_``; ``created`` False
    when he was checked in for it already."""

    registration: Registration
    round_: Round
    created: bool


def next_round(event: Event) -> Round | None:
    """The round of ``event`` players check in for: its first round still a draft or seated;
    None when there is none."""
    return event.rounds.filter(state__in=OPEN_FOR_CHECK_IN).order_by("number").first()


def is_present(round_: Round | None, player_id: int | None) -> bool:
    """Whether the player `player_id` is checked in for `round_` (False for no round or no
    player). One query at most."""
    if round_ is None or player_id is None:
        return False
    return Presence.objects.filter(round=round_, player_id=player_id).exists()


def _require_official(actor: Actor, event: Event) -> None:
    if not is_official(actor, event):
        raise NotAllowed(
            _("Only the organizers and referees of %(event)s check players in.")
            % {"event": event.name}
        )


def _playing_refusal(entry: Entry | None, name: str, number: int) -> str | None:
    """Why the entrant of ``entry`` does not play round ``number``; None when he does."""
    if entry is None:
        return _("%(name)s is not entered in this event.") % {"name": name}
    if plays_in(entry.first_round, entry.withdrawn_from, number):
        return None
    if entry.withdrawn_from is not None and number >= entry.withdrawn_from:
        return _("%(name)s withdrew from round %(round)s on.") % {
            "name": name,
            "round": entry.withdrawn_from,
        }
    return _("%(name)s enters from round %(round)s, not round %(number)s.") % {
        "name": name,
        "round": entry.first_round,
        "number": number,
    }


def checkin_by_token(*, event: Event, token: str, actor: Actor) -> CheckIn:
    """Check in the entrant whose registration carries ``token`` (the check-in QR code) for
    ``event``'s next round. Idempotent: a second scan says he is checked in already. Audited
    (``checkin.scan``) when it checks him in.

    Raises:
        NotAllowed: not an organizer or referee of ``event``; CheckInRefused: not a check-in
        code, another event's code, a registration not accepted or withdrawn, an entrant who
        does not play the round, no round to check in for.
    """
    _require_official(actor, event)
    try:
        key = uuid.UUID(str(token))
    except ValueError:
        raise CheckInRefused(_("This is not a check-in code of this site.")) from None
    registration = Registration.objects.select_related("event").filter(token=key).first()
    if registration is None:
        raise CheckInRefused(_("This check-in code belongs to no registration."))
    if registration.event_id != event.pk:
        raise CheckInRefused(
            _("This code is for another event (%(other)s), not %(event)s.")
            % {"other": registration.event.name, "event": event.name}
        )
    if registration.status != RegistrationStatus.ACCEPTED or registration.player_id is None:
        raise CheckInRefused(
            _("%(name)s's registration is %(status)s, not accepted: no check-in.")
            % {"name": registration.shown_name, "status": registration.get_status_display()}
        )
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        round_ = next_round(event)
        if round_ is None:
            raise CheckInRefused(_("This event has no round to check in for."))
        player = Player.objects.get(pk=registration.player_id)
        created = _present(event, round_, player, actor, how="qr")
    return CheckIn(registration, round_, created)


def _present(event: Event, round_: Round, player: Player, actor: Actor, *, how: str) -> bool:
    """Check ``player`` in for ``round_`` (caller holds the event lock); False when he was."""
    entry = Entry.objects.filter(event=event, player=player).first()
    refusal = _playing_refusal(entry, player.name, round_.number)
    if refusal is not None:
        raise CheckInRefused(refusal)
    try:
        with transaction.atomic():
            presence, created = Presence.objects.get_or_create(
                round=round_, player=player, defaults={"by": signed_in(actor), "how": how}
            )
    except IntegrityError:  # checked in at the same moment elsewhere
        return False
    if created:
        audit_record(
            event=event,
            actor=actor,
            action="checkin.qr" if how == "qr" else "checkin.tap",
            obj=presence,
            changes={"round": round_.number, "player": player.name},
        )
    return created


def presence_set(*, round_: Round, player: Player, present: bool, actor: Actor) -> bool:
    """The organizer's or a referee's tap on the check-in list: ``player`` present for
    ``round_`` or not (idempotent). Returns whether anything changed. Audited.

    Raises:
        NotAllowed: not an official of the round's event; CheckInRefused: a round in play or
        over, a player who does not play it (not entered, late, withdrawn).
    """
    event = round_.event
    _require_official(actor, event)
    with transaction.atomic():
        Event.objects.select_for_update().get(pk=event.pk)
        current = Round.objects.get(pk=round_.pk)
        if current.state not in OPEN_FOR_CHECK_IN:
            raise CheckInRefused(
                _("Round %(round)s is %(state)s: its check-in is over.")
                % {"round": current.number, "state": current.get_state_display()}
            )
        if present:
            return _present(event, current, player, actor, how="tap")
        deleted, _kinds = Presence.objects.filter(round=current, player=player).delete()
        if deleted:
            audit_record(
                event=event,
                actor=actor,
                action="checkin.undo",
                obj=current,
                changes={"round": current.number, "player": player.name},
            )
        return bool(deleted)


def _round_refusal(event: Event, number: int | None, what: str) -> str | None:
    """Why an entry cannot enter or withdraw from round ``number`` (``what`` names which):
    a round that is seated or started already. None when it can (or ``number`` is None)."""
    if number is None:
        return None
    if number < 1:
        return _("Round numbers start at 1.")
    round_ = event.rounds.filter(number=number).first()
    if round_ is not None and round_.state != RoundState.DRAFT:
        return _(
            "Round %(round)s is %(state)s already: %(what)s from a round not seated yet (or seat "
            "it again after a substitution)."
        ) % {"round": number, "state": round_.get_state_display(), "what": what}
    return None


def entry_rounds_set(
    *, entry: Entry, first_round: int | None, withdrawn_from: int | None, actor: Actor
) -> Entry:
    """The rounds an entrant plays, from the dashboard: from ``first_round`` (a late entry;
    None: from the start) until the round before ``withdrawn_from`` (a withdrawal; None: to
    the end). Each named round must not be seated yet: a seated round keeps its seating. The
    event is then seated round by round (tournaments.events.stages). Audited
    (``entry.rounds``).

    Raises:
        NotOrganizer; CheckInRefused: a round below 1, a round seated or started already (a
        player withdrawn from one comes back with ``first_round`` a later round not seated
        yet), a withdrawal not after the first round played.
    """
    event = entry.event
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        current = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
        changes = {}
        if first_round != current.first_round:
            refusal = _round_refusal(locked, first_round, _("a late entry plays"))
            refusal = refusal or _round_refusal(
                locked, current.first_round, _("a late entry plays")
            )
            if refusal:
                raise CheckInRefused(refusal)
            changes["first_round"] = [current.first_round, first_round]
        if withdrawn_from != current.withdrawn_from:
            refusal = _round_refusal(locked, withdrawn_from, _("a player withdraws"))
            # A player withdrawn from a round seated since comes back from a later round,
            # not seated yet (checked above): the rounds he missed keep their seating.
            comes_back = (
                current.withdrawn_from is not None
                and first_round is not None
                and first_round >= current.withdrawn_from
            )
            if (
                not comes_back
                and not refusal
                and _round_refusal(locked, current.withdrawn_from, _("a player withdraws"))
            ):
                refusal = _(
                    "Round %(round)s is seated already without %(name)s: to bring him back, "
                    "set the round he enters from to a later round not seated yet."
                ) % {"round": current.withdrawn_from, "name": current.player.name}
            if refusal:
                raise CheckInRefused(refusal)
            changes["withdrawn_from"] = [current.withdrawn_from, withdrawn_from]
        if first_round is not None and withdrawn_from is not None and withdrawn_from <= first_round:
            raise CheckInRefused(
                _(
                    "%(name)s would withdraw before playing: set the withdrawal after round "
                    "%(round)s."
                )
                % {"name": current.player.name, "round": first_round}
            )
        if not changes:
            return current
        Entry.objects.filter(pk=current.pk).update(
            first_round=first_round, withdrawn_from=withdrawn_from
        )
        audit_record(
            event=locked,
            actor=actor,
            action="entry.rounds",
            obj=current,
            changes={"player": current.player.name, **changes},
        )
    current.first_round, current.withdrawn_from = first_round, withdrawn_from
    return current


@dataclass(frozen=True)
class ListRow:
    """One entrant of the check-in list: his ``entry``, ``registration`` (None for an entrant
    without one), whether he ``plays`` the round shown, is ``present`` for it, and the numbers
    of the rounds he was present for."""

    entry: Entry
    registration: Registration | None
    plays: bool
    present: bool
    rounds_present: list[int]


def checkin_list(*, event: Event, round_: Round | None, query: str = "") -> list[ListRow]:
    """The check-in list of ``event`` for ``round_`` (None: no round yet): every entrant but
    the reserves, by name, those whose name holds ``query`` (any case). Five queries."""
    entries = (
        Entry.objects.filter(event=event, reserve=False)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    if query.strip():
        entries = entries.filter(player__name__icontains=query.strip())
    registrations = {
        r.player_id: r
        for r in Registration.objects.filter(event=event, player__isnull=False).order_by("pk")
    }
    present: dict[int, list[int]] = {}
    for player_id, number in Presence.objects.filter(round__event=event).values_list(
        "player_id", "round__number"
    ):
        present.setdefault(player_id, []).append(number)
    # A round seated already: who plays it is who it seats (a player withdrawn and back
    # later keeps the rounds he played, whatever his rounds say now).
    seated = (
        set(Seat.objects.filter(table__round=round_).values_list("player_id", flat=True))
        if round_ is not None and round_.state != RoundState.DRAFT
        else None
    )
    rows = []
    for entry in entries:
        numbers = sorted(present.get(entry.player_id, []))
        rows.append(
            ListRow(
                entry=entry,
                registration=registrations.get(entry.player_id),
                plays=round_ is None
                or (
                    entry.player_id in seated
                    if seated is not None
                    else plays_in(entry.first_round, entry.withdrawn_from, round_.number)
                ),
                present=round_ is not None and round_.number in numbers,
                rounds_present=numbers,
            )
        )
    return rows
