"""A club organizer's URLs (namespace "clubs", mounted at /organizer/clubs/)."""

from __future__ import annotations

from django.urls import path

from tournaments.web import clubs as views

app_name = "clubs"

urlpatterns = [
    path("<str:slug>/", views.club_page, name="club"),
    path("<str:slug>/series/<str:series_slug>/finish/", views.series_finish, name="finish"),
]
