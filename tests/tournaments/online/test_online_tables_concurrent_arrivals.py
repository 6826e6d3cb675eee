"""Online tables (tournaments.online.tables) under concurrency: entrants starting the same board
at the same moment, each in a thread of his own on a connection of his own, never take one seat
twice nor make two half tables where one would do (the event's row lock orders the arrivals); a
table whose wait is over, read by its device while the sweep fills it, is filled once."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from tests.conftest import race
from tests.factories import online_event
from tournaments.core.rules import rules_of
from tournaments.models import AuditEntry, Seat, Table
from tournaments.online import play
from tournaments.online.close import online_sweep
from tournaments.online.tables import waiting_at

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _arrivals(event: Any, users: list[Any]) -> list[object]:
    """Every one of `users` starts board 1 of `event` at once (tests.conftest.race)."""
    waiting = list(users)
    lock = threading.Lock()

    def start() -> Table:
        with lock:
            user = waiting.pop()
        return play.online_board_start(event=event, user=user, number=1)

    return race(len(users), start)


def _tables(event: Any) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(table__round__event=event, player__robot=False):
        out.setdefault(seat.table_id, []).append(seat.seat)
    return out


def test_three_entrants_arriving_at_once_make_one_full_table() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    outcomes = _arrivals(event, users)
    assert all(isinstance(o, Table) for o in outcomes), outcomes
    tables = _tables(event)
    assert len(tables) == 1
    (seats,) = tables.values()
    assert sorted(seats) == sorted(rules_of(event).seats)  # each seat once
    assert Table.objects.get(pk=next(iter(tables))).waiting_until is None


def test_seven_entrants_arriving_at_once_make_two_full_tables_and_one_waiting() -> None:
    event, _td, users = online_event(entrants=7, boards=1, tables=True)
    outcomes = _arrivals(event, users)
    assert all(isinstance(o, Table) for o in outcomes), outcomes
    seats = rules_of(event).seats
    tables = _tables(event)
    sizes = sorted(len(s) for s in tables.values())
    assert sizes == [7 - 2 * len(seats), len(seats), len(seats)]
    for table_id, taken in tables.items():
        assert len(set(taken)) == len(taken)
        # Seats are taken in the rules' order: a table of k entrants holds the first k seats.
        assert sorted(taken, key=seats.index) == list(seats[: len(taken)])
        waiting = Table.objects.get(pk=table_id).waiting_until is not None
        assert waiting is (len(taken) < len(seats))


def test_a_device_read_and_the_sweep_at_once_fill_the_table_once() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, tables=True)
    table = play.online_board_start(event=event, user=ann, number=1)
    Table.objects.filter(pk=table.pk).update(waiting_until=timezone.now() - timedelta(seconds=1))
    device = play.entrant_device(ann, event.slug, 1)
    turns = iter([0, 1, 2, 3])
    lock = threading.Lock()

    def read_or_sweep() -> object:
        with lock:
            turn = next(turns)
        if turn % 2:
            return online_sweep()
        return waiting_at(table=device.table, board=device.board)

    outcomes = race(4, read_or_sweep)
    assert len(outcomes) == 4
    assert Seat.objects.filter(table=table).count() == len(rules_of(event).seats)
    assert AuditEntry.objects.filter(event=event, action="online.table_full").count() == 1
    assert Table.objects.get(pk=table.pk).waiting_until is None
