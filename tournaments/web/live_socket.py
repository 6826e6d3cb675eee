"""The live table's WebSocket: every device of a table hears each change of its board at once.

A device's page (tournaments.web.devices) opens ``/ws/`` + its own address. The consumer
resolves it exactly as the HTTP doors do (tournaments.web.devices.open_device), joins the
table's channel group (ddz_site.kernel.broadcast.table_group) and sends ``{"type":
"position", "view": …}``: on connecting (so a device that reconnects or reloads has the
position), for every change told to the group, and when the device asks (``{"type":
"position"}``). Each message is built for this device alone (games.live.seat), so a socket never
carries another seat's unplayed cards. At an online table still waiting for entrants
(tournaments.online.tables) it sends ``{"type": "waiting", "waiting": {"seats", "seconds"}}``
instead (no card at all), again at each arrival told to the group, until the table is full; a
device asking for the position once the wait is over has the robots fill the table. When a
robot takes a seat over from its entrant (he left, or let a move's time run out), the notice
carries no steps: every device of the table reads it again, and its view's ``taken_over`` names
that seat from then on (tournaments.web.devices.device_taken_over). At a board of an online event
every view carries ``move_seconds_left``, the seconds left for the seat to move before the robot
plays (tournaments.web.devices.device_seconds_left): read from the database with the position,
then counted by the consumer itself (a new step gives the next move all its seconds); a device
whose countdown ran out asks for the position, which has the robot play the overdue move.

A notice of a step carries the board's public steps (ddz_site.kernel.broadcast): the consumer
keeps the deal and its last position and applies the new step itself, without reading the
database, so a step costs each device one engine step and one view. It reads the database on
connecting, for a notice that carries no steps (a stored game, a typed entry), and at least every
RECHECK_SECONDS to see that its link still opens the board: a link revoked or a round closed
mid-game ends the socket with ``{"type": "refused", "error": …}`` and close code 4403 (4404: no
such link or board). A device sends its steps over the socket (``{"type": "step", "id", "step",
"at"}``, answered ``{"type": "step", "id", "ok", "error", "view"}``, judged exactly as by the
HTTP door, tournaments.web.devices.take_step), or over HTTP when the socket is down. Everything
a socket sends is said in its reader's language (the language cookie or Accept-Language, as
LocaleMiddleware picks it for the device's page).
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import connections
from django.http import HttpRequest
from django.http.cookie import parse_cookie
from django.urls import path, re_path
from django.utils import translation
from django.utils.translation import gettext as _

from ddz_site.kernel.broadcast import table_group
from ddz_site.web.middleware import api_error
from games import steps as entry_steps
from tournaments.links.devices import Device, DeviceRefused
from tournaments.online.play import live_state_now
from tournaments.tables import live
from tournaments.web.devices import (
    device_left,
    device_taken_over,
    device_view,
    device_waiting,
    open_device,
    take_step,
)

RECHECK_SECONDS = 15.0
MAX_MESSAGE = 2_000  # characters: a step or a request for the position is a few dozen


def scope_language(scope: dict[str, Any]) -> str:
    """The reader's language of a socket, as LocaleMiddleware picks it for a page: the site's
    language cookie, else the browser's Accept-Language, else the site's default."""
    headers = dict(scope.get("headers") or [])
    request = HttpRequest()
    request.COOKIES = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    accept = headers.get(b"accept-language")
    if accept is not None:
        request.META["HTTP_ACCEPT_LANGUAGE"] = accept.decode("latin-1")
    return translation.get_language_from_request(request)


def _marked(taken_back: bool) -> dict[str, bool]:
    """The mark of a position after a step taken back (the device redraws it though it has
    fewer steps than the device shows)."""
    return {"taken_back": True} if taken_back else {}


class LiveTableConsumer(AsyncJsonWebsocketConsumer):
    """One device's socket on one board of its table (module docstring)."""

    kind = "seat"
    group: str | None = None
    device: Device | None = None
    deal: entry_steps.EntryDeal | None = None
    position: entry_steps.Position | None = None
    recorded = False  # the board's game is stored: later notices of steps are late ones
    checked_at = 0.0
    language: str | None = None
    left: int | None = None  # at an online table: the robot plays this seat from that step
    taken_over: list[dict[str, Any]] | None = None  # at an online table: the seats taken over
    # Against robots: the entrant's moves the robot played, as the last read found them.
    robot_moves: tuple[int | None, str] | None = None
    due: float | None = None  # online play: when the move of the seat to move runs out (monotonic)
    gone = False  # the device closed its socket while a notice was on its way to it

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """Send to the device, unless its socket is closed: a device that closes while a
        notice is on its way (a phone locked, a page left) loses nothing, since its next
        connection reads the board, so the notice is dropped and the socket leaves its group
        instead of ending the consumer with a server error. ASGI servers raise an OSError
        there; Daphne raises autobahn's Disconnected, a RuntimeError."""
        if self.gone:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except (OSError, RuntimeError):
            self.gone = True
            if self.group is not None and self.channel_layer is not None:
                await self.channel_layer.group_discard(self.group, self.channel_name)

    async def send_json(self, content: Any, close: bool = False) -> None:
        """As AsyncJsonWebsocketConsumer.send_json, through `send` (its guard)."""
        await self.send(text_data=await self.encode_json(content), close=close)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Every message handled in the reader's language (scope_language): what the socket
        sends is said as the device's page says it."""
        if self.language is None:
            self.language = scope_language(self.scope)
        with translation.override(self.language):
            await super().dispatch(message)

    def _open(self) -> Device:
        kwargs: dict[str, Any] = dict(self.scope["url_route"]["kwargs"])
        headers = dict(self.scope.get("headers") or [])
        ua = headers.get(b"user-agent", b"").decode("latin-1")
        return open_device(self.kind, kwargs, user=self.scope.get("user"), ua=ua)

    @database_sync_to_async
    def _read(self) -> dict[str, Any]:
        """The device resolved anew and its message now, from the database: ``{"type":
        "position", "view"}``, or ``{"type": "waiting", "waiting"}`` at an online table still
        waiting for entrants (module docstring)."""
        try:
            device = self._open()
            waiting = device_waiting(device)
            if waiting is not None:
                self.device, self.checked_at = device, time.monotonic()
                self.deal, self.position, self.recorded = None, None, False
                self.group = table_group(device.table.pk, device.board.number)
                return {"type": "waiting", "waiting": waiting.as_json()}
            # An online entrant's overdue move is played by the robot first.
            state = live_state_now(table=device.table, board=device.board)
            self.left = device_left(device)
            self.taken_over = device_taken_over(device)
            self.device, self.checked_at = device, time.monotonic()
            self.deal = state.position.deal
            self.position = state.position if state.game is None else None
            self.recorded = state.game is not None
            self.group = table_group(device.table.pk, device.board.number)
            view = device_view(device, state, left=self.left, taken_over=self.taken_over)
            self.robot_moves = (view["robot_moves"], view["robot_moves_text"])
            seconds = view.get("move_seconds_left")
            self.due = time.monotonic() + seconds if seconds is not None else None
            return {"type": "position", "view": view}
        finally:
            # One socket is one thread of the server: it gives its connection back at once
            # instead of holding one per open socket.
            connections.close_all()

    def _view_of(self, steps: list[str], undo: dict[str, Any]) -> dict[str, Any] | None:
        """The view after the public `steps`, from the last position kept (no database), or
        None when it cannot be built here (the consumer then reads the database)."""
        if (
            self.device is None
            or self.deal is None
            or self.taken_over is None
            or self.robot_moves is None
        ):
            return None
        try:
            known = self.position
            if known is not None and list(known.steps) == steps[:-1] and steps:
                position = entry_steps.apply_step(known, steps[-1])
            elif known is not None and list(known.steps) == steps:
                position = known
            else:
                position = entry_steps.rebuild(self.deal, steps)
        except entry_steps.EntryError:
            return None
        if self.due is not None and (known is None or list(known.steps) != list(position.steps)):
            # A new step: the table's draft was saved just now, so the next move has all its
            # seconds (a timed board only: the database said so when the socket read it).
            self.due = time.monotonic() + self.device.board.event.move_seconds
        self.position = position
        # A board still in play: the view needs no database (no game, no next board, no claim;
        # a robot's take-over of a seat is told by a notice without steps, read above).
        state = live.LiveState(position, undo, None)
        seconds = None
        if self.due is not None and position.to_move is not None:
            seconds = max(0, math.ceil(self.due - time.monotonic()))
        return device_view(
            self.device,
            state,
            left=self.left,
            taken_over=self.taken_over,
            seconds_left=seconds,
            robot_moves=self.robot_moves,
        )

    async def connect(self) -> None:
        await self.accept()
        if await self._send_read():
            assert self.group is not None
            await self.channel_layer.group_add(self.group, self.channel_name)

    async def _send_read(self, taken_back: bool = False) -> bool:
        try:
            message = await self._read()
        except DeviceRefused as exc:
            error = api_error(exc.code, exc.message)["error"]
            await self.send_json({"type": "refused", "error": error})
            await self.close(code=4404 if exc.status == 404 else 4403)
            return False
        await self.send_json({**message, **_marked(taken_back)})
        return True

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """A device's message: JSON text (``{"type": "position"}`` or a step); anything else is
        answered with a refusal and the socket stays open (never a server error)."""
        try:
            content = json.loads(text_data) if text_data and len(text_data) <= MAX_MESSAGE else None
        except ValueError:
            content = None
        if not isinstance(content, dict):
            message = _("A device sends JSON messages: a step or a request for the position.")
            await self.send_json({"type": "error", "error": api_error("invalid", message)["error"]})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            return
        if content.get("type") == "position":
            await self._send_read()
        elif content.get("type") == "step":
            await self.send_json(
                {"type": "step", "id": content.get("id"), **await self._step(content)}
            )
        else:
            # Answered, not passed over in silence (a trial's device waited for nothing).
            message = _("A device sends JSON messages: a step or a request for the position.")
            await self.send_json({"type": "error", "error": api_error("invalid", message)["error"]})

    @database_sync_to_async
    def _step(self, content: dict[str, Any]) -> dict[str, Any]:
        """One step sent over the socket: the same judgement as the HTTP door's
        (tournaments.web.devices.take_step), answered ``{"ok", "error", "view"}`` (``conflict``
        true when another device moved first)."""
        try:
            if self.device is None or time.monotonic() - self.checked_at >= RECHECK_SECONDS:
                self.device, self.checked_at = self._open(), time.monotonic()
            return take_step(self.device, content)
        except DeviceRefused as exc:
            return {"ok": False, "error": api_error(exc.code, exc.message)["error"]}
        finally:
            connections.close_all()

    async def live_changed(self, message: dict[str, Any]) -> None:
        """A change of the board told to the group: this device's view after it. A notice of
        a position the device was already shown (a read of the database overtook it) is
        skipped, so that a device never goes back to an older position; a step taken back
        (``taken_back``) is the one notice of fewer steps that is sent, marked so that the
        device redraws it."""
        steps, undo = message.get("steps"), message.get("undo") or {}
        taken_back = bool(message.get("taken_back"))
        if isinstance(steps, list) and self.recorded:
            return
        shown = self.position
        if (
            isinstance(steps, list)
            and shown is not None
            and not undo
            and not taken_back
            and len(steps) < len(shown.steps)
            and list(shown.steps[: len(steps)]) == steps
        ):
            return
        fresh = time.monotonic() - self.checked_at < RECHECK_SECONDS
        view = None
        if fresh and isinstance(steps, list):
            view = self._view_of([str(s) for s in steps], dict(undo))
        if view is None:
            await self._send_read(taken_back=taken_back)
        else:
            await self.send_json({"type": "position", "view": view, **_marked(taken_back)})


class NoSuchSocket(AsyncJsonWebsocketConsumer):
    """Any other address under /ws/: the handshake is refused (403), never a server error."""

    async def connect(self) -> None:
        await self.close()


class SeatConsumer(LiveTableConsumer):
    kind = "seat"


class RefereeDeviceConsumer(LiveTableConsumer):
    kind = "table"


class PlayerSeatConsumer(LiveTableConsumer):
    kind = "player"


class SignedInRefereeConsumer(LiveTableConsumer):
    kind = "referee"


class OnlineEntrantConsumer(LiveTableConsumer):
    kind = "online"


websocket_urlpatterns = [
    path("ws/s/<str:token>/boards/<int:number>/", SeatConsumer.as_asgi()),
    path("ws/t/<str:token>/boards/<int:number>/device/", RefereeDeviceConsumer.as_asgi()),
    path("ws/p/<str:token>/rounds/<int:round>/boards/<int:number>/", PlayerSeatConsumer.as_asgi()),
    path(
        "ws/referee/events/<str:slug>/tables/<int:table_id>/boards/<int:number>/device/",
        SignedInRefereeConsumer.as_asgi(),
    ),
    path("ws/events/<str:slug>/online/boards/<int:number>/", OnlineEntrantConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
