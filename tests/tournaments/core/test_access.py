"""Roles per event (tournaments.core.access) and the audit log (tournaments.core.audit)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User

from tests.factories import EventFactory, RoundFactory, TableFactory
from tournaments.core.access import can_enter_table, is_chief_referee, is_official, is_organizer
from tournaments.core.audit import audit_record
from tournaments.models import AuditEntry, EventRole, Role, TableAssignment

pytestmark = pytest.mark.django_db


def _user(name: str) -> User:
    return User.objects.create_user(name, password="x")


def test_roles_decide_who_enters_which_table() -> None:
    event = EventFactory()
    rnd = RoundFactory(event=event)
    t3, t4 = TableFactory(round=rnd, number=3), TableFactory(round=rnd, number=4)
    organizer, chief, referee, player = (_user(n) for n in ("org", "chief", "ref", "pl"))
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    EventRole.objects.create(event=event, user=chief, role=Role.CHIEF_REFEREE)
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    EventRole.objects.create(event=event, user=player, role=Role.PLAYER)
    TableAssignment.objects.create(table=t3, user=referee)
    assert is_organizer(organizer, event) and not is_organizer(chief, event)
    assert is_chief_referee(chief, event) and is_chief_referee(organizer, event)
    assert not is_chief_referee(referee, event)
    assert is_official(referee, event) and not is_official(player, event)
    assert can_enter_table(referee, t3) and not can_enter_table(referee, t4)
    assert can_enter_table(chief, t4) and can_enter_table(organizer, t4)
    assert not can_enter_table(player, t3)
    assert not can_enter_table(AnonymousUser(), t3)
    other = EventFactory()
    assert not is_organizer(organizer, other)


def test_audit_record_keeps_who_when_what() -> None:
    event = EventFactory()
    user = _user("org")
    entry = audit_record(
        event=event, actor=user, action="event.change", obj=event, changes={"name": ["a", "b"]}
    )
    stored = AuditEntry.objects.get(pk=entry.pk)
    assert (stored.actor, stored.action, stored.object_type, stored.object_id) == (
        user,
        "event.change",
        "event",
        str(event.pk),
    )
    assert stored.changes == {"name": ["a", "b"]} and stored.at is not None
    system = audit_record(event=event, actor=AnonymousUser(), action="standings.recompute")
    assert system.actor is None
