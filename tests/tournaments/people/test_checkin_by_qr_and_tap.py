"""Check-in (tournaments.people.checkin and its pages): the QR code of an accepted
registration checks its player in for the next round, once (a second scan says so); another
event's code, a forged one, a registration not accepted or withdrawn are refused clearly; only
the event's organizers and referees check in (403 for anyone else); the list's tap checks in
and out; the player's registration page shows the QR code."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory
from tournaments.events import rounds
from tournaments.models import (
    Event,
    EventRole,
    EventStatus,
    Presence,
    Registration,
    Role,
    Round,
)
from tournaments.people import checkin
from tournaments.people import registration as reg

pytestmark = pytest.mark.django_db


def _user(name: str) -> Any:
    return get_user_model().objects.create_user(name, email=f"{name}@example.org", password="pw")


def _event(td: Any, **flags: Any) -> Event:
    event = EventFactory(status=EventStatus.ANNOUNCED, **flags)
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    reg.registration_open(event=event, actor=td)
    rounds.round_create(event=event, actor=td)
    return event


def _accepted(event: Event, td: Any, name: str) -> Registration:
    return reg.registration_add(event=event, actor=td, name=name, accept=True)


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _scan(client: Client, event: Event, token: object) -> Any:
    return client.get(reverse("registration:checkin_scan", args=[event.slug, str(token)]))


def test_a_scan_checks_the_player_in_for_the_next_round_once() -> None:
    td = _user("td")
    event = _event(td, check_in_required=True)
    ann = _accepted(event, td, "Ann")
    client = _client(td)
    first = _scan(client, event, ann.token)
    assert first.status_code == 200
    assert "Ann is checked in for round 1." in first.content.decode()
    again = _scan(client, event, ann.token)
    assert "was checked in for round 1 already" in again.content.decode()
    assert Presence.objects.filter(round__event=event, player__name="Ann").count() == 1


def test_a_referee_of_the_event_checks_in_and_a_stranger_gets_403() -> None:
    td = _user("td")
    event = _event(td)
    ann = _accepted(event, td, "Ann")
    referee = _user("ref")
    EventRole.objects.create(event=event, user=referee, role=Role.REFEREE)
    assert _scan(_client(_user("stranger")), event, ann.token).status_code == 403
    assert not Presence.objects.exists()
    assert _scan(_client(referee), event, ann.token).status_code == 200
    assert Presence.objects.count() == 1


@pytest.mark.parametrize(
    ("token", "says"),
    [("not-a-code", "not a check-in code"), (uuid.uuid4(), "belongs to no registration")],
)
def test_forged_codes_are_refused(token: object, says: str) -> None:
    td = _user("td")
    event = _event(td)
    answer = _scan(_client(td), event, token)
    assert answer.status_code == 409 and says in answer.content.decode()
    assert not Presence.objects.exists()


def test_another_events_code_is_refused_naming_it() -> None:
    td = _user("td")
    here, there = _event(td), _event(td)
    theirs = _accepted(there, td, "Bo")
    answer = _scan(_client(td), here, theirs.token)
    assert answer.status_code == 409
    assert f"another event ({there.name})" in answer.content.decode()
    assert not Presence.objects.exists()


def test_a_registration_not_accepted_or_withdrawn_is_not_checked_in() -> None:
    td = _user("td")
    event = _event(td)
    pending = reg.registration_add(event=event, actor=td, name="Pat")
    gone = _accepted(event, td, "Gus")
    reg.registration_withdraw(registration=gone, actor=td)
    for r in (pending, gone):
        with pytest.raises(checkin.CheckInRefused, match="not accepted"):
            checkin.checkin_by_token(event=event, token=str(r.token), actor=td)
    assert not Presence.objects.exists()


def test_a_late_entrant_is_not_checked_in_before_his_round() -> None:
    td = _user("td")
    event = _event(td)
    rounds.round_create(event=event, actor=td)
    late = _accepted(event, td, "Lu")
    checkin.entry_rounds_set(
        entry=late.player.entries.get(event=event), first_round=2, withdrawn_from=None, actor=td
    )
    with pytest.raises(checkin.CheckInRefused, match="enters from round 2"):
        checkin.checkin_by_token(event=event, token=str(late.token), actor=td)


def test_the_lists_tap_checks_in_and_out_and_the_search_finds_by_name() -> None:
    td = _user("td")
    event = _event(td, check_in_required=True)
    ann = _accepted(event, td, "Ann")
    _accepted(event, td, "Bo")
    client = _client(td)
    url = reverse("registration:checkin_tap", args=[event.slug, 1, ann.player_id])
    client.post(url, {"present": "1"})
    assert Presence.objects.filter(player_id=ann.player_id).exists()
    page = client.get(reverse("registration:checkin_list", args=[event.slug]), {"q": "an"})
    html = page.content.decode()
    assert page.status_code == 200 and "Ann" in html and "Bo" not in html
    client.post(url, {"present": "0"})
    assert not Presence.objects.exists()
    # A tap that changes nothing says so: it said "no longer checked in" of one who never
    # was (the third trial's finding).
    again = client.post(url, {"present": "0"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "Ann was not checked in for round 1." in again.content.decode()
    # A stranger's tap: 403, nothing written.
    assert _client(_user("x")).post(url, {"present": "1"}).status_code == 403
    assert not Presence.objects.exists()


def test_the_players_registration_page_shows_his_check_in_qr_code() -> None:
    td = _user("td")
    event = _event(td)
    user = _user("ann")
    r = reg.register(event=event, actor=user, name="Ann")
    client = _client(user)
    page = client.get(reverse("registration:mine", args=[event.slug]))
    assert "<svg" not in page.content.decode()  # pending: no code yet
    reg.registration_decide(registration=r, decision="accept", actor=td)
    page = client.get(reverse("registration:mine", args=[event.slug]))
    assert "<svg" in page.content.decode() and str(r.token) in page.content.decode()
    by_token = Client().get(reverse("registration:status", args=[event.slug, r.token]))
    assert by_token.status_code == 200 and "<svg" in by_token.content.decode()
    assert Round.objects.filter(event=event).count() == 1


def test_the_players_page_says_once_he_is_checked_in() -> None:
    # A trial's player, checked in at the venue, still read "show this code: it checks you in".
    td = _user("td")
    event = _event(td, check_in_required=True)
    user = _user("bee")
    r = reg.register(event=event, actor=user, name="Bee")
    reg.registration_decide(registration=r, decision="accept", actor=td)
    client = _client(user)
    before = client.get(reverse("registration:mine", args=[event.slug])).content.decode()
    assert "it checks you in for round 1" in before and "You are checked in" not in before
    assert _scan(_client(td), event, r.token).status_code == 200
    after = client.get(reverse("registration:mine", args=[event.slug])).content.decode()
    assert "You are checked in for round 1." in after
    assert "it checks you in for round 1" not in after
