"""URLs of an event's life and its paper (namespace "prizes"): the organizer's "Date, place and
status" form, finishing and reopening the event, the prizes, the certificates (mounted under
/organizer/); the public final results (under the event's public pages)."""

from __future__ import annotations

from django.urls import path

from tournaments.web.people import life, prizes

app_name = "prizes"

urlpatterns = [
    path("organizer/events/<str:slug>/life/", life.event_life, name="event_life"),
    path("organizer/events/<str:slug>/finish/", life.event_finish, name="event_finish"),
    path("organizer/events/<str:slug>/reopen/", life.event_reopen, name="event_reopen"),
    path("organizer/events/<str:slug>/prizes/", prizes.prizes_edit, name="prizes"),
    path(
        "organizer/events/<str:slug>/print/certificates/",
        prizes.certificates,
        name="certificates",
    ),
    path("events/<str:slug>/results/", prizes.results, name="results"),
]
