"""A visitor of an online event's page who signs up lands back on that page once his address
is confirmed and he is signed in: the ``next`` he came with is kept through the sign-up, the
confirmation link mailed to him (opened in the same browser, or in another one: his phone's
mail, a session long gone) and the sign-in. Only a ``next`` of the site itself: an outside
address is dropped on the way, and he lands on his events as anyone does.
"""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_event
from tournaments.models import OutgoingMail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

ADDRESS = "zoe.newcomer@example.org"
STRONG = "a-strong-password-42"


def _attributes(tag: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}


def _hidden_of(form: str) -> dict[str, str]:
    fields = [_attributes(tag) for tag in re.findall(r"<input[^>]*>", form)]
    return {f["name"]: f.get("value", "") for f in fields if f.get("type") == "hidden"}


def _form(page: str, form_id: str) -> tuple[str, dict[str, str]]:
    """The action and hidden fields of the form ``form_id`` of ``page``."""
    found = re.search(rf'<form[^>]*id="{form_id}"[^>]*>.*?</form>', page, re.S)
    assert found, page[:3000]
    return _attributes(found.group(0).split(">", 1)[0])["action"], _hidden_of(found.group(0))


def _confirm_form(page: str) -> tuple[str, dict[str, str]]:
    """The action and hidden fields of the form of ``page`` that confirms the address."""
    found = re.search(
        r'<form[^>]*action="/accounts/confirm-email/[^"]*"[^>]*>.*?</form>', page, re.S
    )
    assert found, page[:3000]
    return _attributes(found.group(0).split(">", 1)[0])["action"], _hidden_of(found.group(0))


def _link(mail: OutgoingMail) -> str:
    found = re.search(r"https?://[^\s/]+(/accounts/confirm-email/\S*)", mail.body)
    assert found, mail.body
    return found.group(1)


def _sign_up_from(page_url: str, visitor: Client) -> OutgoingMail:
    """Open ``page_url`` not signed in, follow it to the sign-in page, its "Sign up" link, and
    send the sign-up form as a browser does (its hidden fields with it)."""
    answer = visitor.get(page_url)
    if answer.status_code == 302:  # the online page asks to sign in first
        page = visitor.get(answer["Location"]).content.decode()
        link = re.search(r'href="([^"]+)" id="sign-up-link"', page)
    else:  # the header's link
        link = re.search(r'href="(/accounts/signup/[^"]*)"', answer.content.decode())
    assert link
    sign_up = html.unescape(link.group(1))
    action, hidden = _form(visitor.get(sign_up).content.decode(), "sign-up")
    answer = visitor.post(
        action, {**hidden, "email": ADDRESS, "password1": STRONG, "password2": STRONG}
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return OutgoingMail.objects.get(to=ADDRESS)


def _sign_in_where_sent(client: Client, location: str) -> str:
    """Sign in on the page ``location`` leads to (the sign-in form with its hidden ``next``);
    where the sign-in goes."""
    assert urlsplit(location).path == reverse("account_login"), location
    action, hidden = _form(client.get(location).content.decode(), "sign-in")
    answer = client.post(action, {**hidden, "login": ADDRESS, "password": STRONG})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return answer["Location"]


def _follow(client: Client, location: str) -> str:
    """Follow the redirects from ``location`` to a page; its address."""
    for _ in range(5):
        answer = client.get(location)
        if answer.status_code != 302:
            return location
        location = answer["Location"]
    raise AssertionError("too many redirects")


def test_confirming_in_another_browser_then_signing_in_lands_on_the_event() -> None:
    event, _organizer, _users = online_event(entrants=0, boards=1)
    here = reverse("online:home", args=[event.slug])
    mail = _sign_up_from(here, Client())
    # The link itself carries where he was going: the mail is read on another device.
    link = _link(mail)
    assert "next=" in link
    phone = Client()
    action, hidden = _confirm_form(phone.get(link).content.decode())
    confirmed = phone.post(action, hidden)
    assert confirmed.status_code == 302
    # Not signed in on the phone: the sign-in page, and from it the event's online page.
    landed = _sign_in_where_sent(phone, _follow(phone, confirmed["Location"]))
    assert landed == here
    assert phone.get(landed).status_code == 200


def test_confirming_in_the_same_browser_signs_in_and_lands_on_the_event() -> None:
    event, _organizer, _users = online_event(entrants=0, boards=1)
    here = reverse("online:home", args=[event.slug])
    visitor = Client()
    mail = _sign_up_from(here, visitor)
    action, hidden = _confirm_form(visitor.get(_link(mail)).content.decode())
    confirmed = visitor.post(action, hidden)
    assert confirmed.status_code == 302 and confirmed["Location"] == here
    assert "_auth_user_id" in visitor.session


def test_the_event_page_is_where_a_visitor_of_it_lands_after_confirming() -> None:
    event, _organizer, _users = online_event(entrants=0, boards=1)
    here = event.get_absolute_url()
    mail = _sign_up_from(here, Client())
    phone = Client()
    confirmed = phone.post(_link(mail))
    assert _sign_in_where_sent(phone, _follow(phone, confirmed["Location"])) == here


@pytest.mark.parametrize("outside", ["https://evil.example/", "//evil.example/online/"])
def test_an_outside_next_is_dropped_on_the_way(outside: str) -> None:
    visitor = Client()
    sign_up = reverse("account_signup") + "?next=" + outside
    answer = visitor.post(
        sign_up, {"email": ADDRESS, "password1": STRONG, "password2": STRONG, "next": outside}
    )
    assert answer.status_code == 302
    link = _link(OutgoingMail.objects.get(to=ADDRESS))
    assert "evil" not in link
    phone = Client()
    confirmed = phone.post(link)
    assert "evil" not in confirmed["Location"]
    landed = _sign_in_where_sent(phone, _follow(phone, confirmed["Location"]))
    assert landed == reverse("organizer:home")


def test_a_forged_outside_next_on_the_link_is_ignored() -> None:
    visitor = Client()
    visitor.post(
        reverse("account_signup"), {"email": ADDRESS, "password1": STRONG, "password2": STRONG}
    )
    link = _link(OutgoingMail.objects.get(to=ADDRESS)).split("?", 1)[0]
    confirmed = Client().post(link + "?next=https://evil.example/")
    assert confirmed.status_code == 302 and "evil" not in confirmed["Location"]
    assert parse_qs(urlsplit(confirmed["Location"]).query).get("next", [""])[0] == ""
