"""Public deals URL (namespace "deals", mounted at /deals/): the commitment and, once
revealed, the seed and the recomputation of every board."""

from __future__ import annotations

from django.urls import path

from ddz_site.web.middleware import shows_only
from tournaments.web import organizer

app_name = "deals"

urlpatterns = [path("<str:slug>/", shows_only(organizer.deals_public), name="event")]
