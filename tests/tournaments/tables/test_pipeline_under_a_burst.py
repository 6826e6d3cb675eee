"""The result pipeline under a burst: coalesced standings, verification in batches,
submissions that never wait on a recomputation, on real PostgreSQL, Redis and a worker.

No timing here: the figures are the benchmark's (manage.py ddz_simulate, make bench).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, Status
from tests.conftest import Worker, race, wait_for
from tests.factories import bot_record, duplicate_round
from tournaments.models import Event, Standing, StandingsState
from tournaments.standings import cache, requests, results, store
from tournaments.tables import verification as services_verification
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@contextmanager
def _locks_waited_at_most_3s() -> Iterator[None]:
    """This connection waits at most 3 s for a lock (PostgreSQL's lock_timeout), then errs."""
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '3s'")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def _verification_unsent(monkeypatch: pytest.MonkeyPatch) -> None:
    """No verification message leaves a submission or a sweep: the test verifies by hand."""
    monkeypatch.setattr(services_verification, "enqueue", lambda *args, **kwargs: True)
    monkeypatch.setattr(services_verification, "enqueue_once", lambda *args, **kwargs: True)


def _stored_is_full_recompute(event) -> bool:
    return cache.stored_rows(event=event) == results.computed_rows(event=event)


def test_a_burst_of_verified_games_costs_far_fewer_recomputes_than_games(
    celery_worker: Worker,
) -> None:
    event, _round, tables, boards = duplicate_round(tables=10, boards=3, seed="burst")
    records = [(t, b, bot_record(b, t)) for b in boards for t in tables]
    already = len(celery_worker.log())
    # A burst: the referees' 30 games are committed at once (their 30 verification tasks are
    # sent together after the commit).
    with transaction.atomic():
        for table, board, record in records:
            game_submit(table=table, board=board, record=record)
    games = Game.objects.filter(board__event=event)
    wait_for(
        lambda: not games.filter(status=Status.PENDING).exists(),
        what="the worker to verify the burst",
    )
    wait_for(
        lambda: (
            Standing.objects.filter(event=event, stage__isnull=True).count() == 30
            and _stored_is_full_recompute(event)
        ),
        what="the standings of the whole burst",
    )
    celery_worker.drain()
    log = celery_worker.log()[already:]
    # Sent as tasks (received, succeeded) or run by the verifying worker at once.
    sent = log.count("tournaments.tasks.recompute_standings[") // 2
    recomputes = max(sent, StandingsState.objects.get(event=event).runs)
    # 30 verified games: one recomputation each before; a burst is gathered into a few.
    assert 1 <= recomputes <= 5, recomputes
    assert games.filter(status=Status.VERIFIED).count() == 30
    assert _stored_is_full_recompute(event)


def test_a_batch_verifies_each_game_exactly_once_even_with_duplicates() -> None:
    event, _round, tables, boards = duplicate_round(tables=4, boards=1, seed="batch")
    board = boards[0]
    # Rows made directly, so that no task is enqueued: this test plays the worker.
    games = [Game.objects.create(table=t, board=board, record=bot_record(board, t)) for t in tables]
    a, b, c, d = (g.pk for g in games)
    with CaptureQueriesContext(connection) as queries:
        stored = services_verification.games_verify(game_ids=[a, b, a, c, b, a])
    assert sorted(stored) == sorted([a, b, c])
    on_games = [q["sql"] for q in queries if '"games_game"' in q["sql"]]
    # One query in (the games, locked), one bulk update out.
    assert [sql.split()[0] for sql in on_games] == ["SELECT", "UPDATE"], on_games
    assert services_verification.games_verify(game_ids=[a, b, c]) == []
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses == {a: "verified", b: "verified", c: "verified", d: "pending"}
    # Filled from the queue: the oldest pending game comes along with the one asked for.
    assert services_verification.games_verify(game_ids=[a], fill=10) == [d]
    assert set(Game.objects.values_list("status", flat=True)) == {Status.VERIFIED}
    assert all(g.score for g in Game.objects.all())


def test_a_workers_chunk_is_the_oldest_pending_games_read_from_the_games_alone() -> None:
    """A worker's chunk is first in first out, whichever game its message named (the newest
    here), and is read from the games' table alone: with the board joined, PostgreSQL sorted
    every pending row of a 30,000-game queue for each chunk of 100 (230 ms against 1 ms)."""
    event, _round, tables, boards = duplicate_round(tables=4, boards=1, seed="fifo")
    board = boards[0]
    games = [Game.objects.create(table=t, board=board, record=bot_record(board, t)) for t in tables]
    base = timezone.now()
    for i, game in enumerate(games):  # submitted a second apart, oldest first
        Game.objects.filter(pk=game.pk).update(submitted_at=base + timezone.timedelta(seconds=i))
    oldest, second, _third, newest = (g.pk for g in games)
    with CaptureQueriesContext(connection) as queries:
        stored = services_verification.games_verify(game_ids=[newest], fill=2)
    assert sorted(stored) == sorted([oldest, second])
    reads = [q["sql"] for q in queries if "FOR UPDATE" in q["sql"]]
    assert len(reads) == 1, reads
    assert "JOIN" not in reads[0], reads[0]
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert [statuses[g.pk] for g in games] == ["verified", "verified", "pending", "pending"]
    assert StandingsState.objects.get(event=event).requested >= 1


def _illegal(record: dict) -> dict:
    """The record with its second play made illegal (a rocket or 3333 its seat does not hold)."""
    seat = record["plays"][1][0]
    record["plays"][1] = [seat, "BR" if "BR" not in record["hands"][seat] else "3333"]
    return record


def test_one_batch_stores_each_outcome_in_one_flat_update() -> None:
    """The batch's write is one UPDATE whose size grows by a row of values per game, not by a
    CASE per game and field (Django's bulk_update: 0.12 s of a 0.15 s batch of 100 games);
    verified and illegal games of one batch each get their own fields, NULLs included."""
    event, _round, tables, boards = duplicate_round(tables=4, boards=2, seed="flat")
    made, illegal = {}, set()
    for b in boards:
        for t in tables:
            record = bot_record(b, t)
            if t.number % 2 == 0 and len(record["plays"]) > 1:
                record = _illegal(record)
                illegal.add((t.number, b.number))
            made[(t.number, b.number)] = Game.objects.create(table=t, board=b, record=record)
    assert 0 < len(illegal) < len(made)
    with CaptureQueriesContext(connection) as queries:
        stored = services_verification.games_verify(game_ids=[g.pk for g in made.values()])
    assert sorted(stored) == sorted(g.pk for g in made.values())
    updates = [
        q["sql"] for q in queries if q["sql"].startswith("UPDATE") and "games_game" in q["sql"]
    ]
    assert len(updates) == 1 and "CASE" not in updates[0], updates
    for key, game in made.items():
        game.refresh_from_db()
        assert game.verified_at is not None
        if key in illegal:  # R-VERIFY: the engine's error is stored, the game has no score
            assert game.status == Status.ILLEGAL and game.score is None
            assert game.multiplier is None and game.winner == ""
            assert game.error["stage"] == "play" and game.error["index"] == 1
        elif game.record["plays"]:
            assert game.status == Status.VERIFIED and game.error is None
            assert sum(game.score.values()) == 0  # R-SCORE: a zero-sum score
            assert game.multiplier >= 1 and game.winner in ("landlord", "farmers")


def test_a_batch_of_illegal_games_only_stores_their_nulls() -> None:
    """Every value of a column NULL in one batch (no score, no multiplier): still stored."""
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="flat-null")
    records = [(t, bot_record(boards[0], t)) for t in tables]
    games = [
        Game.objects.create(table=t, board=boards[0], record=_illegal(r))
        for t, r in records
        if len(r["plays"]) > 1
    ]
    assert len(games) >= 2
    assert len(services_verification.games_verify(game_ids=[g.pk for g in games])) == len(games)
    for game in games:
        game.refresh_from_db()
        assert game.status == Status.ILLEGAL and game.score is None and game.multiplier is None
        assert game.error["seat"] == game.record["plays"][1][0]


