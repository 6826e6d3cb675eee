"""URLs of the duplicate-aware rating (namespace "ratings"): public."""

from __future__ import annotations

from django.urls import path

from ddz_site.web.middleware import shows_only
from tournaments.web import ratings as views

app_name = "ratings"

urlpatterns = [
    path("api/ratings/", views.RatingListView.as_view(), name="api_list"),
    path("api/ratings/<int:player_id>/", views.RatingHistoryView.as_view(), name="api_history"),
    path("ratings.csv", shows_only(views.ratings_csv), name="csv"),
]
