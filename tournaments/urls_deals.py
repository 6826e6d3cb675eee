"""Public deals URL (namespace "deals", mounted at /deals/): the commitment and, once
revealed, the seed and the recomputation of every board."""

from __future__ import annotations

from django.urls import path

from tournaments import views_organizer

app_name = "deals"

urlpatterns = [path("<str:slug>/", views_organizer.deals_public, name="event")]
