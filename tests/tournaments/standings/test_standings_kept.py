"""Standings that read again only the boards that changed give the rows of a
recomputation from nothing, whatever changed in between: a score, a game no longer counted, a
new game, a replacement, an adjusted score, a substitution, a seat. On real PostgreSQL (the
boards' versions are its row versions)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games.models import Game, Status
from tests.factories import duplicate_round
from tournaments.models import (
    Adjustment,
    Entry,
    Player,
    Round,
    RoundState,
    Seat,
    StandingsState,
    Substitution,
)
from tournaments.standings import cache, store
from tournaments.standings import results as standings_results

pytestmark = pytest.mark.django_db

SCORES = [{"S": 4, "E": -2, "W": -2}, {"S": -4, "E": 2, "W": 2}, {"S": 2, "E": -1, "W": -1}]


def _forget() -> None:
    cache.kept_forget()


def _from_nothing(event) -> dict:
    _forget()
    return standings_results.computed_rows(event=event)


@pytest.fixture
def played():
    event, round_, tables, boards = duplicate_round(tables=4, boards=3, seed="kept")
    games = {}
    for b in boards:
        for i, t in enumerate(tables):
            games[(t.number, b.number)] = Game.objects.create(
                table=t,
                board=b,
                record={},
                status=Status.VERIFIED,
                score=SCORES[(i + b.number) % 3],
            )
    return event, round_, tables, boards, games


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many boards each event_results found kept (spied)."""
    counts: list[int] = []
    kept = cache.kept_results

    def spy(*args, **kwargs):
        found = kept(*args, **kwargs)
        counts.append(len(found))
        return found

    monkeypatch.setattr(standings_results, "kept_results", spy)
    return counts


def test_a_new_score_on_one_board_reads_that_board_again_only(played, monkeypatch) -> None:
    event, _round, tables, boards, games = played
    _forget()
    standings_results.computed_rows(event=event)  # every board read and kept
    counts = _reads(monkeypatch)
    Game.objects.filter(pk=games[(1, 1)].pk).update(score={"S": -8, "E": 4, "W": 4})
    rows = standings_results.computed_rows(event=event)
    assert counts == [len(boards) - 1]  # the two other boards kept
    assert rows == _from_nothing(event)
    # and the new score counts: the first table's S player of board 1 is now last of it
    assert rows != {}


CHANGES: dict[str, Callable] = {}


def change(fn):
    CHANGES[fn.__name__] = fn
    return fn


@change
def score(event, tables, boards, games):
    Game.objects.filter(pk=games[(2, 2)].pk).update(score={"S": -10, "E": 5, "W": 5})


@change
def flagged(event, tables, boards, games):
    Game.objects.filter(pk=games[(3, 1)].pk).update(status=Status.FLAGGED)


@change
def deleted(event, tables, boards, games):
    Game.objects.filter(pk=games[(4, 3)].pk).delete()


@change
def replaced(event, tables, boards, games):
    old = games[(1, 2)]
    Game.objects.filter(pk=old.pk).update(replaced_at=timezone.now())
    Game.objects.create(
        table=old.table,
        board=old.board,
        record={},
        status=Status.VERIFIED,
        version=2,
        score={"S": -2, "E": 1, "W": 1},
    )


@change
def adjusted(event, tables, boards, games):
    Adjustment.objects.create(table=tables[1], board=boards[0], seat="E", kind="avg+")


@change
def substituted(event, tables, boards, games):
    zoe = Player.objects.create(name="Zoe Kept")
    Entry.objects.create(event=event, player=zoe)
    seated = Seat.objects.get(table=tables[0], seat="W")
    Substitution.objects.create(
        round=tables[0].round,
        table=tables[0],
        seat="W",
        player=seated.player,
        substitute=zoe,
        first_board=boards[1].number,
        last_board=boards[2].number,
    )


@change
def reseated(event, tables, boards, games):
    a = Seat.objects.get(table=tables[0], seat="S")
    b = Seat.objects.get(table=tables[1], seat="S")
    pa, pb = a.player, b.player
    Seat.objects.filter(pk=a.pk).update(player=pb)
    Seat.objects.filter(pk=b.pk).update(player=pa)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_whatever_changed_the_rows_are_a_recomputation_from_nothing(played, name) -> None:
    event, _round, tables, boards, games = played
    _forget()
    before = standings_results.computed_rows(event=event)  # kept
    CHANGES[name](event, tables, boards, games)
    after = standings_results.computed_rows(event=event)
    assert after == _from_nothing(event)
    assert after != before  # the change moved the standings


def test_every_change_in_turn(played) -> None:
    event, _round, tables, boards, games = played
    _forget()
    standings_results.computed_rows(event=event)
    for name in sorted(CHANGES):
        CHANGES[name](event, tables, boards, games)
        kept = standings_results.computed_rows(event=event)
        assert kept == _from_nothing(event), name


