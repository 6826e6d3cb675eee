"""ddz_site.kernel.sql.prepared_values: a statement the ORM built once, run again with other
arguments, gives the rows the ORM gives for them (real PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import connection

from ddz_site.kernel import sql
from tests.factories import EventFactory, PlayerFactory
from tournaments.models import Player, StandingsChange

pytestmark = pytest.mark.django_db


def _names(ids: list[int]):
    return Player.objects.filter(pk__in=ids).order_by("pk").values_list("pk", "name")


def test_a_statement_built_once_answers_for_other_arguments() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    players = [PlayerFactory(name=f"Prepared {i}") for i in range(4)]
    sql._PREPARED.clear()
    first = sql.prepared_values("test.names", _names, [players[0].pk, players[1].pk])
    again = sql.prepared_values("test.names", _names, [players[2].pk, players[3].pk])
    assert len(sql._PREPARED) == 1  # one statement for both calls: built once
    assert first == [(players[0].pk, "Prepared 0"), (players[1].pk, "Prepared 1")]
    assert again == [(players[2].pk, "Prepared 2"), (players[3].pk, "Prepared 3")]


def test_an_argument_used_twice_runs_through_the_orm() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    player = PlayerFactory(name="Twice")
    sql._PREPARED.clear()

    def twice(args: list[int]):
        return Player.objects.filter(pk=args[0]).exclude(pk=args[0] + 0).values_list("pk")

    def both(args: list[int]):
        return Player.objects.filter(pk__in=[args[0], args[0]]).values_list("pk")

    assert sql.prepared_values("test.both", both, [player.pk]) == [(player.pk,)]
    assert sql.prepared_values("test.twice", twice, [player.pk]) == []


def test_a_statement_on_a_bigint_column_is_built_once() -> None:
    """The ORM hands a big integer field's values to psycopg wrapped (Int8, a subclass of
    int): the standings' change log is read by generation, a BigIntegerField, many times a
    second, and must not be built again each time."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    event = EventFactory()
    for generation in (1, 2, 3):
        StandingsChange.objects.create(event=event, generation=generation, boards=[generation])

    def log(args: list[int]):
        return (
            StandingsChange.objects.filter(
                event_id=args[0], generation__gt=args[1], generation__lte=args[2]
            )
            .order_by("generation")
            .values_list("generation")
        )

    sql._PREPARED.clear()
    assert sql.prepared_values("test.log", log, [event.pk, 0, 2]) == [(1,), (2,)]
    assert len(sql._PREPARED) == 1
    assert sql.prepared_values("test.log", log, [event.pk, 1, 3]) == [(2,), (3,)]
