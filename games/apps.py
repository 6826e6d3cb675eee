from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Django requires it here: the tasks import the services and models, which need the
        # app registry ready. Registers the tasks that services send by name (ddz_site.dispatch).
        from games import tasks  # noqa: F401
