"""Private link URLs (namespace "links", no sign-in): ``t/TOKEN/…`` a table's entry, ``p/TOKEN/…``
a player's seats, games and scorecard (tournaments.web.links)."""

from __future__ import annotations

from django.urls import path

from tournaments.web import links as views

app_name = "links"

BOARD = "t/<str:token>/boards/<int:number>/"

urlpatterns = [
    path("t/<str:token>/", views.table_home, name="table"),
    path(BOARD, views.live_entry, name="live"),
    path(BOARD + "quick/", views.quick_entry, name="quick"),
    path(BOARD + "entry/", views.step_check, name="entry"),
    path(BOARD + "games/", views.game_submit, name="games"),
    path("t/<str:token>/games/<int:pk>/", views.game, name="game"),
    path("p/<str:token>/", views.player_home, name="player"),
    path("p/<str:token>/games/<int:pk>/check/", views.player_check, name="check"),
]