def test_two_batches_at_once_never_verify_a_game_twice() -> None:
    event, _round, tables, boards = duplicate_round(tables=6, boards=2, seed="batch2")
    made = [
        Game.objects.create(table=t, board=b, record=bot_record(b, t))
        for b in boards
        for t in tables
    ]
    ids = [g.pk for g in made]
    outcomes = race(4, lambda: services_verification.games_verify(game_ids=ids[:3], fill=5))
    outcomes += [services_verification.games_verify(game_ids=[], fill=100)]
    stored = [pk for batch in outcomes for pk in batch]  # type: ignore[union-attr]
    assert sorted(stored) == sorted(ids)  # each exactly once
    assert not Game.objects.filter(status=Status.PENDING).exists()


def test_a_submission_never_waits_for_a_standings_recompute() -> None:
    """A recompute storing its rows holds the standings writers' lock; a referee's
    submission of another game (which writes an audit row that references the event) goes
    through meanwhile instead of waiting for it."""
    event, _round, tables, boards = duplicate_round(tables=3, boards=2, seed="nowait")
    first, second = boards
    for table in tables:
        game = game_submit(table=table, board=first, record=bot_record(first, table))
        game_verify(game_id=game.pk)
    writing, release = threading.Event(), threading.Event()
    stored_rows = cache.stored_rows

    def slow_stored_rows(**kwargs):
        writing.set()
        release.wait(20)
        return stored_rows(**kwargs)

    def recompute() -> None:
        try:
            store.standings_recompute(event_id=event.pk)
        finally:
            connection.close()

    cache.stored_rows = slow_stored_rows  # type: ignore[assignment]
    worker = threading.Thread(target=recompute)
    try:
        worker.start()
        assert writing.wait(20)
        with _locks_waited_at_most_3s():
            game = game_submit(table=tables[0], board=second, record=bot_record(second, tables[0]))
        assert game.stored
    finally:
        release.set()
        worker.join(30)
        cache.stored_rows = stored_rows  # type: ignore[assignment]
    assert Standing.objects.filter(event=event, stage__isnull=True).count() == 9


