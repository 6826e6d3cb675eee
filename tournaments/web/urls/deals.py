"""Public deals URL (namespace "deals", mounted at /deals/): the commitment and, once
revealed, the seed and the recomputation of every board."""

from __future__ import annotations

from django.urls import path

from tournaments.web import organizer

app_name = "deals"

urlpatterns = [path("<str:slug>/", organizer.deals_public, name="event")]
