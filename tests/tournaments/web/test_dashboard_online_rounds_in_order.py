"""The organizer's dashboard of an online robot duplicate, whose rounds (one a board) are all in
play at once, lists them by number (it listed its last round first, as the room's current
round: "Round 6, 1, 2, 3, 4, 5"); an ordinary event's keeps the round the room plays first
(test_dashboard_current_round_first)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.factories import online_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db

# Each round's block on the dashboard, in page order: (round number, open or folded).
ROUND = re.compile(r"<details([^>]*)\bid=\"round-(\d+)\"([^>]*)>")


def _page(event: Event, organizer: User) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer)
    answer = client.get(reverse("organizer:dashboard", args=[event.slug]))
    assert answer.status_code == 200
    return answer.content.decode()


def _rounds(page: str) -> list[tuple[int, bool]]:
    return [
        (int(number), bool(re.search(r"\bopen\b", before + after)))
        for before, number, after in ROUND.findall(page)
    ]


def test_the_rounds_of_an_online_duplicate_are_listed_by_number() -> None:
    event, td, _entrants = online_event(entrants=1, boards=6)
    assert _rounds(_page(event, td)) == [(n, True) for n in range(1, 7)]
