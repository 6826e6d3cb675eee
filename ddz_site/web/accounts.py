"""The site's accounts through django-allauth: the one sign-in page (SignInView) and the account
adapter (AccountAdapter, settings.ACCOUNT_ADAPTER).

- *Sign-in*: a player signs in with the e-mail address he signed up with, an official
  (organizer, referee: accounts made by an administrator) with his user name; one form takes
  both. Wrong passwords are counted by django-axes alone (settings: per account and address).
- *Confirmation*: an address given at sign-up is confirmed by the link mailed to it before the
  account signs in (ACCOUNT_EMAIL_VERIFICATION "mandatory"); an account with no address on
  record (an official's) has nothing to confirm and signs in at once
  (ddz_site.web.account_stages).
- *Where he was going*: the ``next`` a visitor signs up (or signs in unconfirmed) with is
  carried by the confirmation link, as the sign-in page's own ``next``
  (AccountAdapter.get_email_confirmation_url): the link opened in the same browser signs him in
  and goes there (django-allauth's pending login keeps it), opened anywhere else it asks him to
  sign in and then goes there. Only a ``next`` of the site (the adapter's is_safe_url).
- *Mail*: every mail of django-allauth (confirmation, password reset, "account already exists")
  is one row of the site's outbox (tournaments.core.mail.queue), sent by the workers, never by
  the request that asked for it.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.account.forms import AddEmailForm, LoginForm, SignupForm
from allauth.account.utils import get_next_redirect_url
from allauth.account.views import LoginView
from allauth.core import context
from django import forms
from django.conf import settings
from django.core.validators import MaxLengthValidator, ProhibitNullCharactersValidator
from django.http import HttpRequest
from django.shortcuts import resolve_url
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ddz_site.kernel.text import text_refusal
from ddz_site.web.security import client_address
from tournaments.core import mail

# How many sign-in pages wrapped in one another's ``next`` are unwrapped before giving up.
_NEXT_DEPTH = 5

_CONFIRM_STAGE = "allauth.account.stages.EmailVerificationStage"
# The longest e-mail address (RFC 5321's path limit, less its brackets): django-allauth's
# EmailAddress and Django's User keep no more.
ADDRESS_MAX_LENGTH = 254
_NAME_MISMATCH = _("Your user name and password did not match. Please try again.")


def _site_text(value: Any) -> None:
    unfit = text_refusal(str(value))
    if unfit is not None:
        raise forms.ValidationError(unfit[1], code=unfit[0])


def _typed(field: forms.Field) -> None:
    """The site's rule of typed text on ``field`` (ddz_site.kernel.text), in place of
    Django's refusal of NUL (whose Chinese says "empty strings")."""
    field.validators = [_site_text] + [
        v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)
    ]


@dataclass(frozen=True)
class SiteName:
    """What allauth's mail templates read of "the current site": its name and domain."""

    name: str
    domain: str


class SignInForm(LoginForm):
    """django-allauth's sign-in form (ACCOUNT_FORMS "login"), its name or address under the
    site's rule of typed text."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _typed(self.fields["login"])


def _address(field: forms.Field) -> None:
    """An e-mail address field at most ADDRESS_MAX_LENGTH long, as the database keeps it: a
    longer one was cut there, so that the confirmation went to no address and the account
    signed in unconfirmed."""
    field.max_length = ADDRESS_MAX_LENGTH  # type: ignore[attr-defined]
    field.validators.append(MaxLengthValidator(ADDRESS_MAX_LENGTH))
    field.widget.attrs["maxlength"] = str(ADDRESS_MAX_LENGTH)


class SignUpForm(SignupForm):
    """django-allauth's sign-up form (ACCOUNT_FORMS "signup"), its address under the site's
    rule of typed text and at most ADDRESS_MAX_LENGTH long; the password under
    AUTH_PASSWORD_VALIDATORS as everywhere."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _typed(self.fields["email"])
        _address(self.fields["email"])


