"""An online table of three entrants under a real ASGI server (Daphne, Redis channel layer): when
one of them presses "Leave the table" and his seat's robot takes over, the sockets of the two
others hear it at once, in their position's ``taken_over`` (his seat, his name, the step the
robot plays from, why, and the sentence in the reader's language), and keep hearing it with
every later step (tournaments.web.live_socket, tournaments.web.devices.device_taken_over)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from websockets.sync.client import connect

from tests.factories import online_event, online_table_seated, online_table_step
from tournaments.core.rules import rules_of
from tournaments.online import play
from tournaments.tables import live

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def _cookie(user: Any, language: str) -> str:
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={session}; {settings.LANGUAGE_COOKIE_NAME}={language}"


def _until(socket: Any, done: Any, seconds: float = 15) -> dict[str, Any]:
    """The first message of `socket` for which `done` is true (`seconds` at most)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            message = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            break
        if done(message):
            return message
    raise AssertionError("no such message")


def _taken_over(message: dict[str, Any]) -> list[dict[str, Any]]:
    return list((message.get("view") or {}).get("taken_over") or [])


def test_the_others_hear_that_the_robot_took_a_seat_over(asgi_server: str) -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    seats = rules_of(event).seats
    devices = online_table_seated(event, users, 1)
    table, board = devices[seats[0]][0].table, devices[seats[0]][0].board
    url = asgi_server.replace("http://", "ws://") + f"/ws/events/{event.slug}/online/boards/1/"
    with ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(
                connect(
                    url,
                    origin="http://127.0.0.1",
                    additional_headers={"Cookie": _cookie(user, language)},
                )
            )
            for seat, user, language in zip(seats[:2], users[:2], ("en", "zh-hans"), strict=False)
        }
        for socket in sockets.values():
            first = _until(socket, lambda m: m.get("type") == "position")
            assert _taken_over(first) == []  # nobody has left yet
        # The third entrant leaves: the robot plays his seat from the step the table is at.
        at = play.online_board_leave(event=event, user=users[2], number=1)
        assert at is not None
        heard = {
            seat: _until(socket, lambda m: bool(_taken_over(m))) for seat, socket in sockets.items()
        }
        english = _taken_over(heard[seats[0]])
        assert english == [
            {
                "seat": seats[2],
                "name": "Entrant 3",
                "from": at,
                "why": "left",
                "text": f"Entrant 3 left: the robot plays that seat from move {at + 1}.",
                "mark": f"played by the robot from move {at + 1}",
            }
        ]
        chinese = _taken_over(heard[seats[1]])[0]
        assert (chinese["seat"], chinese["from"], chinese["why"]) == (seats[2], at, "left")
        assert chinese["mark"] == f"从第 {at + 1} 步起由机器人代打"
        # A later step, told with its steps (no database read), still carries the mark.
        state = live.live_state(table=table, board=board)
        if state.game is None and state.position.to_move in seats[:2]:
            before = len(state.position.steps)
            online_table_step({s: devices[s] for s in seats[:2]}, state)
            later = _until(
                sockets[seats[0]],
                lambda m: m.get("type") == "position" and m["view"]["at"] > before,
            )
            assert _taken_over(later) == english
