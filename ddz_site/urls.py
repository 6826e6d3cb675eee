"""URLs, split by audience: public pages, referees' entry and the organizers' admin."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("referee/", include("games.urls_referee")),
    path("api/", include("games.api.urls")),
    path("", include("tournaments.urls_public")),
]