def test_submissions_of_one_round_never_wait_for_one_another() -> None:
    """One referee's submission still in its transaction (its round locked against a close)
    does not hold back another table's submission of the same round."""
    _event, round_, tables, boards = duplicate_round(tables=2, boards=1, seed="share")
    board = boards[0]
    inside, release = threading.Event(), threading.Event()
    # game_submit's audit_record (tournaments.core.audit)
    import tournaments.tables.submission as audit

    original = audit.audit_record

    def paused_audit(**kwargs):
        if kwargs.get("obj") is not None and getattr(kwargs["obj"], "table_id", None) == (
            tables[0].pk
        ):
            inside.set()
            release.wait(20)
        return original(**kwargs)

    def slow_submit() -> None:
        try:
            game_submit(table=tables[0], board=board, record=bot_record(board, tables[0]))
        finally:
            connection.close()

    audit.audit_record = paused_audit  # type: ignore[assignment]
    thread = threading.Thread(target=slow_submit)
    try:
        thread.start()
        assert inside.wait(20)
        with _locks_waited_at_most_3s():
            game = game_submit(table=tables[1], board=board, record=bot_record(board, tables[1]))
        assert game.stored
    finally:
        release.set()
        thread.join(30)
        audit.audit_record = original  # type: ignore[assignment]
    assert Game.objects.filter(board=board).count() == 2


def test_concurrent_submissions_are_neither_lost_nor_doubled() -> None:
    _event, _round, tables, boards = duplicate_round(tables=8, boards=1, seed="room")
    board = boards[0]
    records = {t.pk: bot_record(board, t) for t in tables}
    queue = list(tables) * 2  # every table twice: the second of each is a conflict
    lock = threading.Lock()

    def submit_next() -> object:
        with lock:
            table = queue.pop()
        return game_submit(
            table=table, board=board, record=records[table.pk], idempotency_key=f"k{table.pk}"
        )

    outcomes = race(16, submit_next)
    assert len(outcomes) == 16
    stored = [o for o in outcomes if isinstance(o, Game) and o.stored]
    assert len(stored) == 8
    assert Game.objects.filter(board=board).count() == 8
    assert sorted(Game.objects.filter(board=board).values_list("table_id", flat=True)) == sorted(
        records
    )


