"""An online table of three entrants (tournaments.online.tables) under a real ASGI server
(Daphne, Redis channel layer): the first entrant's socket hears who joins while the table waits
(names, no card), then the start; the three play the board over their own sockets, and not one
message a socket receives holds another seat's unplayed cards
(tournaments.web.live_socket)."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from websockets.sync.client import connect

from games import steps as entry_steps
from games.live.seat import record_steps
from games.notation import rank_cards
from games.robots import Robot
from tests.factories import online_event
from tournaments.core.rules import rules_of
from tournaments.online import play
from tournaments.online.robots import robot_step
from tournaments.tables import live

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def _cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def _until(socket: Any, heard: list[dict[str, Any]], done: Any) -> dict[str, Any]:
    """Messages of `socket` kept in `heard` until one for which `done` is true (30 s at most)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        message = json.loads(socket.recv(timeout=30))
        heard.append(message)
        if done(message):
            return message
    raise AssertionError("no such message")


def _at(n: int) -> Any:
    def done(m: dict[str, Any]) -> bool:
        view = m.get("view") or {}
        return m.get("type") == "position" and (view.get("at") == n or bool(view.get("game")))

    return done


def test_three_sockets_hear_the_waiting_then_only_their_own_seat(asgi_server: str) -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True)
    seats = rules_of(event).seats
    board = event.boards.get(number=1)
    url = asgi_server.replace("http://", "ws://") + f"/ws/events/{event.slug}/online/boards/1/"
    heard: dict[str, list[dict[str, Any]]] = {s: [] for s in seats}
    sockets: dict[str, Any] = {}

    def opened(user: Any) -> Any:
        cookie = {"Cookie": _cookie(user)}
        return stack.enter_context(
            connect(url, origin="http://127.0.0.1", additional_headers=cookie)
        )

    with ExitStack() as stack:
        play.online_board_start(event=event, user=users[0], number=1)
        first = opened(users[0])
        sockets[seats[0]] = first
        message = _until(first, heard[seats[0]], lambda m: True)
        assert message["type"] == "waiting"
        assert [s["name"] for s in message["waiting"]["seats"]] == ["Entrant 1", None, None]
        # An arrival is heard at once, with his name.
        play.online_board_start(event=event, user=users[1], number=1)
        message = _until(first, heard[seats[0]], lambda m: m.get("type") == "waiting")
        assert [s["name"] for s in message["waiting"]["seats"]] == ["Entrant 1", "Entrant 2", None]
        # The third fills the table: the first socket hears the start (his seat's position).
        table = play.online_board_start(event=event, user=users[2], number=1)
        message = _until(first, heard[seats[0]], lambda m: m.get("type") == "position")
        assert message["view"]["seat"] == seats[0]
        for seat, user in zip(seats[1:], users[1:], strict=True):
            sockets[seat] = opened(user)
            assert _until(sockets[seat], heard[seat], _at(0))["view"]["seat"] == seat
        robots = {s: Robot("basic", u.username) for s, u in zip(seats, users, strict=True)}
        for step_id in range(200):
            state = live.live_state(table=table, board=board)
            if state.game is not None:
                break
            mover = state.position.to_move
            at = len(state.position.steps)
            step = robot_step(state.position, robots[mover])
            sockets[mover].send(json.dumps({"type": "step", "id": step_id, "step": step, "at": at}))
            answer = _until(
                sockets[mover],
                heard[mover],
                lambda m, i=step_id: m.get("type") == "step" and m.get("id") == i,
            )
            assert answer["ok"], answer
            for seat in seats:
                if seat != mover:
                    _until(sockets[seat], heard[seat], _at(at + 1))
    game = live.live_state(table=table, board=board).game
    assert game is not None
    deal = entry_steps.EntryDeal.from_board(board)
    steps = record_steps(game.record)
    for seat in seats:
        views = [m for m in heard[seat] if (m.get("view") or {}).get("at") is not None]
        assert len(views) >= len(steps) // 2  # the test saw the board from each seat
        for message in heard[seat]:
            text = json.dumps(message)
            view = message.get("view") or {}
            if message.get("type") == "waiting":
                for other in seats:
                    assert board.hands[other] not in text  # no card while waiting
                continue
            if "at" not in view or view.get("game"):
                continue
            assert view["hand"]["seat"] == seat
            position = entry_steps.rebuild(deal, steps[: view["at"]])
            hands = position.game.hands if position.game else deal.hands
            for other in seats:
                if other == seat:
                    continue
                left = rank_cards(hands[other])
                assert board.hands[other] not in text
                if len(left) >= 4:
                    assert f'"{left}"' not in text
