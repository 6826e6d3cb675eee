"""The live entry as an installable web app (issue 12, offline entry): its service worker and
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

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

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