def test_a_process_keeps_at_most_its_bound_and_still_computes_right(played, monkeypatch) -> None:
    event, _round, tables, boards, games = played
    _forget()
    monkeypatch.setattr(cache, "RESULTS_KEPT", 20)  # fewer than two boards of 12 seat results
    first = standings_results.computed_rows(event=event)
    assert cache._KEPT["results"] <= 20
    assert len(cache.BOARD_RESULTS) <= 1
    Game.objects.filter(pk=games[(1, 3)].pk).update(score={"S": -6, "E": 3, "W": 3})
    assert standings_results.computed_rows(event=event) == _from_nothing(event) != first


@pytest.mark.parametrize("tamper", ["delete", "update", "delete all"])
def test_stored_rows_kept_by_the_recompute_are_read_again_once_someone_else_wrote_them(
    played, monkeypatch, tamper: str
) -> None:
    """A recompute compares with the rows it stored last (kept per process) instead of reading
    them all again, only while no one else wrote them: a row deleted (the admin may) or changed
    behind its back is put right by the next recompute, as by one from nothing."""
    event, _round, _tables, _boards, _games = played
    _forget()
    store.standings_recompute(event_id=event.pk)
    reads: list[int] = []
    stored_rows = cache.stored_rows
    monkeypatch.setattr(cache, "stored_rows", lambda **kw: reads.append(1) or stored_rows(**kw))
    store.standings_recompute(event_id=event.pk)  # nothing changed: the kept rows
    assert reads == []
    rows = event.standings.filter(stage__isnull=True).order_by("position")
    first = rows.first()
    if tamper == "delete":
        first.delete()
    elif tamper == "update":
        rows.filter(pk=first.pk).update(total="999")
    else:
        event.standings.all().delete()
    assert store.standings_recompute(event_id=event.pk) is True
    assert reads == [1]
    assert cache.stored_rows(event=event) == _from_nothing(event)


def test_a_worker_reads_ahead_the_boards_of_the_live_event(played, monkeypatch) -> None:
    """A worker that starts in the middle of an event reads the boards of the event in play
    whose standings were stored last (standings_warm), so that its first recomputation reads
    none of them again (a 600-player event after 12 rounds: 0.49 s from nothing against
    0.14 s with its boards kept, while a burst of results waited behind it); another event
    in play, stored earlier, is left alone (reading it would compete with the live one)."""
    event, round_, _tables, boards, _games = played
    other, other_round, other_tables, other_boards = duplicate_round(tables=3, boards=1, seed="o")
    for i, t in enumerate(other_tables):
        Game.objects.create(
            table=t, board=other_boards[0], record={}, status=Status.VERIFIED, score=SCORES[i]
        )
    Round.objects.filter(pk__in=[round_.pk, other_round.pk]).update(state=RoundState.IN_PLAY)
    for live in (other, event):  # the event's standings stored last
        StandingsState.objects.get_or_create(event=live)
        store.standings_recompute(event_id=live.pk)
    _forget()
    assert store.standings_warm() == 1
    counts = _reads(monkeypatch)
    standings_results.computed_rows(event=event)
    assert counts == [len(boards)]  # every board found kept: none read again
    standings_results.computed_rows(event=other)
    assert counts[-1] == 0  # not read ahead
    Round.objects.filter(pk=round_.pk).update(state=RoundState.CLOSED)
    _forget()
    assert store.standings_warm() == 1
    standings_results.computed_rows(event=other)
    assert counts[-1] == 1  # no longer in play, the event gives way to the other


@pytest.mark.parametrize(("pool", "reads_ahead"), [("solo", 1), ("prefork", 0), ("threads", 1)])
def test_a_worker_reads_ahead_in_each_process_that_runs_tasks(
    monkeypatch, pool: str, reads_ahead: int
) -> None:
    """Each process that runs tasks reads ahead once as it starts: a prefork pool's processes
    (Celery's worker_process_init, in a thread: one not up within 4 s would be killed), a solo
    worker's main process (its pool sends the same signal), a threads worker's when ready; a
    prefork worker's main process runs no task and reads nothing."""
    from celery.concurrency import get_implementation

    from tournaments import tasks

    started: list[int] = []
    monkeypatch.setattr(tasks, "read_ahead_in_background", lambda: started.append(1))
    consumer = SimpleNamespace(pool=get_implementation(pool)(limit=1))  # solo's signals here
    tasks.warm_worker(sender=consumer)
    assert len(started) == reads_ahead
    started.clear()
    tasks.warm_pool_process()  # a prefork pool process starting
    assert started == [1]


def test_a_recompute_waits_for_the_read_ahead_of_its_process(played) -> None:
    """A recomputation that starts while its process reads ahead waits for the read-ahead
    and then finds the boards kept, instead of reading them from nothing at the same time
    (seconds of CPU twice over at 10,000 players, on one interpreter lock)."""
    event, _round, _tables, _boards, _games = played
    StandingsState.objects.get_or_create(event=event)
    order: list[str] = []
    held = threading.Event()

    def read_ahead() -> None:
        with store._READING_AHEAD:
            held.set()
            time.sleep(0.3)
            order.append("read ahead")

    thread = threading.Thread(target=read_ahead)
    thread.start()
    held.wait(5)
    store.standings_recompute(event_id=event.pk)
    order.append("recomputed")
    thread.join()
    assert order == ["read ahead", "recomputed"]
