"""Public URLs: events, standings, travellers, scorecards and games (namespace "public")."""

from __future__ import annotations

from django.urls import path

from games.views import game_detail
from tournaments import views

app_name = "public"

urlpatterns = [
    path("", views.event_list, name="events"),
    path("events/<str:slug>/", views.event_detail, name="event"),
    path("events/<str:slug>/boards/<int:number>/", views.traveller, name="traveller"),
    path("events/<str:slug>/players/<int:player_id>/", views.scorecard, name="scorecard"),
    path("games/<int:pk>/", game_detail, name="game"),
]
