"""Referee URLs (namespace "referee"): the tables of an event, live and quick entry, a game's
versions with confirmation and ruling, a table's adjusted scores on a board, the status board,
the flagged queue, the penalties and the buttons of the round clock."""

from __future__ import annotations

from django.urls import path

from tournaments.web import adjustments, devices, penalties, screen
from tournaments.web import referee as views_referee

app_name = "referee"

TABLE = "events/<str:slug>/tables/<int:table_id>/boards/<int:number>/"

urlpatterns = [
    path("events/<str:slug>/", views_referee.referee_event, name="event"),
    path("events/<str:slug>/status/", views_referee.status_board, name="status"),
    path("events/<str:slug>/flagged/", views_referee.flagged_queue, name="flagged"),
    path("events/<str:slug>/confirm/", views_referee.confirm_queue, name="confirm"),
    path("events/<str:slug>/penalties/", penalties.penalties_page, name="penalties"),
    path(
        "events/<str:slug>/penalties/<int:pk>/withdraw/",
        penalties.penalty_withdraw,
        name="penalty_withdraw",
    ),
    path(
        "events/<str:slug>/rounds/<int:number>/clock/<str:action>/",
        screen.clock_action,
        name="clock",
    ),
    path("events/<str:slug>/games/<int:pk>/", views_referee.game_versions, name="game"),
    path(TABLE, views_referee.live_entry, name="live"),
    path(TABLE + "quick/", views_referee.quick_entry, name="quick"),
    path(TABLE + "record/", views_referee.game_enter, name="enter"),
    path(TABLE + "adjust/", adjustments.adjusted_scores, name="adjust"),
    # The table's referee device, signed in (tournaments.web.devices).
    path(TABLE + "device/", devices.board_page, {"kind": "referee"}, name="device_board"),
    path(TABLE + "device/position/", devices.position, {"kind": "referee"}, name="device_position"),
    path(TABLE + "device/steps/", devices.step, {"kind": "referee"}, name="device_steps"),
    path(TABLE + "device/undo/", devices.undo, {"kind": "referee"}, name="device_undo"),
]
