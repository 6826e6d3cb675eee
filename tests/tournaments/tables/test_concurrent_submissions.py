"""Submissions under load on real PostgreSQL: 200 concurrent submissions from 20 threads, each
with its own database connection, lose nothing and double nothing.

100 table × board pairs are each submitted twice at once with the same idempotency key (a
phone retrying while the first request is still running): every call answers with a game,
the two calls of a pair with the same game, and exactly 100 games are stored, each version 1
with one audit entry. Then two referees with different keys race on one pair: one is stored,
the other refused.
"""

from __future__ import annotations

import queue
import threading
from collections import Counter

import pytest
from django.db import connection

from ddz_site.kernel.errors import DomainError
from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.models import AuditEntry
from tournaments.tables.submission import game_submit

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

THREADS = 20


def _run_all(jobs: list) -> list:
    work: queue.Queue = queue.Queue()
    for i, job in enumerate(jobs):
        work.put((i, job))
    results: list = [None] * len(jobs)
    barrier = threading.Barrier(THREADS)

    def worker() -> None:
        barrier.wait()
        try:
            while True:
                try:
                    i, job = work.get_nowait()
                except queue.Empty:
                    return
                try:
                    results[i] = job()
                except DomainError as exc:
                    results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def test_two_hundred_concurrent_submissions_lose_nothing_and_double_nothing() -> None:
    event, _round, tables, boards = duplicate_round(tables=20, boards=5, seed="load")
    pairs = [(t, b) for t in tables for b in boards]
    records = {(t.pk, b.pk): bot_record(b, t) for t, b in pairs}
    jobs = []
    for t, b in pairs:
        key = f"load-{t.pk}-{b.pk}"
        for _attempt in range(2):
            jobs.append(
                lambda t=t, b=b, key=key: game_submit(
                    table=t, board=b, record=records[(t.pk, b.pk)], idempotency_key=key
                )
            )
    # Interleave so that the two calls of a pair run in different threads at once.
    jobs = jobs[0::2] + jobs[1::2]
    results = _run_all(jobs)
    assert all(isinstance(r, Game) for r in results), [
        r for r in results if not isinstance(r, Game)
    ]
    assert len(results) == 200
    half = len(pairs)
    assert all(results[i].pk == results[i + half].pk for i in range(half))
    assert Game.objects.count() == 100
    stored = Game.objects.filter(board__event=event)
    assert Counter((g.table_id, g.board_id) for g in stored) == Counter(
        (t.pk, b.pk) for t, b in pairs
    )
    assert set(stored.values_list("version", flat=True)) == {1}
    assert all(g.record["plays"] == records[(g.table_id, g.board_id)]["plays"] for g in stored)
    assert AuditEntry.objects.filter(action="game.submit").count() == 100
    assert sum(bool(getattr(r, "stored", False)) for r in results) == 100

    # Two referees, two keys, one pair of a new board: one stored, one refused.
    _e, _r, more_tables, more_boards = duplicate_round(tables=1, seed="load2")
    t, b = more_tables[0], more_boards[0]
    record = bot_record(b, t)
    jobs = [
        lambda k=k: game_submit(table=t, board=b, record=record, idempotency_key=f"ref-{k}")
        for k in range(THREADS)
    ]
    results = _run_all(jobs)
    assert sum(isinstance(r, Game) for r in results) == 1
    assert sum(isinstance(r, DomainError) for r in results) == THREADS - 1
    assert Game.objects.filter(table=t, board=b).count() == 1
