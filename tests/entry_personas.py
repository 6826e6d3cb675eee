"""Personas of referee entry tests (STYLE.md): organizer, chief referee, referee of table 1,
referee of table 2, player, anonymous; on a duplicate round of two tables and two boards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from tests.factories import duplicate_round
from tournaments.models import EventRole, Role, TableAssignment

PERSONAS = ("organizer", "chief", "referee1", "referee2", "player", "anonymous")


@dataclass
class World:
    event: Any
    tables: list[Any]
    boards: list[Any]
    users: dict[str, User | None]


def build_world(*, seed: str = "personas", tables: int = 2, boards: int = 2) -> World:
    event, _round, table_list, board_list = duplicate_round(tables=tables, boards=boards, seed=seed)
    users: dict[str, User | None] = {"anonymous": None}
    for name, role in (
        ("organizer", Role.ORGANIZER),
        ("chief", Role.CHIEF_REFEREE),
        ("referee1", Role.REFEREE),
        ("referee2", Role.REFEREE),
        ("player", Role.PLAYER),
    ):
        user = User.objects.create_user(f"{name}-{seed}", password="x")
        EventRole.objects.create(event=event, user=user, role=role)
        users[name] = user
    TableAssignment.objects.create(table=table_list[0], user=users["referee1"])
    TableAssignment.objects.create(table=table_list[-1], user=users["referee2"])
    return World(event=event, tables=table_list, boards=board_list, users=users)
