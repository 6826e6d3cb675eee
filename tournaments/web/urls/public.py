"""Public URLs: events, standings, the big screen and its clock, seating, travellers,
scorecards, hand records, games and their replays, and the exports (namespace "public")."""

from __future__ import annotations

from django.urls import path

from tournaments.web import public as views
from tournaments.web import screen as views_screen

app_name = "public"

urlpatterns = [
    path("", views.event_list, name="events"),
    path("events/<str:slug>/", views.event_detail, name="event"),
    path("events/<str:slug>/standings/", views.standings, name="standings"),
    path("events/<str:slug>/standings/live/", views.standings_live, name="standings_live"),
    path("events/<str:slug>/screen/", views_screen.screen, name="screen"),
    path("events/<str:slug>/screen/clock/", views_screen.screen_clock, name="screen_clock"),
    path("events/<str:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("events/<str:slug>/archive.json", views.archive_json, name="archive"),
    path("events/<str:slug>/rounds/<int:number>/", views.round_detail, name="round"),
    path("events/<str:slug>/rounds/<int:number>/hands/", views.hand_records, name="hands"),
    path("events/<str:slug>/boards/<int:number>/", views.traveller, name="traveller"),
    path("events/<str:slug>/players/<int:player_id>/", views.scorecard, name="scorecard"),
    path(
        "events/<str:slug>/players/<int:player_id>/scorecard.csv",
        views.scorecard_csv,
        name="scorecard_csv",
    ),
    path("games/<int:pk>/", views.game, name="game"),
    path("games/<int:pk>/replay/", views.replay, name="replay"),
]
