from __future__ import annotations

from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ddz_site.web.visitors import forget_identity


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Django requires these here: the audit and the tasks import models, which need the
        # app registry ready; the tasks register what services send by name
        # (ddz_site.kernel.dispatch), and the signal is connected once.
        from django.db.models.signals import post_delete, post_save, pre_save

        from tournaments import tasks  # noqa: F401
        from tournaments.core.audit import history_first_version

        pre_save.connect(history_first_version, dispatch_uid="tournaments.history_first_version")
        # The standings page's copy of a visitor's identity goes with any change of his
        # account, whichever process makes it (ddz_site.web.visitors).
        user_model = get_user_model()
        for signal in (post_save, post_delete):
            signal.connect(
                forget_identity, sender=user_model, dispatch_uid="visitors.forget_identity"
            )
