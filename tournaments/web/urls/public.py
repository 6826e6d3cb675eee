"""Public URLs: events, standings, the big screen and its clock, seating, travellers,
scorecards, hand records, games and their replays, and the exports (namespace "public")."""

from __future__ import annotations

from django.urls import path

from ddz_site.web.middleware import shows_only
from tournaments.web import public as views
from tournaments.web import screen as views_screen

app_name = "public"

urlpatterns = [
    path("", shows_only(views.event_list), name="events"),
    path("events/<str:slug>/", shows_only(views.event_detail), name="event"),
    path("events/<str:slug>/standings/", shows_only(views.standings), name="standings"),
    path(
        "events/<str:slug>/standings/live/", shows_only(views.standings_live), name="standings_live"
    ),
    path("events/<str:slug>/screen/", shows_only(views_screen.screen), name="screen"),
    path(
        "events/<str:slug>/screen/clock/",
        shows_only(views_screen.screen_clock),
        name="screen_clock",
    ),
    path("events/<str:slug>/standings.csv", shows_only(views.standings_csv), name="standings_csv"),
    path("events/<str:slug>/archive.json", shows_only(views.archive_json), name="archive"),
    path("events/<str:slug>/rounds/<int:number>/", shows_only(views.round_detail), name="round"),
    path(
        "events/<str:slug>/rounds/<int:number>/hands/", shows_only(views.hand_records), name="hands"
    ),
    path("events/<str:slug>/boards/<int:number>/", shows_only(views.traveller), name="traveller"),
    path(
        "events/<str:slug>/players/<int:player_id>/", shows_only(views.scorecard), name="scorecard"
    ),
    path(
        "events/<str:slug>/players/<int:player_id>/scorecard.csv",
        shows_only(views.scorecard_csv),
        name="scorecard_csv",
    ),
    path("games/<int:pk>/", shows_only(views.game), name="game"),
    path("games/<int:pk>/replay/", shows_only(views.replay), name="replay"),
]
