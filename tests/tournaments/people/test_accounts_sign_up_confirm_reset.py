"""Accounts of players (django-allauth through ddz_site.web.accounts): a player signs up with
an e-mail address, the confirmation mail is queued in the site's outbox (OutgoingMail) and its
link confirms the address before the account signs in; officials still sign in with their user
names; django-axes still locks an account out, by address too; the password reset mail is
queued and its link sets a new password; sign-up refuses by the site's rules.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.models import OutgoingMail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ADDRESS = "ann.player@example.org"
STRONG = "a-strong-password-42"
HERE = "203.0.113.7"  # documentation address (RFC 5737)


def _link(mail: OutgoingMail, path: str) -> str:
    """The path of the first link to ``path…`` in ``mail``'s body."""
    found = re.search(r"https?://[^\s/]+(" + re.escape(path) + r"\S*)", mail.body)
    assert found, mail.body
    return found.group(1)


def _sign_up(client: Client, address: str = ADDRESS, *, next_: str = "") -> OutgoingMail:
    url = reverse("account_signup") + (f"?next={next_}" if next_ else "")
    data = {"email": address, "password1": STRONG, "password2": STRONG}
    if next_:
        data["next"] = next_
    answer = client.post(url, data)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert answer["Location"] == reverse("account_email_verification_sent")
    return OutgoingMail.objects.get(to=address)


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_sign_up_queues_the_confirmation_whose_link_confirms_then_signing_in_works() -> None:
    visitor = Client()
    mail = _sign_up(visitor)
    # Queued in the outbox for the workers, not sent by the request; nobody signed in yet.
    assert mail.state == "pending" and mail.key.startswith("account:email_confirmation_signup:")
    assert not _signed_in(visitor)
    account = get_user_model().objects.get(emailaddress__email=ADDRESS)
    assert not EmailAddress.objects.get(user=account).verified
    # Before the confirmation the address does not sign in.
    early = Client().post(reverse("account_login"), {"login": ADDRESS, "password": STRONG})
    assert early.status_code == 302 and early["Location"] != reverse("organizer:home")
    # The link, opened in another browser: a page that asks, then the POST confirms.
    link = _link(mail, "/accounts/confirm-email/")
    other = Client()
    assert other.get(link).status_code == 200
    assert other.post(link).status_code == 302
    assert EmailAddress.objects.get(user=account).verified
    later = Client()
    answer = later.post(reverse("account_login"), {"login": ADDRESS, "password": STRONG})
    assert answer.status_code == 302 and answer["Location"] == reverse("organizer:home")
    assert _signed_in(later)


def test_confirming_in_the_same_browser_signs_in_and_goes_to_next() -> None:
    visitor = Client()
    mail = _sign_up(visitor, next_=reverse("accounts:me"))
    answer = visitor.post(_link(mail, "/accounts/confirm-email/"))
    assert answer.status_code == 302 and answer["Location"] == reverse("accounts:me")
    assert _signed_in(visitor)
    assert visitor.get(reverse("accounts:me")).status_code == 200


def test_an_official_still_signs_in_with_his_user_name() -> None:
    get_user_model().objects.create_user("referee-kim", password=STRONG, email="kim@example.org")
    client = Client()
    answer = client.post(reverse("account_login"), {"login": "referee-kim", "password": STRONG})
    # No address of his to confirm: signed in at once, and no mail.
    assert answer.status_code == 302 and answer["Location"] == reverse("organizer:home")
    assert _signed_in(client)
    assert not OutgoingMail.objects.exists()


def test_axes_locks_out_a_player_who_signs_in_by_address() -> None:
    mail = _sign_up(Client())
    Client().post(_link(mail, "/accounts/confirm-email/"))
    limit = settings.AXES_FAILURE_LIMIT

    def attempt(password: str):
        return Client().post(
            reverse("account_login"), {"login": ADDRESS, "password": password}, REMOTE_ADDR=HERE
        )

    for _ in range(limit - 1):
        wrong = attempt("wrong")
        assert wrong.status_code == 200 and "did not match" in wrong.content.decode()
    assert attempt("wrong").status_code == 429
    locked = attempt(STRONG)
    assert locked.status_code == 429 and "Too many failed sign-ins" in locked.content.decode()


