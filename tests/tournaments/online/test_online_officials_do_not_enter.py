"""An official of an online robot duplicate (its organizer, a chief referee, a referee; a
superuser counts as organizer of every event) may see its boards' hands before the entrants
play them (the organizer's hand records, the travellers), so he neither enters it nor plays
its boards: the service refuses
him, saying why, and changes nothing; his online page offers him no "Enter", and says why
instead. Anyone else enters as before.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import online_event
from tournaments.models import AuditEntry, Entry, EventRole, Player, Role, Table
from tournaments.online.entry import online_enter
from tournaments.online.play import online_board_start
from tournaments.online.window import OnlineRefused

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

OFFICIALS = [Role.ORGANIZER, Role.CHIEF_REFEREE, Role.REFEREE, "superuser"]


def _official(event, role: str):
    users = get_user_model().objects
    if role == "superuser":
        return users.create_superuser("root", "root@example.org", "pw")
    user = users.create_user(f"official-{role}", f"{role}@example.org", "pw")
    EventRole.objects.create(event=event, user=user, role=role)
    return user


def _client(user) -> Client:
    client = Client(headers={"accept-language": "en"})
    client.force_login(user)
    return client


@pytest.mark.parametrize("role", OFFICIALS)
def test_an_official_is_refused_entry_and_told_why(role: str) -> None:
    event, _organizer, _users = online_event(entrants=0, boards=1)
    official = _official(event, role)
    with pytest.raises(OnlineRefused, match="hands before the entrants play them"):
        online_enter(event=event, user=official)
    answer = _client(official).post(reverse("online:enter", args=[event.slug]), follow=True)
    assert "hands before the entrants play them" in answer.content.decode()
    assert not Player.objects.filter(user=official).exists()
    assert not Entry.objects.filter(event=event, player__robot=False).exists()
    assert not AuditEntry.objects.filter(action="online.enter").exists()


def test_the_organizers_page_offers_no_enter_and_says_why() -> None:
    event, organizer, _users = online_event(entrants=0, boards=1)
    page = _client(organizer).get(reverse("online:home", args=[event.slug])).content.decode()
    assert 'id="online-enter"' not in page
    assert 'id="online-enter-refusal"' in page and "hands before the entrants play them" in page
    # Anyone else is offered it.
    someone = get_user_model().objects.create_user("someone", "someone@example.org", "pw")
    page = _client(someone).get(reverse("online:home", args=[event.slug])).content.decode()
    assert 'id="online-enter"' in page and "before the entrants play them" not in page


def test_an_entrant_made_an_official_plays_no_board() -> None:
    event, _organizer, (ann,) = online_event(entrants=1, boards=1)
    EventRole.objects.create(event=event, user=ann, role=Role.REFEREE)
    with pytest.raises(OnlineRefused, match="hands before the entrants play them"):
        online_board_start(event=event, user=ann, number=1)
    assert not Table.objects.filter(round__event=event).exists()
    page = _client(ann).get(reverse("online:home", args=[event.slug])).content.decode()
    assert "Play board 1" not in page and "hands before the entrants play them" in page


def test_anyone_else_still_enters() -> None:
    event, _organizer, _users = online_event(entrants=0, boards=1)
    someone = get_user_model().objects.create_user("someone", "someone@example.org", "pw")
    player = online_enter(event=event, user=someone)
    assert Entry.objects.filter(event=event, player=player).exists()
