"""An online entrant's device socket under a real ASGI server (Daphne): he sends his steps over
the socket of his seat, hears the robots' answers, and not one message he receives holds a
robot's unplayed cards (tournaments.online, tournaments.web.live_socket)."""

from __future__ import annotations

import json
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
from tournaments.online import play
from tournaments.online.robots import robot_step
from tournaments.tables import live

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def _until_answer(socket: Any, heard: list[dict[str, Any]], step_id: int) -> dict[str, Any]:
    while True:
        message = json.loads(socket.recv(timeout=30))
        heard.append(message)
        if message.get("type") == "step" and message.get("id") == step_id:
            return message


def test_an_entrant_plays_over_his_socket_and_hears_no_robots_hand(asgi_server) -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    table = play.online_board_start(event=event, user=ann, number=1)
    board = play.entrant_device(ann, event.slug, 1).board
    client = Client()
    client.force_login(ann)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    url = asgi_server.replace("http://", "ws://") + f"/ws/events/{event.slug}/online/boards/1/"
    heard: list[dict[str, Any]] = []
    mine = Robot("basic", "ann")
    with connect(url, origin="http://127.0.0.1", additional_headers={"Cookie": cookie}) as socket:
        heard.append(json.loads(socket.recv(timeout=30)))
        assert heard[0]["type"] == "position" and heard[0]["view"]["seat"] == "S"
        for step_id in range(200):
            state = live.live_state(table=table, board=board)
            if state.game is not None:
                break
            step = robot_step(state.position, mine)
            at = len(state.position.steps)
            message = {"type": "step", "id": step_id, "step": step, "at": at}
            socket.send(json.dumps(message))
            answer = _until_answer(socket, heard, step_id)
            assert answer["ok"], answer
    game = live.live_state(table=table, board=board).game
    assert game is not None
    # The robots' hands at each position the socket showed: none in its message.
    deal = entry_steps.EntryDeal.from_board(board)
    steps = record_steps(game.record)
    for message in heard:
        view = message.get("view") or {}
        if "at" not in view or view.get("game"):
            continue
        position = entry_steps.rebuild(deal, steps[: view["at"]])
        hands = position.game.hands if position.game else deal.hands
        text = json.dumps(message)
        assert view["hand"]["seat"] == "S"
        for seat in ("E", "W"):
            left = rank_cards(hands[seat])
            assert board.hands[seat] not in text
            if len(left) >= 4:
                assert f'"{left}"' not in text
