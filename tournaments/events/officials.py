"""An event's officials, managed from the organizer's dashboard instead of `/admin/`.

Vocabulary: an *official* is a user with a referee or chief referee role in the event
(tournaments.models.EventRole; organizers are made when the event is opened, by staff). The
*referee of a table for a stage* is the one referee assigned (TableAssignment) to the table of
that number in every round of the stage still to be played or in play; one form sets them
all, instead of one assignment per table and round in the admin. Rounds seated later (a Swiss
round) get theirs when the form is saved again; closed rounds keep the assignments they had.

Each service here is one use case in one transaction that locks the event row first (one
change to an event's officials at a time), refuses anyone but the event's organizers
(tournaments.core.access.may_manage_officials) and is audited.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from tournaments.core import access
from tournaments.core.access import Actor
from tournaments.core.audit import audit_record
from tournaments.core.rules import FINISHED
from tournaments.models import Event, EventRole, Role, Stage, Table, TableAssignment

ROLES = (Role.REFEREE, Role.CHIEF_REFEREE)


class OfficialRefused(DomainError):
    """A change to an event's officials that cannot be made; nothing was written."""

    code = "forbidden"


def _lock(event: Event, actor: Actor) -> None:
    if not access.may_manage_officials(actor, event):
        raise OfficialRefused(
            _("Only the organizers of %(event)s manage its officials.") % {"event": event}
        )
    Event.objects.select_for_update().filter(pk=event.pk).first()


def _by_address(address: str) -> User | None:
    """The account with the e-mail address ``address`` (confirmed, or its User.email), or
    None (also for two such accounts: which one is meant is not known)."""
    if "@" not in address:
        return None
    users = get_user_model()
    found = list(
        users.objects.filter(
            Q(emailaddress__email__iexact=address, emailaddress__verified=True)
            | Q(email__iexact=address)
        ).distinct()[:2]
    )
    return found[0] if len(found) == 1 else None


def official_add(
    *, event: Event, actor: Actor, username: str, role: str, password: str = ""
) -> EventRole:
    """Give the user `username` (a user name, or the e-mail address of his account) the role
    `role` (referee or chief referee) in `event`. An unknown user name (without @) with a
    `password` makes that account (no staff status; the password checked by the site's
    validators), so no official needs `/admin/`; an existing account's password is never
    touched.

    Raises:
        OfficialRefused: `actor` not an organizer; another role; an unknown username without a
            password; an address no account has; a password the validators refuse; the user
            has this role already.
    """
    username = (username or "").strip()
    users = get_user_model()
    # The site's one rule for typed text (ddz_site.kernel.text), an account's name at most.
    # An account's e-mail address may be longer than a user name (254 against 150).
    longest = 254 if "@" in username else users._meta.get_field("username").max_length
    unfit = text_refusal(username, max_length=longest)
    if unfit is not None:
        raise OfficialRefused(unfit[1])
    if role not in ROLES:
        raise OfficialRefused(_("Add a referee or a chief referee."))
    if not username:
        raise OfficialRefused(_("Give the official's user name."))
    with transaction.atomic():
        _lock(event, actor)
        user = users.objects.filter(username=username).first() or _by_address(username)
        created = False
        if user is None and "@" in username:
            raise OfficialRefused(
                _(
                    "No account has the address %(address)s: the official signs up with it "
                    "first, or give a user name (without @) to make an account."
                )
                % {"address": username}
            )
        if user is None:
            if not password:
                raise OfficialRefused(
                    _("No account is named %(name)s: give a password to make it.")
                    % {"name": username}
                )
            candidate = users(username=username)
            try:
                candidate.full_clean(exclude=["password"])
                validate_password(password, user=candidate)
            except ValidationError as exc:
                raise OfficialRefused(" ".join(exc.messages)) from None
            user = users.objects.create_user(username=username, password=password)
            created = True
        try:
            with transaction.atomic():
                made = EventRole.objects.create(event=event, user=user, role=role)
        except IntegrityError:
            raise OfficialRefused(
                _("%(name)s is already %(role)s of this event.")
                % {"name": username, "role": Role(role).label}
            ) from None
        audit_record(
            event=event,
            actor=actor,
            action="official.add",
            obj=made,
            changes={"user": username, "role": role, "account_created": created},
        )
    return made


def official_remove(*, event: Event, actor: Actor, role_id: int) -> None:
    """Take a referee's or chief referee's role in `event` away (his table assignments then
    open nothing: tournaments.core.access asks for the role).

    Raises:
        OfficialRefused: `actor` not an organizer; no such referee or chief referee role.
    """
    with transaction.atomic():
        _lock(event, actor)
        role = (
            EventRole.objects.select_related("user")
            .filter(pk=role_id, event=event, role__in=ROLES)
            .first()
        )
        if role is None:
            raise OfficialRefused(_("No such referee or chief referee in this event."))
        username, kind = role.user.get_username(), role.role
        role.delete()
        audit_record(
            event=event,
            actor=actor,
            action="official.remove",
            obj=event,
            changes={"user": username, "role": kind},
        )