def test_the_password_reset_mail_is_queued_and_its_link_sets_a_new_password() -> None:
    mail = _sign_up(Client())
    Client().post(_link(mail, "/accounts/confirm-email/"))
    answer = Client().post(reverse("account_reset_password"), {"email": ADDRESS})
    assert answer.status_code == 302
    reset = OutgoingMail.objects.get(to=ADDRESS, key__startswith="account:password_reset_key:")
    client = Client()
    opened = client.get(_link(reset, "/accounts/password/reset/key/"))
    # django-allauth keeps the key in the session and shows the form at a keyless address.
    assert opened.status_code == 302
    form = urlsplit(opened["Location"]).path
    new = "another-strong-password-7"
    done = client.post(form, {"password1": new, "password2": new})
    assert done.status_code == 302
    again = Client().post(reverse("account_login"), {"login": ADDRESS, "password": new})
    assert again.status_code == 302 and again["Location"] == reverse("organizer:home")


def test_sign_up_refuses_by_the_sites_rules_and_writes_nothing() -> None:
    short = Client().post(
        reverse("account_signup"), {"email": ADDRESS, "password1": "Zq7", "password2": "Zq7"}
    )
    assert short.status_code == 200
    assert "This password is too short: it must have at least 8" in short.content.decode()
    nul = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").post(
        reverse("account_signup"),
        {"email": "a\x00b@example.org", "password1": STRONG, "password2": STRONG},
    )
    assert nul.status_code == 200
    assert "不允许是用空字符串" not in nul.content.decode()
    assert not get_user_model().objects.exists() and not OutgoingMail.objects.exists()


def test_every_page_offers_sign_up_beside_sign_in() -> None:
    page = Client().get("/").content.decode()
    header = page[page.index('id="account"') : page.index("</header>")]
    assert "/accounts/login/?next=/" in header and "/accounts/signup/?next=/" in header
    for url in (reverse("account_login"), reverse("account_signup")):
        answer = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(url)
        assert answer.status_code == 200 and "<header>" in answer.content.decode()


def test_the_account_mails_name_the_site_not_the_host_they_were_asked_from() -> None:
    """allauth greets "Hello from <site name>!": the site's own name and address, not the
    host name of the request (a trial read "Hello from 127.0.0.1:8765!")."""
    from django.conf import settings

    with translation.override("en"):
        mail = _sign_up(Client())
    assert mail.body.startswith("Hello from Duplicate Dou Dizhu!")
    assert "Hello from testserver" not in mail.body
    # Signed with the site's name and address (its link still goes where it was asked from).
    assert mail.body.rstrip().endswith(settings.DDZ_SITE_URL.split("://", 1)[1])


@pytest.mark.parametrize("local", [300, 250])
def test_an_address_too_long_for_the_database_is_refused_not_cut(local: int) -> None:
    """An address longer than an e-mail address can be (254 characters, RFC 5321) was taken:
    stored cut to 254, no confirmation mail sent to the cut one, and the account signed in
    without ever confirming (the trial's finding). It is refused on the form, nothing made."""
    address = "a" * local + "@x.com"
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en")
    answer = visitor.post(
        reverse("account_signup"), {"email": address, "password1": STRONG, "password2": STRONG}
    )
    assert answer.status_code == 200
    assert "email" in answer.context["form"].errors
    assert not _signed_in(visitor)
    assert not get_user_model().objects.exists() and not EmailAddress.objects.exists()
    assert not OutgoingMail.objects.exists()


def test_an_address_too_long_is_refused_when_added_to_an_account() -> None:
    account = get_user_model().objects.create_user("long-address", password=STRONG)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(account)
    answer = client.post(
        reverse("account_email"), {"action_add": "", "email": "b" * 300 + "@x.com"}
    )
    assert answer.status_code == 200 and "email" in answer.context["form"].errors
    assert not EmailAddress.objects.exists()


def test_the_sign_up_page_promises_only_the_name_change_the_account_page_offers() -> None:
    # A trial's new account looked for the name the sign-up page said it could change on
    # the account page: that page offers it only once the account is tied to a player.
    page = Client().get(reverse("account_signup")).content.decode()
    assert "which you can change on your account page" not in page
    assert "once your account is tied to a player" in page
    user = get_user_model().objects.create_user("fresh-signup", password="pw")
    client = Client()
    client.force_login(user)
    me = client.get(reverse("accounts:me")).content.decode()
    assert 'id="public-name"' not in me and "not tied to a player yet" in me
