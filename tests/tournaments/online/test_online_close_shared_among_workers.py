"""The close of a window that ends with many boards in play is shared among the workers: more
than CLOSE_CHUNK boards are sent as tasks of CLOSE_CHUNK boards each (``online_finish``), the
close answers "waiting" meanwhile (a sweep or a second request takes none of them), and the
worker that finishes the last chunk closes the window. Before, one process played out every
board in play one after another: 0.15 to 0.4 s a board, an hour for 10,000 boards (the
benchmark's finding). With a real Celery worker on PostgreSQL and Redis."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from tests.conftest import wait_for
from tests.factories import online_event
from tournaments.models import AuditEntry, Event, Table
from tournaments.online import close, play
from tournaments.online.close import WAITING, online_window_close

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_the_boards_in_play_are_finished_by_the_workers_chunk_by_chunk(
    celery_worker, monkeypatch
) -> None:
    event, _td, users = online_event(entrants=7, boards=1)
    for user in users:
        play.online_board_start(event=event, user=user, number=1)
    Event.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    event.refresh_from_db()
    sent: list[list[int]] = []
    enqueue = close.enqueue

    def recorded(name, *args, **kwargs):
        if name == close.ONLINE_FINISH:
            sent.append(list(args[1]))
        return enqueue(name, *args, **kwargs)

    monkeypatch.setattr(close, "enqueue", recorded)
    monkeypatch.setattr(close, "CLOSE_CHUNK", 3)
    assert online_window_close(event=event) == WAITING
    tables = set(Table.objects.filter(round__event=event).values_list("pk", flat=True))
    # Three chunks of at most 3 boards, each board in one of them.
    assert len(sent) == 3 and all(len(chunk) <= 3 for chunk in sent)
    assert sorted(t for chunk in sent for t in chunk) == sorted(tables)
    # A second close meanwhile (the sweep) takes none of them and sends nothing more.
    assert online_window_close(event=event) in (WAITING, close.CLOSED)
    assert len(sent) == 3
    wait_for(
        lambda: Event.objects.get(pk=event.pk).online_closed_at is not None,
        timeout=120,
        what="the window closed by the workers",
    )
    finished = set(
        Game.objects.filter(table__in=tables, replaced_at__isnull=True).values_list(
            "table_id", flat=True
        )
    )
    assert finished == tables
    assert AuditEntry.objects.filter(event=event, action="online.window_close").count() == 1
    assert Event.objects.get(pk=event.pk).online_finishing_until is None


def test_a_few_boards_are_finished_by_the_close_itself() -> None:
    event, _td, users = online_event(entrants=2, boards=1)
    for user in users:
        play.online_board_start(event=event, user=user, number=1)
    Event.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    event.refresh_from_db()
    assert online_window_close(event=event) == close.CLOSED
    assert Event.objects.get(pk=event.pk).online_finishing_until is None
