from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from django.db.models.signals import pre_save

        from tournaments.audit import history_first_version

        pre_save.connect(history_first_version, dispatch_uid="tournaments.history_first_version")
