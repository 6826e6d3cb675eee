"""Once the window of an online robot duplicate is closed (its seed revealed: anyone can compute
a board dealt from it) its online page no longer offers the organizer's Deal form, and a deal
posted all the same is refused for that reason (not "reopen it", which would not help): no
round is added."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.models import Round
from tournaments.online.close import online_window_end_now

pytestmark = pytest.mark.django_db


def test_the_deal_form_is_offered_while_the_window_is_open() -> None:
    event, td, _entrants = online_event(entrants=1, boards=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    page = client.get(reverse("online:home", args=[event.slug])).content.decode()
    assert reverse("online:deal", args=[event.slug]) in page


def test_after_the_close_no_deal_form_and_a_posted_deal_says_why() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    online_window_end_now(event=event, actor=td)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(td)
    page = client.get(reverse("online:home", args=[event.slug])).content.decode()
    assert reverse("online:deal", args=[event.slug]) not in page
    assert "Open a new event for more play" in page
    answer = client.post(reverse("online:deal", args=[event.slug]), {"boards": "2"}, follow=True)
    said = " ".join(str(m) for m in answer.context["messages"])
    assert "seed is revealed" in said and "reopen" not in said
    assert Round.objects.filter(event=event).count() == 1


def test_an_entrant_posting_a_deal_is_refused_as_one_whatever_the_number() -> None:
    # A trial's player sent boards=0 and read the organizer's "Deal 1 to 60 boards": he is
    # refused for who he is (403), as with a number that fits.
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    for boards in ("0", "2", "x"):
        answer = client.post(reverse("online:deal", args=[event.slug]), {"boards": boards})
        assert answer.status_code == 403, boards
    assert Round.objects.filter(event=event).count() == 1
