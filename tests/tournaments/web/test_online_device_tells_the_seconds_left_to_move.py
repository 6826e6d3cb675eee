"""Every device view of a board of an online event in play carries ``move_seconds_left``: the whole
seconds left for the seat to move before the robot plays its move (from the table's draft, saved
when the turn began, and the event's ``move_seconds``), so that the device counts them down and,
once they ran out, asks for the position, which has the robot play the overdue move
(tournaments.web.devices.device_seconds_left). Seconds, not a time: the device's clock need not
agree with the server's. None once the board is over, once the window closed, and at any board of
another kind of event."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import EntryDraft
from tests.factories import online_board_play, online_event, online_table_seated
from tournaments.models import Event
from tournaments.online import play
from tournaments.tables import live

pytestmark = pytest.mark.django_db


def _client(user, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _script_json(page: str, element: str) -> dict:
    start = page.index(f'id="{element}"')
    return json.loads(page[page.index(">", start) + 1 : page.index("</script>", start)])


def _view(client: Client, slug: str, number: int = 1) -> dict:
    return client.get(reverse("online:device_position", args=[slug, number])).json()["view"]


def _turn_began(table: object, seconds_ago: int) -> None:
    # update() leaves auto_now alone: the turn began `seconds_ago`.
    EntryDraft.objects.filter(table=table).update(
        updated_at=timezone.now() - timedelta(seconds=seconds_ago)
    )


def test_the_device_against_robots_tells_the_seconds_left_and_the_overdue_move_is_played() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1, move_seconds=30)
    table = play.online_board_start(event=event, user=ann, number=1)
    client = _client(ann)
    page = client.get(reverse("online:device_board", args=[event.slug, 1])).content.decode()
    view = _script_json(page, "device-view")
    assert view["to_move"] == play.board_seat(event, 1)
    assert view["move_seconds_left"] in (29, 30)
    assert 'id="clock"' in page
    # The countdown's words, in the reader's language, for the script.
    texts = _script_json(page, "device-texts")
    assert texts["clockYou"] == "Your turn: %(n)s s"
    assert texts["clockOf"] == "%(seat)s to move: %(n)s s"
    _turn_began(table, 12)
    assert _view(client, event.slug)["move_seconds_left"] in (17, 18)
    # Run out: the device asks for the position, and the robot played the move meanwhile;
    # the next move has all its seconds again.
    at = view["at"]
    _turn_began(table, 31)
    after = _view(client, event.slug)
    assert after["at"] > at
    assert after["game"] is not None or after["move_seconds_left"] in (29, 30)
    table.refresh_from_db()
    assert table.robot_moves == 1


def test_a_finished_board_and_a_closed_window_tell_no_seconds() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=1, move_seconds=30)
    online_board_play(event, ann, 1)
    assert _view(_client(ann), event.slug)["move_seconds_left"] is None
    play.online_board_start(event=event, user=bob, number=1)
    assert _view(_client(bob), event.slug)["move_seconds_left"] in (29, 30)
    Event.objects.filter(pk=event.pk).update(online_closed_at=timezone.now())
    assert _view(_client(bob), event.slug)["move_seconds_left"] is None


def test_every_device_of_an_online_table_tells_the_same_seconds_for_the_seat_to_move() -> None:
    event, _td, users = online_event(entrants=3, boards=1, tables=True, move_seconds=40)
    devices = online_table_seated(event, users, 1)
    device = next(iter(devices.values()))[0]
    _turn_began(device.table, 15)
    mover = live.live_state(table=device.table, board=device.board).position.to_move
    views = [_view(_client(user), event.slug) for user in users]
    assert {v["to_move"] for v in views} == {mover}
    assert {v["move_seconds_left"] for v in views} <= {24, 25}
