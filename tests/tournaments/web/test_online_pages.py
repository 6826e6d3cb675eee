"""The pages of online play: the organizer makes an event online against robots on the event's
date-and-place form and deals its boards; an entrant's page shows the window in the event's
zone, his boards and a button to play each, and a start outside the window says why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, online_board_play, online_event
from tournaments.models import Event, EventRole, EventStatus, Role

pytestmark = pytest.mark.django_db


def test_the_organizer_makes_the_event_online_against_robots_and_deals() -> None:
    td = get_user_model().objects.create_user("online-pages-td", password="x")
    event = EventFactory(status=EventStatus.ANNOUNCED)
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    form = {
        "starts_at": "2026-09-05T10:00",
        "ends_at": "2026-09-06T10:00",
        "time_zone": "Asia/Shanghai",
        "online": "on",
        "online_robots": "on",
        "robot_strength": "medium",
        "move_seconds": "45",
        "status": "registration_open",
    }
    answer = client.post(reverse("prizes:event_life", args=[event.slug]), form)
    assert answer.status_code == 302, answer.content.decode()
    event.refresh_from_db()
    assert event.online_robots and event.robot_strength == "medium" and event.move_seconds == 45
    home = reverse("online:home", args=[event.slug])
    deal = client.post(reverse("online:deal", args=[event.slug]), {"boards": "3"})
    assert deal.status_code == 302
    assert event.rounds.count() == 3 and event.boards.count() == 3
    page = client.get(home).content.decode()
    assert "2026" in page and "Asia/Shanghai" in page and "3 boards dealt." in page
    one = client.post(reverse("online:deal", args=[event.slug]), {"boards": "1"}, follow=True)
    assert "1 board dealt." in one.content.decode()  # not "1 boards"


def test_an_entrant_sees_his_boards_and_plays_them_in_the_window() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=2)
    online_board_play(event, bob, 1)
    online_board_play(event, ann, 1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    page = client.get(reverse("online:home", args=[event.slug])).content.decode()
    assert "Play board 2" in page and "Your game" in page and "Traveller" not in page
    assert client.post(reverse("online:start", args=[event.slug, 2])).status_code == 302
    device = client.get(reverse("online:device_board", args=[event.slug, 2])).content.decode()
    assert "You are E" in device


def test_a_start_outside_the_window_says_when_it_opens() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    Event.objects.filter(pk=event.pk).update(
        starts_at=event.starts_at + timedelta(days=2), ends_at=event.ends_at + timedelta(days=3)
    )
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    answer = client.post(reverse("online:start", args=[event.slug, 1]), follow=True)
    assert "The window opens on" in answer.content.decode()


def test_a_visitor_is_sent_to_sign_in_and_a_non_entrant_is_offered_to_enter() -> None:
    event, _td, _users = online_event(entrants=1, boards=1)
    home = reverse("online:home", args=[event.slug])
    assert Client().get(home).status_code == 302
    stranger = get_user_model().objects.create_user("online-stranger", password="x")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(stranger)
    page = client.get(home).content.decode()
    assert 'id="online-enter"' in page and "Play board 1" not in page
    device = client.get(reverse("online:device_board", args=[event.slug, 1]))
    assert device.status_code == 403


def test_the_leaderboard_shows_totals_only_until_the_window_closes() -> None:
    from games.models import Game
    from tournaments.online.close import online_window_close
    from tournaments.standings.store import standings_recompute
    from tournaments.tables.verification import games_verify

    event, _td, (ann, bob) = online_event(entrants=2, boards=2)
    online_board_play(event, ann, 1)
    online_board_play(event, bob, 1)
    games = Game.objects.filter(board__event=event).values_list("pk", flat=True)
    games_verify(game_ids=list(games))
    standings_recompute(event_id=event.pk)
    url = reverse("public:standings", args=[event.slug])
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    assert "Entrant 1" in page and "Entrant 2" in page and 'id="standings-sealed"' in page
    assert "/players/" not in page and "Robot" not in page
    online_window_close(event=event, now=event.ends_at + timedelta(seconds=1))
    standings_recompute(event_id=event.pk)
    # The table itself, as the page refreshes it (the whole page follows within seconds).
    live = reverse("public:standings_live", args=[event.slug])
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(live).content.decode()
    assert "/players/" in page and 'id="standings-sealed"' not in page


def test_an_event_against_robots_needs_its_window_and_a_refusal_saves_nothing() -> None:
    td = get_user_model().objects.create_user("online-no-window-td", password="x")
    event = EventFactory(status=EventStatus.ANNOUNCED, starts_at=None, ends_at=None)
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    form = {
        "starts_at": "",
        "ends_at": "",
        "time_zone": "Asia/Shanghai",
        "online": "on",
        "online_robots": "on",
        "robot_strength": "basic",
        "move_seconds": "45",
    }
    answer = client.post(reverse("prizes:event_life", args=[event.slug]), form)
    assert answer.status_code == 400
    assert "needs its window: give its start and its end" in answer.content.decode()
    # Nothing of the form was saved: not online, no zone changed.
    event.refresh_from_db()
    assert not event.online and not event.online_robots and event.time_zone != "Asia/Shanghai"