def test_a_submission_costs_six_statements_on_the_database() -> None:
    """Each statement is a round trip a referee's phone waits for, and the room's rate is the
    inverse of their sum (the goal: >= 100 submissions/s). A first submission needs:
    BEGIN; the round's state, locked for share, with the table's last version of the board in
    the same statement; the game; its audit entry; the removal of the table's entry draft;
    COMMIT. Nothing else: no second read of the round, no savepoint."""
    _event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="trips")
    board = boards[0]
    record = bot_record(board, tables[0])
    with CaptureQueriesContext(connection) as queries:
        game = game_submit(table=tables[0], board=board, record=record, idempotency_key="t-1")
    assert game.stored
    statements = [q["sql"].split()[0].upper() for q in queries.captured_queries]
    assert statements == ["BEGIN", "SELECT", "INSERT", "INSERT", "DELETE", "COMMIT"], statements
    # The retry of the same key is found by the same read, and stores nothing.
    again = game_submit(table=tables[0], board=board, record=record, idempotency_key="t-1")
    assert not again.stored and again.pk == game.pk
    assert Game.objects.filter(board=board).count() == 1


def test_an_organizer_transition_and_a_recompute_never_deadlock() -> None:
    """A transition (the cut, Swiss seating) locks the event row and then asks for the
    standings under their writers' lock; a worker's recomputation holds the writers' lock and
    then writes rows that reference the event row. Both take the event row first, then the
    writers' lock: whichever comes second waits, and neither is chosen as a deadlock victim."""
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="order")
    board = boards[0]
    for table in tables:
        game_verify(
            game_id=game_submit(table=table, board=board, record=bot_record(board, table)).pk
        )
    worker_has_lock, organizer_has_row = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            with transaction.atomic():
                store._writers_lock(event.pk)
                worker_has_lock.set()
                organizer_has_row.wait(1.0)  # the organizer waits for us
                Event.objects.filter(pk=event.pk).update(standings_updated_at=timezone.now())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    def organizer() -> None:
        try:
            assert worker_has_lock.wait(20)
            with transaction.atomic():
                Event.objects.select_for_update().get(pk=event.pk)
                organizer_has_row.set()
                store.standings_recompute(event_id=event.pk)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker), threading.Thread(target=organizer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert _stored_is_full_recompute(Event.objects.get(pk=event.pk))


def test_a_worker_recomputes_once_the_events_backlog_is_verified(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At scale: a worker that has verified a chunk while more games of the event wait to be
    verified does not stop to recompute (each recompute reads the whole event: under a burst
    of 1,200 games one per chunk would hold verification back for 20 s); the
    worker that verifies the last pending game recomputes once, and the stored rows equal a
    full recompute. The standings never go staler than the last recompute took (at least
    FRESH_SECONDS) while games wait."""
    # The games are verified here, by hand, not by a worker that a test before started.
    _verification_unsent(monkeypatch)
    event, _round, tables, boards = duplicate_round(tables=4, boards=1, seed="backlog")
    board = boards[0]
    ids = [game_submit(table=t, board=board, record=bot_record(board, t)).pk for t in tables]
    StandingsState.objects.get_or_create(event_id=event.pk)
    store.standings_recompute(event_id=event.pk)
    state = StandingsState.objects.filter(pk=event.pk)
    _took(state, seconds=30, ended_ago=0)  # a long recompute, stored a moment ago
    runs = state.get().runs
    services_verification.games_verify(game_ids=ids[:1], standings_inline=True)
    after_first = state.get()
    assert after_first.runs == runs  # three games still wait: no recompute yet
    assert after_first.requested > after_first.done and not after_first.queued
    services_verification.games_verify(game_ids=ids[1:], standings_inline=True)
    last = state.get()
    assert last.runs == runs + 1 and last.done == last.requested and not last.queued
    assert _stored_is_full_recompute(Event.objects.get(pk=event.pk))


def test_standings_staler_than_the_bound_are_recomputed_even_with_a_backlog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _verification_unsent(monkeypatch)
    ids, state = _submitted_and_ranked(seed="stale")
    _took(state, seconds=0.1, ended_ago=requests.FRESH_SECONDS + 5)
    runs = state.get().runs
    services_verification.games_verify(game_ids=ids[:1], standings_inline=True)
    assert state.get().runs == runs + 1  # stale: recomputed although two games wait


def _submitted_and_ranked(*, seed: str) -> tuple[list[int], Any]:
    """Three games of one board submitted (pending) after the standings were stored: their
    ids and the event's StandingsState queryset."""
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed=seed)
    board = boards[0]
    ids = [game_submit(table=t, board=board, record=bot_record(board, t)).pk for t in tables]
    StandingsState.objects.get_or_create(event_id=event.pk)
    store.standings_recompute(event_id=event.pk)
    return ids, StandingsState.objects.filter(pk=event.pk)


def _took(state, *, seconds: float, ended_ago: float) -> None:
    """Make the stored standings look computed in `seconds`, stored `ended_ago` seconds ago."""
    stored = timezone.now() - timezone.timedelta(seconds=ended_ago)
    state.update(read_at=stored - timezone.timedelta(seconds=seconds), stored_at=stored)


@pytest.mark.parametrize(
    ("took", "ended_ago", "deep", "recomputed"),
    [
        # A recompute of 0.3 s (600 players) stored 1 s ago: stale, the verifier recomputes,
        # so a burst's games reach the standings within about a second, not 2 s and more.
        (0.3, 1.0, False, True),
        # One of 10 s (10,000 players) stored 3 s ago is still fresh: the verifier goes on
        # verifying instead of spending most of its time recomputing.
        (10.0, 3.0, False, False),
        # Stale once as old as it took, while few games wait (a burst: a longer wait would
        # raise its p95 lag from 1.9 s to 2.3 s).
        (10.0, 11.0, False, True),
        # Still fresh when twice as old as it took while DEEP_QUEUE games wait (a drain): the
        # worker verifies three times as long as it recomputes (10,000 players: else a drain
        # spends most of its time recomputing).
        (10.0, 21.0, True, False),
        # Stale once three times as old as it took.
        (10.0, 31.0, True, True),
    ],
)
def test_standings_stay_fresh_for_as_long_as_their_recompute_took(
    monkeypatch: pytest.MonkeyPatch, took: float, ended_ago: float, deep: bool, recomputed: bool
) -> None:
    _verification_unsent(monkeypatch)
    if deep:
        monkeypatch.setattr(requests, "DEEP_QUEUE", 2)  # the two games that still wait
    ids, state = _submitted_and_ranked(seed="fresh")
    _took(state, seconds=took, ended_ago=ended_ago)
    runs = state.get().runs
    services_verification.games_verify(
        game_ids=ids[:1], standings_inline=True
    )  # two games still wait
    assert state.get().runs == runs + (1 if recomputed else 0)


def _pending_for_minutes(*, seed: str) -> tuple[Event, list[int]]:
    """Five games of one board submitted BACKLOG_SECONDS and two minutes ago, still pending
    (a queue drained for minutes), and the event's StandingsState."""
    event, _round, tables, boards = duplicate_round(tables=5, boards=1, seed=seed)
    board = boards[0]
    ids = [game_submit(table=t, board=board, record=bot_record(board, t)).pk for t in tables]
    old = timezone.now() - timezone.timedelta(seconds=requests.BACKLOG_SECONDS + 120)
    Game.objects.filter(pk__in=ids).update(submitted_at=old)
    StandingsState.objects.get_or_create(event_id=event.pk)
    return event, ids


def test_a_deep_queue_of_old_games_is_a_backlog_while_batches_come_full(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """33,330 games queued before the workers start (10,000 players), most pending for
    minutes. A worker whose batch came full (more games wait) leaves the recomputation while
    the standings are fresh, however old the waiting games; the batch that finds fewer than
    it could take recomputes. Games pending over BACKLOG_SECONDS still count: were they to
    count for nothing, the worker would recompute the 10,000 players after every batch of 100
    (97 % of its time)."""
    _verification_unsent(monkeypatch)
    event, ids = _pending_for_minutes(seed="deep")
    store.standings_recompute(event_id=event.pk)
    state = StandingsState.objects.filter(pk=event.pk)
    _took(state, seconds=30, ended_ago=0)
    runs = state.get().runs
    assert (
        len(services_verification.games_verify(game_ids=ids[:1], fill=2, standings_inline=True))
        == 2
    )
    assert state.get().runs == runs  # a full batch, three games wait: no recompute
    assert (
        len(services_verification.games_verify(game_ids=ids[2:3], fill=10, standings_inline=True))
        == 3
    )
    last = state.get()
    assert last.runs == runs + 1 and last.done == last.requested  # the queue is drained
    assert _stored_is_full_recompute(Event.objects.get(pk=event.pk))


def test_a_worker_keeping_up_recomputes_at_once_and_one_draining_a_deep_queue_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Standings computed in 10 s, stored 1 s ago, games of the event pending. A worker whose
    batch came full (`more`: it drains a deep queue) leaves the recomputation while they are
    fresh (three times as long as they took), so that it verifies three quarters of its time
    at least; one whose batch
    was not full keeps up with the room, and the standings are stale for it after
    FRESH_SECONDS: a game reaches them within about a recompute of its verification."""
    _verification_unsent(monkeypatch)
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="keeping-up")
    for t in tables:
        game_submit(table=t, board=boards[0], record=bot_record(boards[0], t))
    StandingsState.objects.get_or_create(event_id=event.pk)
    state = StandingsState.objects.filter(pk=event.pk)
    _took(state, seconds=10, ended_ago=1)
    assert requests._backlog(event.pk, more=True) is True
    assert requests._backlog(event.pk, more=False) is False
    _took(state, seconds=10, ended_ago=requests.FRESH_SECONDS / 10)
    assert requests._backlog(event.pk, more=False) is True  # fresh even for it


def test_cheap_standings_follow_each_verified_batch_with_no_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Standings that took 10 ms to compute, stored 50 ms ago, games of the event pending: a
    worker keeping up with the room recomputes after its batch (the standings are fresh for
    no longer than they took to compute, FRESH_SECONDS at most), so a game reaches them one
    recompute after its verification, not after a fixed window."""
    _verification_unsent(monkeypatch)
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="cheap")
    for t in tables:
        game_submit(table=t, board=boards[0], record=bot_record(boards[0], t))
    StandingsState.objects.get_or_create(event_id=event.pk)
    state = StandingsState.objects.filter(pk=event.pk)
    _took(state, seconds=0.01, ended_ago=0.05)
    assert requests._backlog(event.pk, more=False) is False
    _took(state, seconds=0.2, ended_ago=0.05)  # a dearer one leaves the verifier a moment
    assert requests._backlog(event.pk, more=False) is True


def test_a_recompute_outpaced_by_old_pending_games_leaves_the_next_to_their_verifier(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two workers drain 33,330 games queued for minutes. While one recomputes the 10,000
    players, the other keeps storing games, so each run finds more requested; a recomputation
    that sent itself to the back of the queue after AGAIN_LIMIT runs would wait behind 30,000
    messages of games already verified. So while games of the event are pending, however old,
    it leaves the next run to the worker that verifies them: the flag is released, nothing
    sent."""
    sent: list[tuple[Any, ...]] = []
    monkeypatch.setattr(requests, "enqueue", lambda *args, **kwargs: sent.append(args) or True)
    _verification_unsent(monkeypatch)
    event, ids = _pending_for_minutes(seed="outpaced")
    state = StandingsState.objects.filter(pk=event.pk)
    state.update(requested=1, queued=True)  # this worker's run, as _send hands it over
    computed = store.computed_rows

    def outpaced(**kwargs: Any) -> Any:
        rows = computed(**kwargs)
        # Meanwhile (while it computed) another worker stored games and asked again.
        state.update(requested=F("requested") + 1)
        return rows

    monkeypatch.setattr(store, "computed_rows", outpaced)
    requests.standings_refresh(event_id=event.pk)
    after = state.get()
    assert sent == []
    assert not after.queued
    assert after.runs == requests.AGAIN_INLINE + 1
    # The worker that verifies the last of them finds the flag down and stores the rest.
    monkeypatch.setattr(store, "computed_rows", computed)
    assert len(services_verification.games_verify(game_ids=ids, standings_inline=True)) == len(ids)
    last = state.get()
    assert last.done == last.requested and not last.queued
    assert _stored_is_full_recompute(Event.objects.get(pk=event.pk))


def test_the_drain_check_counts_the_waiting_games_without_sorting_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whether DEEP_QUEUE games wait is one count of the pending games, unsorted: with Game's
    own ordering it joined the board, table, round and event twice and sorted 33,330 rows,
    270 ms at every full batch of a drain (its rate fell from 730 to 450 games/s)."""
    _verification_unsent(monkeypatch)  # none verified
    monkeypatch.setattr(requests, "DEEP_QUEUE", 2)
    ids, state = _submitted_and_ranked(seed="drain-count")
    event_id = state.get().event_id
    _took(state, seconds=10, ended_ago=15)  # older than it took: is it a drain?
    with CaptureQueriesContext(connection) as queries:
        assert requests._backlog(event_id, more=True) is True  # three games wait
    counts = [q["sql"] for q in queries if "COUNT(" in q["sql"]]
    assert len(counts) == 1 and "ORDER BY" not in counts[0], counts
    assert len(ids) == 3
