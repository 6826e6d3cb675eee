"""Account URLs of the site's own (namespace "accounts", mounted at the root before
django-allauth's /accounts/): the account page, invitations and profile claims."""

from __future__ import annotations

from django.urls import path

from tournaments.web.people import accounts as views

app_name = "accounts"

urlpatterns = [
    path("accounts/me/", views.account, name="me"),
    path("accounts/invitation/<str:token>/", views.invitation, name="invitation"),
    path("organizer/events/<str:slug>/players/<int:pk>/invite/", views.invite, name="invite"),
    path("people/<int:pk>/claim/", views.claim, name="claim"),
    path("organizer/claims/<int:pk>/<str:decision>/", views.claim_decide, name="claim_decide"),
]
