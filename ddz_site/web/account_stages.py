"""django-allauth's login stage of the site (AccountAdapter.get_login_stages names it by its
path): a module of its own, loaded by django-allauth once its own modules are, since
allauth.account.stages cannot be the first of them imported (their import cycle)."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from allauth.account.stages import EmailVerificationStage
from django.http import HttpResponse


class AddressConfirmationStage(EmailVerificationStage):
    """django-allauth's mandatory confirmation of the address, for accounts that have one on
    record (EmailAddress: every account made by signing up). An account made by an
    administrator for an official has none and signs in with his user name at once: there is
    nothing to confirm, and refusing him would lock every organizer out."""

    def handle(self) -> tuple[HttpResponse | None, bool]:
        user = self.login.user
        if user is not None and not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True
        response, cont = super().handle()
        return response, cont
