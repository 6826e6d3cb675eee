"""URLs, split by audience: public pages, referees' entry, the organizers' admin, and the
private links of tables and players (no sign-in)."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from ddz_site.web.accounts import SignInView
from ddz_site.web.health import healthz
from games.views import manifest, service_worker

# A request too large or with too many fields: 413 in the site's error shape (its module).
handler400 = "ddz_site.web.middleware.bad_request"
# A path no URL matches: the API's JSON 404 under /api/ and on the JSON doors, the site's page
# elsewhere.
handler404 = "ddz_site.web.middleware.not_found"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # The live entry's web app: its worker and manifest at the root cover every page.
    path("sw.js", service_worker, name="service_worker"),
    path("manifest.webmanifest", manifest, name="manifest"),
    # The language switch needs no CSRF token (a forged request could only change the
    # visitor's language), so public pages carry none and can be served from a cache.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    # The public pages first: the busiest (the standings) was matched after about a hundred
    # other patterns. No address of the modules below fits one of theirs
    # (tests/site/test_public_pages_shadow_no_address.py).
    path("", include("tournaments.web.urls.public")),
    # Accounts: the one sign-in page (before django-allauth's own at the same address), the
    # account page, invitations and profile claims, then django-allauth's pages.
    path("accounts/login/", SignInView.as_view(), name="account_login"),
    path("", include("tournaments.web.urls.accounts")),
    path("accounts/", include("allauth.urls")),
    # The event's life and its paper: its organizer's pages under /organizer/events/<slug>/,
    # the public final results under /events/<slug>/.
    path("", include("tournaments.web.urls.prizes")),
    # The site's e-mail: unsubscribe links, a player link's switch, the organizer's message.
    path("", include("tournaments.web.urls.mail")),
    # Registration and check-in: the player's pages under the public event's, the organizer's
    # under /organizer/ (before the organizer's module, whose paths are shorter).
    path("", include("tournaments.web.urls.registration")),
    # An entrant's online play, under the public event pages (tournaments.online).
    path("", include("tournaments.web.urls.online")),
    # Before the organizer's and referee's modules: its paths live under theirs.
    path("", include("tournaments.web.urls.officials")),
    path("referee/", include("tournaments.web.urls.referee")),
    path("organizer/clubs/", include("tournaments.web.urls.clubs")),
    path("organizer/", include("tournaments.web.urls.organizer")),
    path("deals/", include("tournaments.web.urls.deals")),
    path("api/", include("tournaments.api.urls")),
    path("api/", include("tournaments.api.league_urls")),
    path("", include("tournaments.web.urls.ratings")),
    path("", include("tournaments.web.urls.links")),
    path("", include("tournaments.web.urls.league")),
]
