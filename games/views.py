"""The live entry as an installable web app: its service worker and
its web app manifest, both served from the site's root so that they cover every page.

- ``/sw.js`` (`service_worker`): the worker of templates/games/sw.js. It keeps a copy of each
  live entry page the page asked it to keep (games/static/games/offline.js) with its scripts
  and styles, answers them from the network when it can and from that copy when it cannot, so
  that the page opens offline; it touches no other request (the JSON doors and every POST go
  to the network). Sent with ``Service-Worker-Allowed: /`` and ``Cache-Control: no-cache``
  (a browser looks for a new worker at each visit).
- ``/manifest.webmanifest`` (`manifest`): name, icons, ``display: standalone``, scope ``/``;
  ``start_url`` the page that links it (``?start=PATH``, a path of this site; anything else
  is the root).
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET

from games import offline
from games.messages import call_label
from games.steps import CALL_ALIASES, END_WORDS

# A new name when the worker's caching changes: the old copies are dropped on activation.
CACHE_NAME = "ddz-entry-v1"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (see the module)."""
    body = render_to_string(
        "games/sw.js", {"cache_name": CACHE_NAME, "static_url": settings.STATIC_URL}
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest (see the module)."""
    start = request.GET.get("start", "/")
    safe = (
        start.startswith("/")
        and not start.startswith("//")
        and url_has_allowed_host_and_scheme(start, allowed_hosts=None)
    )
    data = {
        "name": _("Duplicate Dou Dizhu · live entry"),
        "short_name": _("DDZ entry"),
        "start_url": start if safe else "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fafafa",
        "theme_color": "#8b1a1a",
        "icons": [
            {"src": static(f"games/icon-{n}.png"), "sizes": f"{n}x{n}", "type": "image/png"}
            for n in (192, 512)
        ],
    }
    return HttpResponse(
        json.dumps(data, ensure_ascii=False), content_type="application/manifest+json"
    )


# --- The live entry page's offline configuration ---------------------------------------


def words() -> dict[str, Any]:
    """What a referee may type, by the engine's word it stands for (see the module):
    ``{"calls": {typed: call}, "play_pass": [typed], "end": {typed: "claim"|"concede"}}``."""
    calls = dict(CALL_ALIASES)
    calls.update({w: "pass" for w in offline.BIDDING_PASS_WORDS})
    return {"calls": calls, "play_pass": list(offline.PLAY_PASS_WORDS), "end": dict(END_WORDS)}


def page_config() -> dict[str, Any]:
    """The live entry page's ``config.offline``: the service worker's URL, the referee's
    `words`, call labels and the page's sentences in the active language (games/static/games/
    offline.js reads them). ``waiting`` is the singular and plural of "N steps waiting"."""
    labels = ("pass", "call", "rob", "double", "redouble", "show", "surrender", "reveal")
    return {
        "sw": reverse("service_worker"),
        "words": words(),
        "labels": {**{c: call_label(c) for c in labels}, **{n: call_label(n) for n in "123"}},
        "messages": {
            # The page picks by n (1 or more): enough for English and Chinese.
            "waiting": [
                ngettext(
                    "Saved on this phone, %(n)s step waiting",
                    "Saved on this phone, %(n)s steps waiting",
                    n,
                )
                for n in (1, 2)
            ],
            "unverified": _("not checked yet: the server checks it when the network is back"),
            "offline": _("No network: the steps are saved on this phone and sent when it is back."),
            "submit_waiting": _("The game will be submitted as soon as the network is back."),
            "sending": _("Network back: sending the saved steps…"),
            "sent": _("The saved steps were sent and checked by the server."),
            "refused": _(
                "The server refused saved step %(n)s (%(step)s): %(message)s The steps after it "
                "were not sent: %(rest)s"
            ),
            "waiting_check": _("waiting for the network"),
            "cannot_call": _("%(seat)s may not %(cards)s now; allowed: %(allowed)s."),
            "not_held": _("%(seat)s does not hold %(cards)s (holds %(hand)s)."),
            "must_lead": _("%(seat)s leads this trick and must play cards: a pass is not allowed."),
            "not_legal": _("%(seat)s cannot play %(cards)s here."),
            "not_combination": _("%(cards)s is not a combination allowed by these rules."),
            "not_beat": _("%(cards)s does not beat %(last)s played by %(owner)s."),
            "not_reading": _("%(cards)s cannot be read that way."),
            "notation": _(
                "%(cards)s is not card notation: the character “%(char)s” at position "
                "%(position)s is not a card."
            ),
            "over": _("The game is over: no step may follow."),
            "needs_network": _("This step can only be checked with the network."),
            "undo_needs_network": _("Undoing a step the server checked needs the network."),
        },
    }
