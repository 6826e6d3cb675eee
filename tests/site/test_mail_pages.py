"""The pages of the site's e-mail: the organizer writes to every player of his event (the page
says how many it reaches; the same form sent twice at once, as a double click or a hostile
client would, sends each player one message, audited once; anyone else is refused 403); an
unsubscribe link's page changes nothing until its button is pressed; a player's private link
page turns his e-mail off and on.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.conftest import Worker, race, wait_for
from tests.factories import EventFactory, PlayerFactory
from tests.smtp_server import SmtpSink, body_of
from tournaments.core import mail
from tournaments.links import tokens
from tournaments.models import (
    AuditEntry,
    Entry,
    EventRole,
    MailState,
    OutgoingMail,
    Player,
    Role,
)


def _event_with_players(slug: str):
    """An event of five players: three with an address, one who turned e-mail off, one with
    no address; its organizer and a referee."""
    event = EventFactory(slug=slug, name=f"Cup {slug}")
    players = [
        PlayerFactory(email=f"{slug}-{n}@example.org", mail_off=(n == 3)) for n in range(4)
    ] + [PlayerFactory(email="")]
    for player in players:
        Entry.objects.create(event=event, player=player)
    users = {}
    for name, role in (("td", Role.ORGANIZER), ("ref", Role.REFEREE)):
        users[name] = get_user_model().objects.create_user(f"{name}-{slug}", password="pw")
        EventRole.objects.create(event=event, user=users[name], role=role)
    return event, players, users


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _nonce(html: str) -> str:
    found = re.search(r'name="nonce" value="([^"]+)"', html)
    assert found, "the form carries its nonce"
    return found.group(1)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_message_to_every_player_sent_twice_at_once_arrives_once(
    celery_worker: Worker, smtp_server: SmtpSink
) -> None:
    event, players, users = _event_with_players("broadcast-twice")
    url = reverse("mail:broadcast", kwargs={"slug": event.slug})
    page = _client(users["td"]).get(url)
    assert page.status_code == 200
    html = page.content.decode()
    # Reached: an address and e-mail not turned off.
    reached = [p for p in players if p.email and not p.mail_off]
    assert f"This message will reach {len(reached)} players" in html
    form = {"subject": "Parking", "body": "Park behind the hall.", "nonce": _nonce(html)}

    answers = race(2, lambda: _client(users["td"]).post(url, form).status_code)
    assert answers == [302, 302]
    wait_for(
        lambda: (
            OutgoingMail.objects.filter(event=event, state=MailState.SENT).count() == len(reached)
        ),
        what="every player's message sent",
    )
    celery_worker.drain()
    for player in reached:
        (got,) = smtp_server.to(player.email)
        assert str(got["Subject"]) == f"{event.name}: Parking"
        assert "Park behind the hall." in body_of(got)
        assert mail.unsubscribe_url(player.email) in body_of(got)
    for player in players:
        if player not in reached and player.email:
            assert smtp_server.to(player.email) == []
    assert AuditEntry.objects.filter(event=event, action="mail.broadcast").count() == 1

    # The same form once more, later (a reload): nothing more.
    again = _client(users["td"]).post(url, form, follow=True)
    assert "This message was sent already" in again.content.decode()
    assert OutgoingMail.objects.filter(event=event).count() == len(reached)


@pytest.mark.django_db
def test_only_the_organizers_write_to_the_players() -> None:
    event, _players, users = _event_with_players("broadcast-refused")
    url = reverse("mail:broadcast", kwargs={"slug": event.slug})
    form = {"subject": "Free drinks", "body": "Not from the organizer.", "nonce": "a" * 20}
    referee = _client(users["ref"])
    assert referee.get(url).status_code == 403
    assert referee.post(url, form).status_code == 403
    anonymous = Client().post(url, form)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert not OutgoingMail.objects.exists()
    assert not AuditEntry.objects.filter(action="mail.broadcast").exists()


@pytest.mark.django_db
def test_a_message_without_subject_or_from_a_stale_form_is_refused() -> None:
    event, _players, users = _event_with_players("broadcast-bad")
    url = reverse("mail:broadcast", kwargs={"slug": event.slug})
    organizer = _client(users["td"])
    assert organizer.post(url, {"subject": "", "body": "x", "nonce": "a" * 20}).status_code == 400
    assert organizer.post(url, {"subject": "s", "body": "x", "nonce": "<>"}).status_code == 400
    assert not OutgoingMail.objects.exists()


@pytest.mark.django_db
def test_a_message_that_reaches_no_one_is_refused_and_one_player_is_one() -> None:
    # A trial wrote to an event whose players had no address: "This message was sent
    # already: nothing more sent", with a fresh form. And "on its way to 1 players".
    event = EventFactory(slug="broadcast-none", name="Cup none")
    Entry.objects.create(event=event, player=PlayerFactory(email=""))
    td = get_user_model().objects.create_user("td-broadcast-none", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    url = reverse("mail:broadcast", kwargs={"slug": event.slug})
    organizer = _client(td)
    form = {
        "subject": "Hello",
        "body": "Anyone?",
        "nonce": _nonce(organizer.get(url).content.decode()),
    }
    answer = organizer.post(url, form)
    assert answer.status_code == 400
    said = answer.content.decode()
    assert "No player of this event has an e-mail address to write to" in said
    assert "sent already" not in said and not OutgoingMail.objects.exists()
    Entry.objects.create(event=event, player=PlayerFactory(email="one@example.org"))
    form["nonce"] = _nonce(organizer.get(url).content.decode())
    sent = organizer.post(url, form, follow=True).content.decode()
    assert "Your message is on its way to 1 player." in sent


@pytest.mark.django_db
def test_the_unsubscribe_page_turns_mail_off_only_with_its_button() -> None:
    _event, players, _users = _event_with_players("unsubscribe")
    player = players[0]
    url = reverse("mail:off", kwargs={"token": mail.unsubscribe_token(player.email)})
    client = Client()
    page = client.get(url)
    assert page.status_code == 200 and 'id="mail-off"' in page.content.decode()
    assert not Player.objects.get(pk=player.pk).mail_off  # opening the link changes nothing
    client.post(url, {"off": "1"})
    assert Player.objects.get(pk=player.pk).mail_off
    assert AuditEntry.objects.filter(action="player.mail", object_id=str(player.pk)).count() == 1
    assert 'id="mail-on"' in client.get(url).content.decode()
    client.post(url, {"off": "0"})
    assert not Player.objects.get(pk=player.pk).mail_off
    # A token altered by one character opens nothing.
    assert client.get(url[:-3] + "x/").status_code == 404


@pytest.mark.django_db
def test_the_private_link_page_switches_the_players_mail() -> None:
    event, players, users = _event_with_players("link-switch")
    player = players[0]
    (made,) = tokens.player_links_make(event=event, actor=users["td"], players=[player])
    token = made.url.strip("/").split("/")[1]
    client = Client()
    page = client.get(made.url).content.decode()
    assert "Send me e-mail about this event's rounds" in page
    assert 'id="mail-switch" checked' in page
    switch = reverse("mail:link", kwargs={"token": token})
    assert client.post(switch, {"mail": "0"}).status_code == 302
    assert Player.objects.get(pk=player.pk).mail_off
    entry = AuditEntry.objects.get(action="player.mail", object_id=str(player.pk))
    assert entry.event == event and entry.changes["via"]["link"] == "player"
    assert 'id="mail-switch" checked' not in client.get(made.url).content.decode()
    client.post(switch, {"mail": "1"})
    assert not Player.objects.get(pk=player.pk).mail_off
    assert client.get(switch).status_code == 405  # no change by GET
    assert client.post(reverse("mail:link", kwargs={"token": "x" * 43})).status_code == 404
