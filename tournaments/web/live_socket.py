"""The live table's WebSocket: every device of a table hears each change of its board at once.

A device's page (tournaments.web.devices) opens ``/ws/`` + its own address. The consumer
resolves the link exactly as the HTTP doors do (tournaments.links.devices), joins the table's
channel group (ddz_site.kernel.broadcast.table_group) and sends ``{"type": "position",
"view": …}``: on connecting (so a device that reconnects or reloads has the position), on every
change told to the group, and when the device asks (``{"type": "position"}``). Each message is
built for this device alone (games.live.seat), so a socket never carries another seat's unplayed
cards. The link is checked again at every change: a link revoked or a round closed mid-game
ends the socket with ``{"type": "refused", "error": …}`` and close code 4403 (4404: no such
link or board). Steps travel over HTTP (tournaments.web.devices), whose answers carry the new
position too; the socket only listens.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.urls import path

from ddz_site.kernel.broadcast import table_group
from ddz_site.web.middleware import api_error
from tournaments.links import devices
from tournaments.links.devices import Device, DeviceRefused
from tournaments.tables import live
from tournaments.web.devices import device_view


class LiveTableConsumer(AsyncJsonWebsocketConsumer):
    """One device's socket on one board of its table (module docstring)."""

    kind = "seat"
    group: str | None = None

    def _open(self) -> Device:
        kwargs: dict[str, Any] = dict(self.scope["url_route"]["kwargs"])
        headers = dict(self.scope.get("headers") or [])
        ua = headers.get(b"user-agent", b"").decode("latin-1")
        if self.kind == "seat":
            return devices.seat_device(kwargs["token"], kwargs["number"], device=ua)
        if self.kind == "table":
            return devices.referee_device(kwargs["token"], kwargs["number"], device=ua)
        return devices.player_device(kwargs["token"], kwargs["round"], kwargs["number"], device=ua)

    @database_sync_to_async
    def _position(self, at: int | None = None) -> tuple[str, dict[str, Any]]:
        device = self._open()
        state = live.live_state(table=device.table, board=device.board, at=at)
        return table_group(device.table.pk, device.board.number), device_view(device, state)

    async def connect(self) -> None:
        await self.accept()
        if not await self._send_position():
            return
        assert self.group is not None
        await self.channel_layer.group_add(self.group, self.channel_name)

    async def _send_position(self, at: int | None = None) -> bool:
        try:
            group, view = await self._position(at)
        except DeviceRefused as exc:
            error = api_error(exc.code, exc.message)["error"]
            await self.send_json({"type": "refused", "error": error})
            await self.close(code=4404 if exc.status == 404 else 4403)
            return False
        self.group = group
        await self.send_json({"type": "position", "view": view})
        return True

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "position":
            await self._send_position()

    async def live_changed(self, message: dict[str, Any]) -> None:
        """A change of the board told to the group: this device's view of the board after the
        step it tells of (``at``), so that each step is shown in turn however fast they come."""
        at = message.get("at")
        await self._send_position(at if isinstance(at, int) else None)


class SeatConsumer(LiveTableConsumer):
    kind = "seat"


class RefereeDeviceConsumer(LiveTableConsumer):
    kind = "table"


class PlayerSeatConsumer(LiveTableConsumer):
    kind = "player"


websocket_urlpatterns = [
    path("ws/s/<str:token>/boards/<int:number>/", SeatConsumer.as_asgi()),
    path("ws/t/<str:token>/boards/<int:number>/device/", RefereeDeviceConsumer.as_asgi()),
    path("ws/p/<str:token>/rounds/<int:round>/boards/<int:number>/", PlayerSeatConsumer.as_asgi()),
]
