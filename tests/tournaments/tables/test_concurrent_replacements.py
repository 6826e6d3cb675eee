"""Replacements under load on real PostgreSQL: referees of different tables replacing their
games at once never wait on one another's locks (no deadlock, every replacement stored), and a
replacement retried while its first request still runs (the same idempotency key) answers the
first game, not a conflict with it."""

from __future__ import annotations

import queue
import threading

import pytest
from django.db import connection

from ddz_site.kernel.errors import DomainError
from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _at_once(jobs: list) -> list:
    """Each job in a thread of its own (its own connection), released together; the results,
    or the exception each raised."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)
    errors: queue.Queue = queue.Queue()

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = jobs[i]()
        except Exception as exc:  # a deadlock is an OperationalError, not a refusal
            results[i] = exc
            errors.put(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def test_replacements_at_different_tables_at_once_are_all_stored() -> None:
    _event, _round, tables, boards = duplicate_round(tables=8, boards=1, seed="replace-load")
    board = boards[0]
    records = {t.pk: bot_record(board, t) for t in tables}
    for table in tables:
        game_submit(table=table, board=board, record=records[table.pk])
    for version in (1, 2, 3):
        results = _at_once(
            [
                lambda t=t, v=version: game_submit(
                    table=t, board=board, record=records[t.pk], replaces=v
                )
                for t in tables
            ]
        )
        assert all(isinstance(r, Game) for r in results), results
        assert sorted(r.version for r in results) == [version + 1] * len(tables)
    assert Game.objects.filter(board=board, replaced_at__isnull=True).count() == len(tables)


def test_a_replacement_sent_twice_at_once_answers_the_first_game() -> None:
    _event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="replace-retry")
    table, board = tables[0], boards[0]
    record = bot_record(board, table)
    game_submit(table=table, board=board, record=record)
    for attempt in range(5):
        key = f"retry-{attempt}"
        current = Game.objects.get(table=table, board=board, replaced_at__isnull=True).version
        results = _at_once(
            [
                lambda v=current, k=key: game_submit(
                    table=table, board=board, record=record, replaces=v, idempotency_key=k
                )
            ]
            * 2
        )
        assert not [r for r in results if isinstance(r, (DomainError, Exception))], results
        assert results[0].pk == results[1].pk
