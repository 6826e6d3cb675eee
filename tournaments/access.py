"""Who may do what in an event (DESIGN.md's users; roles of tournaments.models.Role).

Vocabulary: *organizer* (runs the event: everything), *chief referee* (every table, settles
flagged games), *referee* (enters and sees only the tables assigned to him, TableAssignment),
*player* (sees what the public sees, plus his own scorecard), *public* (anyone, anonymous
included). A superuser counts as organizer of every event. These predicates are the only place
roles are interpreted: views, API permissions and services call them.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Event, EventRole, Role, Table, TableAssignment


def roles_of(user: Any, event: Event) -> frozenset[str]:
    """The user's roles in ``event`` (``Role`` values); empty for the public."""
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset()
    found = set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))
    if user.is_superuser:
        found.add(Role.ORGANIZER)
    return frozenset(found)


def is_organizer(user: Any, event: Event) -> bool:
    return Role.ORGANIZER in roles_of(user, event)


def is_chief_referee(user: Any, event: Event) -> bool:
    """Chief referees and organizers settle disputes and see every table."""
    return bool(roles_of(user, event) & {Role.ORGANIZER, Role.CHIEF_REFEREE})


def is_official(user: Any, event: Event) -> bool:
    """Organizers and referees of any kind: they see embargoed results."""
    return bool(roles_of(user, event) & {Role.ORGANIZER, Role.CHIEF_REFEREE, Role.REFEREE})


def can_enter_table(user: Any, table: Table) -> bool:
    """Organizers and chief referees enter at every table; a referee at his assigned tables."""
    event = table.round.event
    found = roles_of(user, event)
    if found & {Role.ORGANIZER, Role.CHIEF_REFEREE}:
        return True
    return Role.REFEREE in found and TableAssignment.objects.filter(table=table, user=user).exists()


def may_run_clock(user: Any, event: Event) -> bool:
    """Organizers and chief referees start, pause and resume a round's clock and give a
    table extra time (tournaments.clock); everyone sees the clock."""
    return is_chief_referee(user, event)
