"""Private link URLs (namespace "links", no sign-in): ``t/TOKEN/…`` a table's entry, ``p/TOKEN/…``
a player's seats, games and scorecard (tournaments.web.links)."""

from __future__ import annotations

from django.urls import path

from tournaments.web import devices
from tournaments.web import links as views

app_name = "links"

BOARD = "t/<str:token>/boards/<int:number>/"
# The live table's devices (tournaments.web.devices): a seat link, the table link's referee
# device, a player's own link at her seat. Each has the same four doors; the WebSocket of each
# page is its address under /ws/ (tournaments.web.live_socket).
DEVICES = {
    "seat": "s/<str:token>/boards/<int:number>/",
    "table": BOARD + "device/",
    "player": "p/<str:token>/rounds/<int:round>/boards/<int:number>/",
}

urlpatterns = [
    path("t/<str:token>/", views.table_home, name="table"),
    path(BOARD, views.live_entry, name="live"),
    path(BOARD + "quick/", views.quick_entry, name="quick"),
    path(BOARD + "entry/", views.step_check, name="entry"),
    path(BOARD + "games/", views.game_submit, name="games"),
    path("t/<str:token>/games/<int:pk>/", views.game, name="game"),
    path("p/<str:token>/", views.player_home, name="player"),
    path("p/<str:token>/games/<int:pk>/check/", views.player_check, name="check"),
    path("s/<str:token>/", devices.seat_home, name="seat"),
]
for _kind, _base in DEVICES.items():
    urlpatterns += [
        path(_base, devices.board_page, {"kind": _kind}, name=f"{_kind}_board"),
        path(_base + "position/", devices.position, {"kind": _kind}, name=f"{_kind}_position"),
        path(_base + "steps/", devices.step, {"kind": _kind}, name=f"{_kind}_steps"),
        path(_base + "undo/", devices.undo, {"kind": _kind}, name=f"{_kind}_undo"),
    ]
for _kind in ("seat", "player"):
    urlpatterns.append(
        path(DEVICES[_kind] + "claim/", devices.claim, {"kind": _kind}, name=f"{_kind}_claim")
    )
