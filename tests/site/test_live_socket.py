"""The live tables' WebSockets under a real ASGI server (Daphne) with the Redis channel layer.

Three seat sockets and the referee device's socket listen on one table's board while the steps
of a whole game are posted (from this process, as from another web machine of the site): every
socket hears every step in order, and seat E's socket, which records every message it gets,
never holds another seat's unplayed cards. A revoked link's socket is closed with its reason.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.notation import rank_cards
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.links import tokens

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


async def _listen(url: str, into: list[dict[str, Any]], until: int) -> None:
    """Keep every message of the socket at `url` until one shows `until` steps (or a game)."""
    async with websockets.connect(url, origin="http://127.0.0.1") as socket:
        while True:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=30))
            into.append(message)
            view = message.get("view") or {}
            if message.get("type") != "position" or view.get("at", 0) >= until or view.get("game"):
                return


def test_every_device_hears_every_step_and_a_seat_never_another_hand(asgi_server) -> None:
    world = build_world(seed="live-socket")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    table, board = world.tables[0], world.boards[0]
    seats = {seat: _token(url) for seat, url in made[0].seats}
    referee = _token(made[0].url)
    record = bot_record(board, table)
    steps = [(s, c) for s, c in record["bidding"]] + [(s, c) for s, c in record["plays"]]
    ws = asgi_server.replace("http://", "ws://")
    urls = {seat: f"{ws}/ws/s/{token}/boards/{board.number}/" for seat, token in seats.items()}
    urls["referee"] = f"{ws}/ws/t/{referee}/boards/{board.number}/device/"
    heard: dict[str, list[dict[str, Any]]] = {who: [] for who in urls}

    async def play() -> None:
        listeners = [
            asyncio.create_task(_listen(url, heard[who], len(steps))) for who, url in urls.items()
        ]
        # Every socket has its first position before the first step.
        while not all(heard.values()):
            await asyncio.sleep(0.02)
        await asyncio.to_thread(post_every_step)
        await asyncio.wait_for(asyncio.gather(*listeners), timeout=60)

    def post_every_step() -> None:
        client = Client()
        try:
            for at, (seat, step) in enumerate(steps):
                url = reverse("links:seat_steps", args=[seats[seat], board.number])
                body = json.dumps({"step": step, "at": at})
                answer = client.post(url, body, content_type="application/json")
                assert answer.status_code == 200 and answer.json()["ok"], answer.content
        finally:
            connection.close()  # this thread's own connection, before the database is flushed

    asyncio.run(play())
    for who, messages in heard.items():
        ats = [m["view"]["at"] for m in messages if m["type"] == "position"]
        # In order, none lost: every step count from 0 to the end was heard.
        assert ats == sorted(ats) and set(range(len(steps) + 1)) <= set(ats), (who, ats)
    final = heard["E"][-1]["view"]
    assert final["game"] is not None and final["result"]["score"]
    for message in heard["E"]:
        text = json.dumps(message)
        for other in ("S", "W"):
            assert board.hands[other] not in text
            assert f'"{rank_cards(board.hands[other])}"' not in text
    # The referee device saw the hand of each seat to act, the seat E socket only E's.
    assert {m["view"]["hand"]["seat"] for m in heard["E"] if m["view"].get("hand")} == {"E"}


def test_a_revoked_links_socket_is_refused_with_its_reason(asgi_server) -> None:
    world = build_world(seed="live-socket-revoked")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    seat, url = made[0].seats[0]
    tokens.link_revoke(link=made[0].link, actor=world.users["organizer"])
    ws = asgi_server.replace("http://", "ws://")

    async def open_it() -> tuple[dict[str, Any], int | None]:
        async with websockets.connect(
            f"{ws}/ws/s/{_token(url)}/boards/1/", origin="http://127.0.0.1"
        ) as socket:
            message = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
            try:
                await asyncio.wait_for(socket.recv(), timeout=10)
            except websockets.ConnectionClosed as closed:
                return message, closed.rcvd.code if closed.rcvd else None
        return message, None

    message, code = asyncio.run(open_it())
    assert message["type"] == "refused" and "revoked" in message["error"]["message"]
    assert code == 4403 and seat


def test_a_socket_from_another_sites_page_is_refused(asgi_server) -> None:
    ws = asgi_server.replace("http://", "ws://")

    async def open_it() -> None:
        async with websockets.connect(
            f"{ws}/ws/s/{'x' * 43}/boards/1/", origin="https://evil.example"
        ) as socket:
            await socket.recv()

    with pytest.raises(websockets.InvalidStatus):
        asyncio.run(open_it())


def test_a_socket_left_idle_still_hears_the_next_step(asgi_server) -> None:
    """A table may think for a while: a quiet socket stays open (the channel layer's blocking
    read must not time out on the client side, as redis-py 8's default read timeout of 5 s
    did), and hears the next step."""
    world = build_world(seed="live-socket-idle")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    seats = {seat: _token(url) for seat, url in made[0].seats}
    board = world.boards[0]
    first = bot_record(board, world.tables[0])["bidding"][0]
    ws = asgi_server.replace("http://", "ws://")
    heard: list[dict[str, Any]] = []

    async def wait_then_step() -> None:
        async with websockets.connect(
            f"{ws}/ws/s/{seats['E']}/boards/{board.number}/", origin="http://127.0.0.1"
        ) as socket:
            heard.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=10)))
            await asyncio.sleep(7)
            await asyncio.to_thread(post_first)
            heard.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=10)))

    def post_first() -> None:
        try:
            answer = Client().post(
                reverse("links:seat_steps", args=[seats[first[0]], board.number]),
                json.dumps({"step": first[1], "at": 0}),
                content_type="application/json",
            )
            assert answer.status_code == 200 and answer.json()["ok"]
        finally:
            connection.close()

    asyncio.run(wait_then_step())
    assert [m["view"]["at"] for m in heard] == [0, 1]


def test_a_seat_sends_its_steps_over_its_socket_and_is_judged_as_over_http(asgi_server) -> None:
    world = build_world(seed="live-socket-steps")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    seats = {seat: _token(url) for seat, url in made[0].seats}
    board = world.boards[0]
    bids = bot_record(board, world.tables[0])["bidding"]
    (first_seat, first), (second_seat, _second) = bids[0], bids[1]
    ws = asgi_server.replace("http://", "ws://")

    async def talk() -> dict[str, list[dict[str, Any]]]:
        heard: dict[str, list[dict[str, Any]]] = {}
        sockets = {}
        for seat, token in seats.items():
            sockets[seat] = await websockets.connect(
                f"{ws}/ws/s/{token}/boards/{board.number}/", origin="http://127.0.0.1"
            )
            heard[seat] = [json.loads(await asyncio.wait_for(sockets[seat].recv(), timeout=10))]

        async def answer_of(seat: str) -> dict[str, Any]:
            while True:
                message = json.loads(await asyncio.wait_for(sockets[seat].recv(), timeout=10))
                heard[seat].append(message)
                if message["type"] == "step":
                    return message

        # Not its turn: refused as a conflict, with the table as it is.
        await sockets[second_seat].send(
            json.dumps({"type": "step", "id": 1, "step": first, "at": 0})
        )
        refused = await answer_of(second_seat)
        assert refused["id"] == 1 and refused["ok"] is False and refused["conflict"] is True
        # Its turn: taken, answered with the new position; the other seats hear it.
        await sockets[first_seat].send(
            json.dumps({"type": "step", "id": 2, "step": first, "at": 0})
        )
        taken = await answer_of(first_seat)
        assert taken["ok"] is True and taken["view"]["at"] == 1
        for seat in seats:
            if seat != first_seat:
                message = json.loads(await asyncio.wait_for(sockets[seat].recv(), timeout=10))
                heard[seat].append(message)
                assert message["type"] == "position" and message["view"]["at"] == 1
        # Bad input: a step that is no text.
        await sockets[second_seat].send(json.dumps({"type": "step", "id": 3, "step": 7, "at": 1}))
        bad = await answer_of(second_seat)
        assert bad["ok"] is False and bad["error"]["code"] == "invalid" and "view" not in bad
        for socket in sockets.values():
            await socket.close()
        return heard

    heard = asyncio.run(talk())
    assert heard[first_seat][0]["type"] == "position"


def test_junk_on_a_socket_or_an_unknown_socket_address_is_refused_never_a_server_error(
    asgi_server,
) -> None:
    world = build_world(seed="live-socket-junk")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    _seat, url = made[0].seats[0]
    ws = asgi_server.replace("http://", "ws://")

    async def junk() -> list[dict[str, Any]]:
        answers = []
        async with websockets.connect(
            f"{ws}/ws/s/{_token(url)}/boards/1/", origin="http://127.0.0.1"
        ) as socket:
            assert json.loads(await socket.recv())["type"] == "position"
            # The last two: a message of no known type, or none, is answered too (a trial's
            # {"type": "bogus"} got no answer at all).
            for frame in (
                "not json",
                "x" * 200_000,
                b"\x00\x01",
                "[1, 2]",
                '{"type": "bogus"}',
                "{}",
            ):
                await socket.send(frame)
                answers.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=10)))
            # Still open: it answers a request for the position.
            await socket.send(json.dumps({"type": "position"}))
            answers.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=10)))
        return answers

    answers = asyncio.run(junk())
    assert [a["type"] for a in answers] == ["error"] * 6 + ["position"]
    assert all(a["error"]["code"] == "invalid" for a in answers[:6])

    async def nowhere() -> None:
        async with websockets.connect(f"{ws}/ws/x/", origin="http://127.0.0.1") as socket:
            await socket.recv()

    with pytest.raises(websockets.InvalidStatus) as refused:
        asyncio.run(nowhere())
    assert refused.value.response.status_code == 403


@pytest.mark.parametrize(
    "header",
    [("Accept-Language", "zh-hans,zh;q=0.9"), ("Cookie", "django_language=zh-hans")],
    ids=["accept-language", "cookie"],
)
def test_a_socket_speaks_the_readers_language(asgi_server, header: tuple[str, str]) -> None:
    """A Chinese reader's socket says everything in Chinese, as the page does (the language
    cookie or Accept-Language): the call buttons, and a refusal's reason."""
    from django.conf import settings

    assert settings.LANGUAGE_COOKIE_NAME == "django_language"
    world = build_world(seed="live-socket-language")
    made = tokens.table_links_make(
        event=world.event, round_=world.tables[0].round, actor=world.users["organizer"]
    )
    seats = {seat: _token(url) for seat, url in made[0].seats}
    board = world.boards[0]
    ws = asgi_server.replace("http://", "ws://")

    async def talk() -> list[dict[str, Any]]:
        async with websockets.connect(
            f"{ws}/ws/s/{seats[board.first_bidder]}/boards/{board.number}/",
            origin="http://127.0.0.1",
            additional_headers=[header],
        ) as socket:
            heard = [json.loads(await asyncio.wait_for(socket.recv(), timeout=10))]
            await socket.send(json.dumps({"type": "step", "id": 1, "step": "pass", "at": 5}))
            heard.append(json.loads(await asyncio.wait_for(socket.recv(), timeout=10)))
        return heard

    position, refused = asyncio.run(talk())
    labels = [c["label"] for c in position["view"]["menu"]["primary"]]
    assert any("叫" in label for label in labels), labels
    assert not any("bid" in label.lower() for label in labels), labels
    assert refused["conflict"] is True
    message = refused["error"]["message"]
    assert "table" not in message and any("\u4e00" <= ch <= "\u9fff" for ch in message), message
