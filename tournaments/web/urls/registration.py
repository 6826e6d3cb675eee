"""Registration and check-in URLs (namespace "registration", mounted at the root): the
player's registration form and his own registration under the public event pages; the
organizer's registrations page, check-in list and the page a check-in QR code opens under
/organizer/."""

from __future__ import annotations

from django.urls import path

from tournaments.web.people import checkin as views_checkin
from tournaments.web.people import registration as views

app_name = "registration"

urlpatterns = [
    path("events/<str:slug>/register/", views.register, name="register"),
    path("events/<str:slug>/registration/", views.mine, name="mine"),
    path("events/<str:slug>/registration/withdraw/", views.withdraw_mine, name="withdraw_mine"),
    path("events/<str:slug>/registration/<str:token>/", views.status, name="status"),
    path("organizer/events/<str:slug>/registrations/", views.registrations, name="registrations"),
    path(
        "organizer/events/<str:slug>/registrations/settings/",
        views.registration_settings,
        name="settings",
    ),
    path(
        "organizer/events/<str:slug>/registrations/close/",
        views.registration_close,
        name="close",
    ),
    path("organizer/events/<str:slug>/registrations/add/", views.registration_add, name="add"),
    path(
        "organizer/events/<str:slug>/registrations/<int:pk>/<str:action>/",
        views.registration_action,
        name="action",
    ),
    path("organizer/events/<str:slug>/check-in/", views_checkin.checkin_list, name="checkin_list"),
    path(
        "organizer/events/<str:slug>/check-in/seat/",
        views_checkin.seat_present,
        name="seat_present",
    ),
    path(
        "organizer/events/<str:slug>/check-in/rounds/<int:number>/players/<int:player_id>/",
        views_checkin.tap,
        name="checkin_tap",
    ),
    path(
        "organizer/events/<str:slug>/check-in/entries/<int:entry_id>/",
        views_checkin.entry_rounds,
        name="entry_rounds",
    ),
    path(
        "organizer/events/<str:slug>/check-in/<str:token>/",
        views_checkin.scan,
        name="checkin_scan",
    ),
]