class AddAddressForm(AddEmailForm):
    """django-allauth's form adding an address to an account (ACCOUNT_FORMS "add_email"),
    under the same rules as the sign-up's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _typed(self.fields["email"])
        _address(self.fields["email"])


class AccountAdapter(DefaultAccountAdapter):
    """django-allauth's adapter for the site: mails into the outbox, the client's address as
    django-axes and the API's throttles see it, the site's own refusals of a wrong password."""

    error_messages = {
        **DefaultAccountAdapter.error_messages,
        "username_password_mismatch": _NAME_MISMATCH,
        "email_password_mismatch": _(
            "Your e-mail address and password did not match. Please try again."
        ),
    }

    def send_mail(self, template_prefix: str, email: str, context_: dict[str, Any]) -> None:
        """Render django-allauth's mail ``template_prefix`` (its ``_subject.txt`` and
        ``_message.txt``) in the reader's language and queue it to ``email`` under a key of
        its own (``account:<template>:<uuid4>``: each sending is a new message; a second
        confirmation mail asked for is sent too)."""
        request = context.request
        ctx = {"request": request, "email": email}
        ctx.update(context_)
        # allauth greets from "the current site", else the request's host name: the site's own
        # name and address instead (DDZ_SITE_URL), in the mail's language.
        ctx["current_site"] = SiteName(
            name=gettext("Duplicate Dou Dizhu"), domain=settings.DDZ_SITE_URL.split("://", 1)[-1]
        )
        message = self.render_mail(template_prefix, email, ctx)
        name = template_prefix.rsplit("/", 1)[-1]
        mail.queue(
            key=f"account:{name}:{uuid.uuid4()}",
            to=email,
            subject=str(message.subject),
            body=str(message.body),
        )

    def get_email_confirmation_url(self, request: HttpRequest, emailconfirmation: Any) -> str:
        """The address of ``emailconfirmation``'s link; with the request's safe ``next`` (the
        sign-up or sign-in form's), ``?next=`` the sign-in page on to it.

        The pending sign-in that brings a visitor to his ``next`` lives in one browser's
        session for a few minutes (ACCOUNT_LOGIN_TIMEOUT); the mail is often read on another
        device or later. There django-allauth sends him after confirming to the link's
        ``next`` (ConfirmEmailView), so the link names the sign-in page, which sends him on to
        where he was going once he is signed in (SignInView unwraps it, at once if he is).
        """
        url = super().get_email_confirmation_url(request, emailconfirmation)
        going = get_next_redirect_url(request) if request is not None else None
        if not going:
            return url
        sign_in = reverse("account_login")
        if urlsplit(going).path != sign_in:
            going = f"{sign_in}?{urlencode({'next': going})}"
        return f"{url}?{urlencode({'next': going})}"

    def get_client_ip(self, request: HttpRequest) -> str:
        # The address django-axes and the API's throttles count (ddz_site.web.security), so
        # that behind DDZ_TRUSTED_PROXIES every client is not the proxy.
        return client_address(request) or request.META.get("REMOTE_ADDR") or "0.0.0.0"

    def get_login_stages(self) -> list[str]:
        # The confirmation of the address, skipped by accounts that have none on record.
        ours = "ddz_site.web.account_stages.AddressConfirmationStage"
        return [ours if stage == _CONFIRM_STAGE else stage for stage in super().get_login_stages()]


class SignInView(LoginView):
    """The one sign-in page (settings.LOGIN_URL, django-allauth's at /accounts/login/). A
    signed-in user opening it is sent on to ``next`` (or his events); a ``next`` that is the
    sign-in page itself is unwrapped to its own ``next`` (or dropped), so nobody lands on the
    sign-in form again once signed in. The page's ``next`` is in its context as ``next``
    (templates/_account.html keeps it on the header's links)."""

    def get_next_url(self) -> str | None:
        url = super().get_next_url()
        sign_in = reverse("account_login")
        adapter = get_adapter(self.request)
        for _depth in range(_NEXT_DEPTH):
            if not url:
                return None
            parts = urlsplit(url)
            if parts.path != sign_in:
                return url
            url = parse_qs(parts.query).get(self.redirect_field_name, [""])[0]
            if url and not adapter.is_safe_url(url):
                return None
        return None

    def get_default_success_url(self) -> str:
        # Never None: django-allauth would fall back to the raw ``next``, the sign-in page.
        return resolve_url(settings.LOGIN_REDIRECT_URL)

    def get_authenticated_redirect_url(self) -> str:
        return self.get_next_url() or self.get_default_success_url()

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        data = super().get_context_data(**kwargs)
        data["next"] = self.get_next_url() or ""
        return data
