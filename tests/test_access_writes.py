"""Who may write (tournaments.access, the one place roles are read), walked through every
ruling service with every role: an adjusted score, its removal, a penalty, its withdrawal are
a chief referee's or an organizer's rulings (DESIGN.md: "Adjustment: a referee's ruling";
Role: chief referees settle what happened at the tables); no other role, and no anonymous
visitor, may make them, whatever the door that calls the service."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games.versions import NotAllowed as GameNotAllowed
from tests.factories import duplicate_round
from tournaments.access import NotAllowed
from tournaments.models import Adjustment, EventRole, Penalty, Role, TableAssignment
from tournaments.standings import adjustment_remove, adjustment_set, penalty_add, penalty_remove

pytestmark = pytest.mark.django_db

# Role → whether it may make rulings (DESIGN.md; tournaments.access.may_rule).
ROLES = {
    "organizer": True,
    "chief_referee": True,
    "superuser": True,
    "referee": False,  # even at his assigned table
    "player": False,
    "signed_in_without_role": False,
    "anonymous": False,
}


def _actor(role: str, event: Any, table: Any) -> Any:
    if role == "anonymous":
        return AnonymousUser()
    if role == "superuser":
        return User.objects.create_superuser(role, f"{role}@example.org", "pw")
    user = User.objects.create_user(role, password="pw")
    if role in ("organizer", "chief_referee", "referee", "player"):
        EventRole.objects.create(event=event, user=user, role=role)
    if role == "referee":
        TableAssignment.objects.create(table=table, user=user)
    return user


def _adjust(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    return lambda: adjustment_set(table=table, board=board, seat="S", kind="avg", actor=actor)


def _unadjust(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    made = Adjustment.objects.create(table=table, board=board, seat="E", kind="avg")
    return lambda: adjustment_remove(adjustment_id=made.pk, actor=actor)


def _penalise(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    player = table.seats.first().player
    return lambda: penalty_add(event=event, player=player, points="1", reason="late", actor=actor)


def _unpenalise(event: Any, table: Any, board: Any, actor: Any) -> Callable[[], Any]:
    player = table.seats.first().player
    made = Penalty.objects.create(event=event, player=player, points="1", reason="late")
    return lambda: penalty_remove(penalty_id=made.pk, actor=actor)


SERVICES = {
    "adjustment_set": (_adjust, lambda: Adjustment.objects.filter(seat="S").count()),
    "adjustment_remove": (_unadjust, lambda: Adjustment.objects.count()),
    "penalty_add": (_penalise, lambda: Penalty.objects.count()),
    "penalty_remove": (_unpenalise, lambda: Penalty.objects.count()),
}


@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize("service", list(SERVICES))
def test_every_ruling_service_asks_access_with_every_role(service: str, role: str) -> None:
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="rulings")
    actor = _actor(role, event, tables[0])
    prepare, rows = SERVICES[service]
    call = prepare(event, tables[0], boards[0], actor)
    before = rows()
    if ROLES[role]:
        call()
        assert rows() != before
    else:
        with pytest.raises(NotAllowed):
            call()
        assert rows() == before


def test_a_plain_player_may_not_penalise() -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="player")
    player = User.objects.create_user("pl", password="pw")
    EventRole.objects.create(event=event, user=player, role=Role.PLAYER)
    victim = tables[0].seats.first().player
    with pytest.raises(NotAllowed):
        penalty_add(event=event, player=victim, points="5", reason="spite", actor=player)
    assert not Penalty.objects.exists()


def test_one_refusal_for_games_and_rulings() -> None:
    """games.versions refuses with the same error as the rulings (one place: access)."""
    assert GameNotAllowed is NotAllowed
