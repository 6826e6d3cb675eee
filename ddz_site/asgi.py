"""ASGI entry point: the site's pages (Django) and the live tables' WebSockets (Channels).

Run it with an ASGI server: ``daphne ddz_site.asgi:application`` (or ``manage.py runserver``,
which is Daphne's too). WebSocket connections are accepted only from the site's own hosts
(ALLOWED_HOSTS, the Origin header), so another site's page cannot open a table's socket with a
visitor's cookies.
"""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ddz_site.settings")
# Django first: the consumers' imports need the app registry ready.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from tournaments.web.live_socket import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        # The session's user, for the signed-in referee device (links need none).
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
