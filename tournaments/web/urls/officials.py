"""The organizer's private links and officials, and the chief referee's handling of players'
signals (namespace "officials"; tournaments.web.officials). Mounted at the site's root with
paths under ``organizer/events/SLUG/`` and ``referee/events/SLUG/`` that no other URL module
uses."""

from __future__ import annotations

from django.urls import path

from tournaments.web import officials as views

app_name = "officials"

EVENT = "organizer/events/<str:slug>/"

urlpatterns = [
    path(EVENT + "links/tables/", views.table_links, name="table_links"),
    path(EVENT + "links/players/", views.player_links, name="player_links"),
    path(EVENT + "links/window/", views.correction_window, name="correction"),
    path(EVENT + "links/<str:kind>/<int:pk>/revoke/", views.link_revoke, name="revoke"),
    path(EVENT + "officials/", views.official_add, name="add"),
    path(EVENT + "officials/<int:pk>/remove/", views.official_remove, name="remove"),
    path(EVENT + "officials/stages/<int:number>/", views.stage_referees, name="stage_referees"),
    path("referee/events/<str:slug>/signals/<int:pk>/handle/", views.signal_handle, name="handle"),
]
