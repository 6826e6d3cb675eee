"""Telling the devices of a live table that its position changed (Django Channels groups).

A write that changes what a table's devices show (a step, an undo, a stored game) calls
`table_changed` inside its transaction; the message leaves only once the transaction commits,
so no device is told of a change that was rolled back. The message carries what the whole
table may see, the calls and plays made (never a hand): each device's consumer builds its own
view from them and the deal it keeps (games.live.seat), so what travels through the channel
layer (Redis in production, memory in the embedded default) holds no unplayed card. A channel
layer that cannot be reached loses the message, never the write: devices poll as their fallback
and reconnecting devices read the position anew.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

MESSAGE_TYPE = "live.changed"  # the consumers' handler: live_changed


def table_group(table_id: int, board_number: int) -> str:
    """The channel group of one table's board: every device open on it listens there."""
    return f"live.{table_id}.{board_number}"


def _send(group: str, message: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # noqa: BLE001 - a lost notice must never undo a committed write
        log.warning("live notice to %s lost", group, exc_info=True)


def table_changed(
    *,
    table_id: int,
    board_number: int,
    steps: Sequence[str] | None = None,
    undo: Mapping[str, object] | None = None,
    taken_back: bool = False,
) -> None:
    """After the current transaction commits, tell the devices of the table's board that its
    position changed: with `steps` (the board's calls and plays so far, public at the table)
    and `undo` (an undo asked), each device builds its view without reading the database;
    without them (a stored game, a correction) each reads it. `taken_back` marks a step taken
    back: the position has fewer steps than the devices show, and replaces it all the same."""
    group = table_group(table_id, board_number)
    message: dict[str, object] = {"type": MESSAGE_TYPE}
    if steps is not None:
        message.update(at=len(steps), steps=list(steps), undo=dict(undo or {}))
    if taken_back:
        message["taken_back"] = True
    transaction.on_commit(lambda: _send(group, message))
