"""An online event's window: no board starts or takes a step before it opens or after it
closes (the message says when, in the event's zone); once it ended, the close lets the robots
finish every board in play (marked), verifies the games, publishes every round and reveals the
seed, once (idempotent)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Status
from tests.factories import online_event
from tournaments.models import AuditEntry, Event, RoundState
from tournaments.online import play
from tournaments.online.close import CLOSED, NOT_DUE, online_sweep, online_window_close
from tournaments.online.robots import robot_step
from tournaments.online.window import OnlineRefused
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def test_no_board_starts_before_the_window_opens_or_after_it_closes() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    event.time_zone = "Asia/Shanghai"
    early = event.starts_at - timedelta(minutes=1)
    with pytest.raises(OnlineRefused, match="opens on .*Asia/Shanghai"):
        play.online_board_start(event=event, user=ann, number=1, now=early)
    late = event.ends_at + timedelta(minutes=1)
    with pytest.raises(OnlineRefused, match="closed on .*Asia/Shanghai"):
        play.online_board_start(event=event, user=ann, number=1, now=late)
    assert not event.rounds.get(number=1).tables.exists()


def test_only_an_entrant_starts_a_board() -> None:
    event, td, _users = online_event(entrants=1, boards=1)
    with pytest.raises(OnlineRefused, match="Only an entrant"):
        play.online_board_start(event=event, user=td, number=1)


def test_a_step_after_the_window_is_refused() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    table = play.online_board_start(event=event, user=ann, number=1)
    device = play.entrant_device(ann, event.slug, 1)
    Event.objects.filter(pk=event.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    board = device.board
    board.event.refresh_from_db()
    position = live.live_state(table=table, board=board).position
    from games.robots import Robot

    with pytest.raises(OnlineRefused, match="closed"):
        play.step_and_robots(
            table=table,
            board=board,
            seat=device.seat,
            step=robot_step(position, Robot("basic", "me")),
            at=len(position.steps),
            actor=device.bearer,
        )


def test_the_close_finishes_started_boards_reveals_the_seed_and_is_idempotent() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=2)
    play.online_board_start(event=event, user=ann, number=1)  # left in play
    assert online_window_close(event=event) == NOT_DUE
    after = event.ends_at + timedelta(seconds=1)
    assert online_sweep(now=after)["closed"] == 1
    event.refresh_from_db()
    assert event.online_closed_at is not None and event.seed_revealed
    game = Game.objects.get(table__round__event=event, replaced_at__isnull=True)
    assert game.status == Status.VERIFIED and game.table.robot_moves >= 1
    assert set(event.rounds.values_list("state", flat=True)) == {RoundState.PUBLISHED}
    audits = AuditEntry.objects.count()
    assert online_window_close(event=event, now=after) == CLOSED
    assert online_sweep(now=after)["closed"] == 0
    assert AuditEntry.objects.count() == audits
    with pytest.raises(OnlineRefused, match="closed"):
        play.online_board_start(event=event, user=bob, number=2)
