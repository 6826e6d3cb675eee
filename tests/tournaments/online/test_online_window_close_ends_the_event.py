"""After an online window's close nothing is left in play: the event is finished (its status
moves as the organizer's "Finish the event" moves it), every board is open (one no entrant
started has no result, never "being played"), the change log names who ended the window (the
organizer who pressed "End the window now", else the system), and each entrant who played is
written once, with his results against the field, never a round-by-round mail that sends him
to a referee.

Found by a trial of the demo: after "End the window now" the event page still listed the
boards nobody had played as "(being played)", the event stayed "in play", the change log's
Who was "—", and each entrant was mailed twice a round ("tell a referee if something is
wrong")."""

from __future__ import annotations

import pytest
from django.core import mail as django_mail
from django.test import Client
from django.utils import translation

from tests.factories import online_board_play, online_event
from tournaments.core.embargo import board_is_open, public_board_ids
from tournaments.models import AuditEntry, Event, EventStatus, OutgoingMail, Player
from tournaments.online.close import CLOSED, online_sweep, online_window_end_now

pytestmark = pytest.mark.django_db


def _addressed(users: list) -> None:
    for user in users:
        Player.objects.filter(user=user).update(email=f"{user.username}@example.org")


def test_the_close_finishes_the_event_and_opens_every_board() -> None:
    event, td, (ann, bob) = online_event(entrants=2, boards=3)
    online_board_play(event, ann, 1)
    online_board_play(event, bob, 1)
    assert online_window_end_now(event=event, actor=td) == CLOSED
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    # Board 3: no entrant started it. Every board of a closed online event is open.
    boards = list(event.boards.order_by("number"))
    assert all(board_is_open(b) for b in boards)
    assert public_board_ids(event) == {b.pk for b in boards}
    page = Client().get(f"/events/{event.slug}/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert "being played" not in page.content.decode()


def test_the_change_log_names_who_ended_the_window() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    online_window_end_now(event=event, actor=td)
    close = AuditEntry.objects.get(event=event, action="online.window_close")
    with translation.override("en"):
        assert td.username in str(close.who)
        assert "system" in str(close.who)
    rounds = AuditEntry.objects.filter(event=event, action__startswith="round.")
    assert rounds.exists()
    with translation.override("en"):
        assert all(td.username in str(entry.who) for entry in rounds)


def test_the_sweeps_close_is_the_systems() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    Event.objects.filter(pk=event.pk).update(ends_at=event.starts_at)
    assert online_sweep()["closed"] == 1
    close = AuditEntry.objects.get(event=event, action="online.window_close")
    with translation.override("en"):
        assert str(close.who) == "the system"
    with translation.override("zh-hans"):
        assert str(close.who) == "系统"


def test_each_entrant_who_played_is_written_once_at_the_close() -> None:
    event, td, (ann, bob, cy) = online_event(entrants=3, boards=3)
    _addressed([ann, bob, cy])
    online_board_play(event, ann, 1)
    online_board_play(event, ann, 2)
    online_board_play(event, bob, 1)
    django_mail.outbox.clear()
    online_window_end_now(event=event, actor=td)
    queued = list(OutgoingMail.objects.filter(event=event))
    assert sorted(m.to for m in queued) == [
        f"{ann.username}@example.org",
        f"{bob.username}@example.org",
    ]  # cy played nothing; the robots have no address
    for message in queued:
        assert "referee" not in message.body.lower()
        assert f"/events/{event.slug}/standings/" in message.body
        assert "/players/" in message.body  # his scorecard
