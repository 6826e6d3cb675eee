"""Online play URLs (namespace "online", mounted at the root, before the public pages): an
entrant's page of an online event and his device at each board he started
(tournaments.web.people.online, tournaments.web.devices kind ``online``), and leaving his online
table (POST); the WebSocket of a device is its address under /ws/
(tournaments.web.live_socket)."""

from __future__ import annotations

from django.urls import path

from tournaments.web import devices
from tournaments.web.people import online as views

app_name = "online"

BOARD = "events/<str:slug>/online/boards/<int:number>/"
KIND = {"kind": "online"}

urlpatterns = [
    path("events/<str:slug>/online/", views.online_home, name="home"),
    path("events/<str:slug>/online/deal/", views.online_deal, name="deal"),
    path("events/<str:slug>/online/close/", views.online_close_now, name="close"),
    path("events/<str:slug>/online/enter/", views.online_join, name="enter"),
    path(BOARD + "start/", views.online_start, name="start"),
    path(BOARD + "leave/", views.online_leave, name="leave"),
    path(BOARD, devices.board_page, KIND, name="device_board"),
    path(BOARD + "position/", devices.position, KIND, name="device_position"),
    path(BOARD + "steps/", devices.step, KIND, name="device_steps"),
    path(BOARD + "undo/", devices.undo, KIND, name="device_undo"),
]
