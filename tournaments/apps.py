from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Django requires these here: the audit and the tasks import models, which need the
        # app registry ready; the tasks register what services send by name
        # (ddz_site.kernel.dispatch), and the signal is connected once.
        from django.db.models.signals import pre_save

        from tournaments import tasks  # noqa: F401
        from tournaments.core.audit import history_first_version

        pre_save.connect(history_first_version, dispatch_uid="tournaments.history_first_version")
