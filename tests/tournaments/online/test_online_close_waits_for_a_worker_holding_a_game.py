"""The window's close verifies the games still pending itself; a game a worker holds at that
moment (its verification skips it: SKIP LOCKED) is waited for, then verified if the worker
left it pending, so the close is done at once. Before, it answered "waiting" and the window
stayed shut with its results hidden until the next sweep (the demo's finished online event
sometimes failed to finish: "round 1 in play")."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction

from games.models import Game, Status
from tests.factories import online_event
from tournaments.models import Event
from tournaments.online import close, play
from tournaments.online.close import CLOSED, online_window_close
from tournaments.online.robots import robots_act

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_a_game_held_by_a_worker_is_waited_for_and_the_window_closed(monkeypatch) -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    table = play.online_board_start(event=event, user=ann, number=1)
    board = event.boards.get(number=1)
    robots_act(table=table, board=board, human=play.board_seat(event, 1), for_human=10_000)
    game = Game.objects.get(table=table, replaced_at__isnull=True)
    Game.objects.filter(pk=game.pk).update(status=Status.PENDING)  # not verified yet
    held, release = threading.Event(), threading.Event()

    def worker() -> None:
        # A worker's verification in progress: the game's row locked, for 0.3 s.
        try:
            with transaction.atomic():
                list(Game.objects.select_for_update().filter(pk=game.pk).values_list("pk"))
                held.set()
                release.wait(5)
                time.sleep(0.3)
        finally:
            connection.close()

    thread = threading.Thread(target=worker)
    thread.start()
    assert held.wait(5)
    skipped = []

    def verify_then_release(**kwargs):
        # The close's first verification skips the held game; the worker then finishes.
        done = verify(**kwargs)
        skipped.append(game.pk not in done)
        release.set()
        return done

    verify = close.games_verify
    monkeypatch.setattr(close, "games_verify", verify_then_release)
    ended = event.ends_at + timedelta(seconds=1)
    assert online_window_close(event=event, now=ended) == CLOSED
    thread.join(10)
    assert skipped[0]  # the worker held it when the close first looked
    assert Game.objects.get(pk=game.pk).status == Status.VERIFIED
    assert Event.objects.get(pk=event.pk).online_closed_at is not None
