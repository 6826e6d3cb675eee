"""Referee URLs (namespace "referee"): enter the games of an event."""

from __future__ import annotations

from django.urls import path

from games import views_referee

app_name = "referee"

urlpatterns = [
    path("events/<str:slug>/", views_referee.referee_event, name="event"),
    path(
        "events/<str:slug>/tables/<int:table_id>/boards/<int:number>/",
        views_referee.game_enter,
        name="enter",
    ),
]
