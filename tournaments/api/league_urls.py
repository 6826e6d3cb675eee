"""Public API URLs of clubs, series and people (namespace "league-api", mounted at /api/)."""

from __future__ import annotations

from django.urls import path

from tournaments.api import league as views

app_name = "league-api"

urlpatterns = [
    path("clubs/", views.ClubListView.as_view(), name="clubs"),
    path("series/<str:slug>/standings/", views.SeriesStandingsView.as_view(), name="series"),
    path("people/<int:pk>/", views.PersonView.as_view(), name="person"),
    path("people/<int:pk>/ratings/", views.PersonRatingView.as_view(), name="ratings"),
]