def officials_of(*, event: Event) -> list[EventRole]:
    """The event's organizers, chief referees and referees, by role then name."""
    order = {Role.ORGANIZER: 0, Role.CHIEF_REFEREE: 1, Role.REFEREE: 2}
    roles = EventRole.objects.filter(event=event, role__in=list(order)).select_related("user")
    return sorted(roles, key=lambda r: (order[Role(r.role)], r.user.get_username().casefold()))


@dataclass(frozen=True)
class StageTable:
    """A table number of a stage: its referee (the one assigned at that number in every open
    round of the stage, else None) and whether the open rounds disagree (``mixed``)."""

    number: int
    referee_id: int | None
    mixed: bool


def _open_tables(stage: Stage) -> list[Table]:
    return list(
        Table.objects.filter(round__stage=stage)
        .exclude(round__state__in=FINISHED)
        .order_by("number", "round__number")
    )


def stage_referees(*, stage: Stage) -> list[StageTable]:
    """Each table number of the stage's open rounds with its referee, in table order."""
    tables = _open_tables(stage)
    assigned: dict[int, set[int]] = {}
    for table_id, user_id in TableAssignment.objects.filter(
        table__in=tables,
        user__event_roles__event_id=stage.event_id,
        user__event_roles__role=Role.REFEREE,
    ).values_list("table_id", "user_id"):
        assigned.setdefault(table_id, set()).add(user_id)
    by_number: dict[int, list[frozenset[int]]] = {}
    for table in tables:
        by_number.setdefault(table.number, []).append(frozenset(assigned.get(table.pk, ())))
    rows = []
    for number, sets in sorted(by_number.items()):
        same = all(s == sets[0] for s in sets)
        only = next(iter(sets[0])) if same and len(sets[0]) == 1 else None
        rows.append(StageTable(number=number, referee_id=only, mixed=not same or len(sets[0]) > 1))
    return rows


def _refuse_own_tables(tables: list[Table], referees: Mapping[int, int | None]) -> None:
    """OfficialRefused naming each table whose referee in `referees` plays at it in one of
    its rounds (access.played_tables): he would confirm his own results."""
    wanted = {u for u in referees.values() if u is not None}
    users = get_user_model().objects.in_bulk(wanted)
    # One query per referee named, whatever the number of tables.
    played = {
        pk: set(access.played_tables(user).values_list("pk", flat=True))
        for pk, user in users.items()
    }
    said = []
    for table in tables:
        user_id = referees.get(table.number)
        if user_id is None or table.pk not in played.get(user_id, set()):
            continue
        user = users[user_id]
        records = access.account_records(user)
        seat = table.seats.filter(player__in=records).select_related("player").first()
        said.append(
            _(
                "Table %(n)s: %(user)s plays there (%(player)s, round %(round)s); a referee "
                "never officiates his own table."
            )
            % {
                "n": table.number,
                "user": user.username,
                "player": seat.player.name if seat is not None else user.username,
                "round": table.round.number,
            }
        )
    if said:
        raise OfficialRefused(" ".join(said))


def stage_referees_assign(*, stage: Stage, actor: Actor, referees: Mapping[int, int | None]) -> int:
    """Make `referees[n]` (a user id, or None for nobody) the one referee of table `n` in
    every round of `stage` not closed; other assignments of those tables are removed. Table
    numbers absent from `referees` are left as they are.

    Returns the number of tables whose assignment changed.

    Raises:
        OfficialRefused: `actor` not an organizer; a user who is not a referee of the event,
            or who plays at the table (in one of the stage's open rounds).
    """
    event = stage.event
    with transaction.atomic():
        _lock(event, actor)
        allowed = set(
            EventRole.objects.filter(event=event, role=Role.REFEREE).values_list(
                "user_id", flat=True
            )
        )
        wrong = sorted(n for n, u in referees.items() if u is not None and u not in allowed)
        if wrong:
            raise OfficialRefused(
                " ".join(
                    _("Table %(n)s: only the event's referees are assigned to its tables.")
                    % {"n": n}
                    for n in wrong
                )
            )
        tables = [t for t in _open_tables(stage) if t.number in referees]
        _refuse_own_tables(tables, referees)
        changed = 0
        have: dict[int, set[int]] = {}
        for table_id, user_id in TableAssignment.objects.filter(table__in=tables).values_list(
            "table_id", "user_id"
        ):
            have.setdefault(table_id, set()).add(user_id)
        for table in tables:
            wanted = referees[table.number]
            if have.get(table.pk, set()) == ({wanted} if wanted is not None else set()):
                continue
            TableAssignment.objects.filter(table=table).delete()
            if wanted is not None:
                TableAssignment.objects.create(table=table, user_id=wanted)
            changed += 1
        users = get_user_model()
        names = dict(
            users.objects.filter(pk__in=[u for u in referees.values() if u]).values_list(
                "pk", "username"
            )
        )
        audit_record(
            event=event,
            actor=actor,
            action="stage.referees",
            obj=stage,
            changes={
                "tables": {
                    str(n): names.get(u) if u else None for n, u in sorted(referees.items())
                },
                "changed": changed,
            },
        )
    return changed
