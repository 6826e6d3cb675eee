"""The organizer's dashboard opens on the round the room plays: it comes first and open, the
rounds to come follow open, and the past rounds (closed or published) come last, folded, the
latest first, each still carrying its actions (a closed round's Publish)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, duplicate_round
from tournaments.models import EventRole, Role, Round, RoundState

pytestmark = pytest.mark.django_db

# Each round's block on the dashboard, in page order: (round number, folded or open).
ROUND = re.compile(r"<details([^>]*)\bid=\"round-(\d+)\"([^>]*)>")


def _dashboard(states: list[str]) -> str:
    event = EventFactory()
    for number in range(len(states)):
        duplicate_round(tables=2, boards=1, event=event, seed=f"round-{number}")
    for number, state in enumerate(states, start=1):
        Round.objects.filter(event=event, number=number).update(state=state)
    organizer = User.objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client = Client()
    client.force_login(organizer)
    answer = client.get(reverse("organizer:dashboard", args=[event.slug]))
    assert answer.status_code == 200
    return answer.content.decode()


def _rounds(page: str) -> list[tuple[int, bool]]:
    return [
        (int(number), bool(re.search(r"\bopen\b", before + after)))
        for before, number, after in ROUND.findall(page)
    ]


def test_the_round_in_play_comes_first_and_the_past_rounds_are_folded() -> None:
    page = _dashboard(
        [
            RoundState.PUBLISHED,
            RoundState.PUBLISHED,
            RoundState.CLOSED,
            RoundState.IN_PLAY,
            RoundState.SEATED,
        ]
    )
    assert _rounds(page) == [(4, True), (5, True), (3, False), (2, False), (1, False)]
    # A folded round keeps what is left to do with it.
    past = page[page.index('id="round-3"') :]
    assert 'data-action="publish"' in past[: past.index('id="round-2"')]


def test_with_no_round_in_play_the_next_seated_round_comes_first() -> None:
    page = _dashboard([RoundState.PUBLISHED, RoundState.SEATED, RoundState.SEATED])
    assert _rounds(page) == [(2, True), (3, True), (1, False)]


def test_once_every_round_is_over_the_last_one_comes_first_open() -> None:
    page = _dashboard([RoundState.PUBLISHED, RoundState.PUBLISHED, RoundState.CLOSED])
    assert _rounds(page) == [(3, True), (2, False), (1, False)]


def test_draft_rounds_alone_come_in_number_order() -> None:
    # The third trial's finding: three draft rounds just added were listed 3, 1, 2 (the room's
    # round, with nothing seated, is the last one, and it came first).
    page = _dashboard([RoundState.DRAFT, RoundState.DRAFT, RoundState.DRAFT])
    assert _rounds(page) == [(1, True), (2, True), (3, True)]
    # After the last round is published, the past rounds latest first, as ever.
    page = _dashboard([RoundState.PUBLISHED, RoundState.PUBLISHED, RoundState.DRAFT])
    assert _rounds(page) == [(3, True), (2, False), (1, False)]
