"""The site's e-mail pages (namespace "mail", mounted at the root; tournaments.web.people.mail):
``mail/off/TOKEN/`` an unsubscribe link's page, ``p/TOKEN/mail/`` the switch of a player's private
link page, ``organizer/events/SLUG/mail/`` the organizer's message to every player."""

from __future__ import annotations

from django.urls import path

from tournaments.web.people import mail as views

app_name = "mail"

urlpatterns = [
    path("mail/off/<str:token>/", views.mail_off, name="off"),
    path("p/<str:token>/mail/", views.link_mail, name="link"),
    path("organizer/events/<str:slug>/mail/", views.broadcast, name="broadcast"),
]
