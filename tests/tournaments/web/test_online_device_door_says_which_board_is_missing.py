"""The online device's address of a board that does not exist (``/events/<slug>/online/boards/9/``
for an event of 6 boards; 0; a number past any integer) or that the entrant has not started
answers 404 with its own words, "This event has no board 9." or "You have not started board 3:
start it from your page.", and a way back to his page: nothing of private links and referees,
which have nothing to do with online play.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import online_event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

PRIVATE_LINK = "A private link opens"


def _door(client: Client, slug: str, number: str) -> tuple[int, str]:
    answer = client.get(f"/events/{slug}/online/boards/{number}/")
    return answer.status_code, answer.content.decode()


def test_a_board_the_event_does_not_have_is_named_without_private_link_words() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=6)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    for number in ("9", "0", "99999999999999999999999"):
        status, page = _door(client, event.slug, number)
        assert status == 404, number
        assert f"This event has no board {number}." in page, number
        assert PRIVATE_LINK not in page and "referee" not in page.lower(), number
        assert reverse("online:home", args=[event.slug]) in page


def test_a_board_not_started_says_to_start_it_from_his_page() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=6)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(ann)
    status, page = _door(client, event.slug, "3")
    assert status == 404
    assert "You have not started board 3: start it from your page." in page
    assert PRIVATE_LINK not in page and "referee" not in page.lower()
    assert reverse("online:home", args=[event.slug]) in page


def test_the_chinese_page_says_it_in_chinese() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=6)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(ann)
    status, page = _door(client, event.slug, "9")
    assert status == 404 and "本赛事没有第 9 副牌。" in page


def test_a_signed_in_stranger_is_told_only_entrants_play_and_where_to_enter() -> None:
    event, _td, _users = online_event(entrants=1, boards=6)
    stranger = get_user_model().objects.create_user("stranger", password="pw")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(stranger)
    status, page = _door(client, event.slug, "1")
    assert status == 403
    assert f"Only an entrant of {event.name} plays its boards." in page
    assert PRIVATE_LINK not in page and "referee" not in page.lower()
    # The event's online page, where he may enter.
    assert reverse("online:home", args=[event.slug]) in page
