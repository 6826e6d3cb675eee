"""API URLs (namespace "api"), mounted at /api/: the event (its announcement), referee entry,
games, rulings, the table status board, the audit log, the token, and the OpenAPI schema with
Swagger UI and Redoc served from the project's own static files (drf-spectacular-sidecar)."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from ddz_site.api.auth import TokenView
from ddz_site.api.docs import RedocView, SwaggerView
from tournaments.api import views

app_name = "api"

ENTRY = "events/<str:slug>/tables/<int:table_id>/boards/<int:number>/"

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="token"),
    path("events/<str:slug>/", views.EventView.as_view(), name="event"),
    path("events/<str:slug>/tables/", views.TableStatusView.as_view(), name="tables"),
    path("events/<str:slug>/flagged/", views.FlaggedQueueView.as_view(), name="flagged"),
    path("events/<str:slug>/audit/", views.AuditLogView.as_view(), name="audit"),
    path(
        "events/<str:slug>/boards/<int:number>/games/",
        views.BoardGamesView.as_view(),
        name="board-games",
    ),
    path(ENTRY + "entry/", views.EntryView.as_view(), name="entry"),
    path(ENTRY + "games/", views.GameListView.as_view(), name="games"),
    path("games/<int:pk>/", views.GameDetailView.as_view(), name="game"),
    path("games/<int:pk>/confirm/", views.GameConfirmView.as_view(), name="confirm"),
    path("games/<int:pk>/resolve/", views.GameResolveView.as_view(), name="resolve"),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SwaggerView.as_view(url_name="api:schema"), name="swagger"),
    path("redoc/", RedocView.as_view(url_name="api:schema"), name="redoc"),
]
