"""An online table of three entrants under a real ASGI server (Daphne, Redis channel layer): every
position a socket sends carries ``move_seconds_left``, the seconds left for the seat to move
(read with the position, then counted by the consumer: a step heard gives the next move all its
seconds), and once they ran out, one device asking for the position (``{"type": "position"}``)
has the robot take the overdue seat over, which every socket of the table hears without anyone
moving (tournaments.web.live_socket)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from websockets.sync.client import connect

from games.models import EntryDraft
from tests.factories import online_event, online_table_seated, online_table_step
from tournaments.core.rules import rules_of
from tournaments.tables import live

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def _cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _until(socket: Any, done: Any, seconds: float = 15) -> dict[str, Any]:
    """The first position `socket` sends for which `done(view)` is true (`seconds` at most)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        if message.get("type") == "position" and done(message["view"]):
            return message["view"]
    raise AssertionError("no such position")


def _turn_began(table: object, seconds_ago: int) -> None:
    # update() leaves auto_now alone: the turn began `seconds_ago`.
    EntryDraft.objects.filter(table=table).update(
        updated_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def test_the_sockets_count_the_seconds_and_an_ask_once_run_out_has_the_robot_play(
    asgi_server: str,
) -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True, move_seconds=60)
    seats = rules_of(event).seats
    devices = online_table_seated(event, users, 1)
    table, board = devices[seats[0]][0].table, devices[seats[0]][0].board
    _turn_began(table, 20)
    url = asgi_server.replace("http://", "ws://") + f"/ws/events/{event.slug}/online/boards/1/"
    with ExitStack() as stack:
        asker, other = (
            stack.enter_context(
                connect(url, origin="http://127.0.0.1", additional_headers={"Cookie": _cookie(u)})
            )
            for u in users[:2]
        )
        for socket in (asker, other):
            first = _until(socket, lambda v: True)
            assert first["move_seconds_left"] in (39, 40)
        # A step: its notice gives the next move all its seconds.
        state = online_table_step(devices, live.live_state(table=table, board=board))
        at = len(state.position.steps)
        for socket in (asker, other):
            view = _until(socket, lambda v: v["at"] == at)
            assert view["move_seconds_left"] in (59, 60)
        # Nobody moves and the time runs out: one device asks, the robot takes the seat over,
        # and the other socket hears it by itself.
        mover = state.position.to_move
        _turn_began(table, 61)
        asker.send(json.dumps({"type": "position"}))
        heard = _until(
            other, lambda v: v["at"] > at and any(t["seat"] == mover for t in v["taken_over"])
        )
        assert heard["game"] is not None or heard["move_seconds_left"] in (59, 60)
