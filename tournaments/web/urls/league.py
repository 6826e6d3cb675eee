"""Public URLs of clubs, series and player profiles (namespace "league")."""

from __future__ import annotations

from django.urls import path

from ddz_site.web.middleware import shows_only
from tournaments.web import league as views

app_name = "league"

urlpatterns = [
    path("clubs/<str:slug>/", shows_only(views.club), name="club"),
    path("series/<str:slug>/", shows_only(views.series), name="series"),
    path("series/<str:slug>/standings.csv", shows_only(views.series_csv), name="series_csv"),
    path("people/<int:pk>/", shows_only(views.person), name="person"),
    path("people/<int:pk>/history.csv", shows_only(views.person_csv), name="person_csv"),
    path("people/<int:pk>/hide/", views.person_hide, name="person_hide"),
    path("people/<int:pk>/merge/", views.person_merge, name="person_merge"),
    path("people/<int:pk>/unmerge/<int:record>/", views.person_unmerge, name="person_unmerge"),
]
