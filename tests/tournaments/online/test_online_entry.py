"""An account enters an online robot duplicate itself, at once, until the window closes: one
entry per account (its own player, made when it has none), the event's places counting the
entrants and never its robots; an entrant then starts his boards."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.models import AuditEntry, Entry, Event, Player
from tournaments.online.entry import online_enter
from tournaments.online.play import entrant_of
from tournaments.online.window import OnlineRefused

pytestmark = pytest.mark.django_db


def _account(name: str):
    return get_user_model().objects.create_user(name, email=f"{name}@example.com", password="pw")


def test_an_account_enters_once_and_plays() -> None:
    event, _td, _users = online_event(entrants=0, boards=1)
    mia = _account("mia")
    player = online_enter(event=event, user=mia)
    assert player.user == mia and player.name == "mia" and not player.robot
    assert online_enter(event=event, user=mia) == player  # one entry per account
    assert Entry.objects.filter(event=event, player=player).count() == 1
    assert entrant_of(event, mia) == player
    assert AuditEntry.objects.filter(event=event, action="online.enter").count() == 1
    game = online_board_play(event, mia, 1)
    assert game.table.seats.get(player=player)


def test_the_player_tied_to_the_account_is_the_one_entered() -> None:
    event, _td, _users = online_event(entrants=0, boards=1)
    ann = _account("ann")
    known = Player.objects.create(name="Ann Li", user=ann)
    assert online_enter(event=event, user=ann) == known


def test_the_places_count_entrants_and_never_the_robots() -> None:
    event, _td, (first,) = online_event(entrants=1, boards=1)
    online_board_play(event, first, 1)  # the robots are entered now too
    Event.objects.filter(pk=event.pk).update(registration_limit=2)
    event.refresh_from_db()
    online_enter(event=event, user=_account("bo"))  # the second place
    with pytest.raises(OnlineRefused, match="All 2 places"):
        online_enter(event=event, user=_account("cy"))


def test_no_entry_once_the_window_closed_nor_for_a_withdrawn_entrant() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    with pytest.raises(OnlineRefused, match="has closed"):
        online_enter(event=event, user=_account("late"), now=event.ends_at + timedelta(seconds=1))
    Entry.objects.filter(event=event, player__user=ann).update(withdrawn_from=1)
    with pytest.raises(OnlineRefused, match="withdrew"):
        online_enter(event=event, user=ann)


def test_the_page_enters_a_signed_in_account() -> None:
    event, _td, _users = online_event(entrants=0, boards=2)
    client = Client()
    client.force_login(_account("dee"))
    page = client.get(reverse("online:home", args=[event.slug]))
    assert b'id="online-enter"' in page.content and b"Play board 1" not in page.content
    done = client.post(reverse("online:enter", args=[event.slug]), follow=True)
    assert b"You are entered in" in done.content
    assert b"Play board 1" in done.content and b"Play board 2" in done.content
    # Anonymous: asked to sign in first.
    anonymous = Client().get(reverse("online:home", args=[event.slug]))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
