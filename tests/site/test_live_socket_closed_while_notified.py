"""A device that closes its socket while a notice of the board is on its way to it: the
notice is dropped and the socket leaves its table's group, where the consumer used to end
with "Exception inside application: Attempt to send on a closed protocol" (Daphne, seen by
the online benchmark) and never left the group."""

from __future__ import annotations

import asyncio

from autobahn.exception import Disconnected

from tournaments.web.live_socket import SeatConsumer


class _Layer:
    """Records what the consumer asks of its channel layer."""

    def __init__(self) -> None:
        self.discarded: list[tuple[str, str]] = []

    async def group_discard(self, group: str, channel: str) -> None:
        self.discarded.append((group, channel))


def _consumer(send) -> tuple[SeatConsumer, _Layer]:
    consumer = SeatConsumer()
    consumer.scope = {"type": "websocket"}
    consumer.base_send = send
    layer = _Layer()
    consumer.channel_layer = layer
    consumer.channel_name = "specific.seat!1"
    consumer.group = "table-7-board-3"
    return consumer, layer


def test_a_notice_to_a_closed_socket_is_dropped_and_the_group_left() -> None:
    sent = []

    async def closed(message):
        sent.append(message)
        raise Disconnected("Attempt to send on a closed protocol")

    consumer, layer = _consumer(closed)
    asyncio.run(consumer.send_json({"type": "position", "view": {}}))
    asyncio.run(consumer.send_json({"type": "position", "view": {}}))
    assert len(sent) == 1  # the second notice is not even tried
    assert layer.discarded == [("table-7-board-3", "specific.seat!1")]


def test_an_open_socket_gets_every_notice() -> None:
    sent = []

    async def open_(message):
        sent.append(message)

    consumer, layer = _consumer(open_)
    asyncio.run(consumer.send_json({"type": "position", "view": {"n": 1}}))
    asyncio.run(consumer.send_json({"type": "position", "view": {"n": 2}}))
    assert [m["type"] for m in sent] == ["websocket.send", "websocket.send"]
    assert '"n": 2' in sent[1]["text"] and not layer.discarded
