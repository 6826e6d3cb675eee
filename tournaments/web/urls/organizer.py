"""Organizer URLs (namespace "organizer", mounted at /organizer/): dashboards, the change log,
players, the round and stage actions, print pages."""

from __future__ import annotations

from django.urls import path
from django.views.generic import RedirectView

from tournaments.web import audit_log as views_audit_log
from tournaments.web import organizer as views
from tournaments.web import substitutions as views_substitutions
from tournaments.web.people import players as views_players

app_name = "organizer"

urlpatterns = [
    path("", views.home, name="home"),
    # The sign-in page moved to /accounts/login/ (django-allauth's, for everyone): old links
    # and bookmarks get there with their ``next``.
    path(
        "login/",
        RedirectView.as_view(pattern_name="account_login", query_string=True),
        name="login",
    ),
    path("events/new/", views.event_new, name="event_new"),
    path("events/<str:slug>/", views.dashboard, name="dashboard"),
    path("events/<str:slug>/changes/", views_audit_log.change_log, name="changes"),
    path("events/<str:slug>/seed/commit/", views.seed_commit, name="seed_commit"),
    path("events/<str:slug>/seed/reveal/", views.seed_reveal, name="seed_reveal"),
    path("events/<str:slug>/stages/", views.stage_create, name="stage_create"),
    path(
        "events/<str:slug>/stages/<int:number>/<str:action>/",
        views.stage_action,
        name="stage_action",
    ),
    path(
        "events/<str:slug>/rounds/<int:number>/substitutions/",
        views_substitutions.substitution_add,
        name="substitution_add",
    ),
    path(
        "events/<str:slug>/substitutions/<int:pk>/remove/",
        views_substitutions.substitution_remove,
        name="substitution_remove",
    ),
    path("events/<str:slug>/print/guide-cards/", views.guide_cards, name="guide_cards"),
    path(
        "events/<str:slug>/rounds/<int:number>/print/<str:what>/",
        views.print_round,
        name="print",
    ),
    path(
        "events/<str:slug>/rounds/<int:number>/<str:action>/",
        views.round_action,
        name="round_action",
    ),
    path("events/<str:slug>/players/", views_players.players, name="players"),
    path("events/<str:slug>/players.csv", views_players.players_export, name="players_export"),
]
