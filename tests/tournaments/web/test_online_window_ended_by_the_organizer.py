"""The organizer ends an online event's window now from its Play online page: the robots
finish the boards in play, every board's results are public at once, and the entrant then
sees his result against the field. Only an organizer may; a closed window stays closed."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.models import AuditEntry, Event
from tournaments.online import play

pytestmark = pytest.mark.django_db


def test_the_organizer_ends_the_window_and_the_results_are_public() -> None:
    event, td, (ann, bob) = online_event(entrants=2, boards=2)
    online_board_play(event, ann, 1)
    online_board_play(event, bob, 1)
    play.online_board_start(event=event, user=bob, number=2)  # in play at the end
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    home = reverse("online:home", args=[event.slug])
    assert "End the window now" in client.get(home).content.decode()
    answer = client.post(reverse("online:close", args=[event.slug]), follow=True)
    assert "The window is closed" in answer.content.decode()
    event.refresh_from_db()
    assert event.online_closed_at is not None and event.seed_revealed
    # Bob's board 2 was finished by the robot; its result is public with board 1's.
    assert AuditEntry.objects.filter(event=event, action="online.window_close").count() == 1
    entrant = Client(HTTP_ACCEPT_LANGUAGE="en")
    entrant.force_login(ann)
    traveller = entrant.get(reverse("public:traveller", args=[event.slug, 1]))
    assert traveller.status_code == 200
    assert "Entrant 1" in traveller.content.decode() and "Entrant 2" in traveller.content.decode()
    # Again: refused with the reason, nothing changes.
    again = client.post(reverse("online:close", args=[event.slug]), follow=True).content.decode()
    assert "is closed: its dates stay" in again
    assert "End the window now" not in client.get(home).content.decode()


def test_an_entrant_may_not_end_the_window() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    assert client.post(reverse("online:close", args=[event.slug])).status_code == 403
    assert Event.objects.get(pk=event.pk).online_closed_at is None
