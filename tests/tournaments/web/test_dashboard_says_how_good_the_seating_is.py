"""The organizer's dashboard says how good a stage's movement is: beside its repeat meetings
and club clashes, the fewest any movement of that field can have, proved (by counting, or by
the exact search of a small field), and "optimal" when the movement has no more.

Two fields, worked out by hand:

- 12 players in tables of three over 5 rounds meet 5 × 4 × 3 = 60 times among 66 pairs, and
  each player meets 2 a round, 10 of his 11: counting allows no repeat at all. But five rounds
  without a repeat would leave each player exactly one other unmet, a nearly Kirkman triple
  system on 12 points, which does not exist (Kotzig and Rosa, 1974): at least 1. An
  exhaustive search finds no movement with 1 or 2 and one with 3 (one where a table of the
  first round meets again in another round, and nothing else does): the optimum is 3.
- 12 players of 4 clubs of three over 4 rounds: the clubs are a fifth "round" of four tables
  of three. A movement with no repeat and c club clashes is a five-round movement with c
  repeats, so c ≥ 3 by the case above; and the four rounds after the first of that optimal
  five-round movement, with its first round as the clubs, have no repeat and 3 clashes: the
  optimum is 0 repeats and 3 clashes, fewer than the 5 the local search left.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.events import rounds, stages
from tournaments.models import Entry, Event, EventRole, Role, Seat, Stage
from tournaments.seating import schedule

pytestmark = pytest.mark.django_db


def _stage(players: int, draft_rounds: int, clubs: str = "") -> tuple[Event, Any, Stage]:
    """An event of the classic preset (tables of S E W), ``players`` entries with their clubs
    given in turn from ``clubs``, one stage of ``draft_rounds`` draft rounds, its organizer."""
    event = EventFactory()
    td = get_user_model().objects.create_user(f"td-{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for i in range(players):
        Entry.objects.create(
            event=event, player=PlayerFactory(club=clubs[i % len(clubs)] if clubs else "")
        )
    stage = stages.stage_create(event=event, actor=td)
    for _ in range(draft_rounds):
        rounds.round_create(event=event, stage=stage, actor=td)
    return event, td, stage


def _seat_and_read(client: Any, event: Event, td: Any, stage: Stage) -> str:
    """Press the stage's seating button as the organizer; the stage's part of the dashboard,
    its tags stripped."""
    client.force_login(td)
    url = reverse("organizer:stage_action", args=[event.slug, stage.number, "seat"])
    assert client.post(url).status_code == 302
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    part = page[page.index(f'id="stage-{stage.number}"') : page.index('id="rounds"')]
    return " ".join(re.sub(r"<[^>]+>", " ", part).split())


def _movement(event: Event) -> tuple[list[list[list[int]]], dict[int, str]]:
    tables: dict[int, dict[int, list[int]]] = {}
    clubs: dict[int, str] = {}
    for seat in Seat.objects.filter(table__round__event=event).select_related(
        "table__round", "player"
    ):
        tables.setdefault(seat.table.round.number, {}).setdefault(seat.table_id, []).append(
            seat.player_id
        )
        if seat.player.club:
            clubs[seat.player_id] = seat.player.club
    return [list(tables[n].values()) for n in sorted(tables)], clubs


def test_twelve_players_over_five_rounds_are_seated_optimally_and_told_so(client) -> None:
    event, td, stage = _stage(12, 5)
    text = _seat_and_read(client, event, td, stage)
    movement, _clubs = _movement(event)
    assert schedule.repeat_pairs(movement) == 3
    assert "Movement of rounds 1–5: 3 repeat meetings, optimal: no movement has fewer." in text


def test_four_clubs_of_three_over_four_rounds_get_the_fewest_clashes(client) -> None:
    event, td, stage = _stage(12, 4, clubs="ABCD")
    text = _seat_and_read(client, event, td, stage)
    movement, clubs = _movement(event)
    assert schedule.repeat_pairs(movement) == 0
    assert schedule.club_conflicts(movement, clubs) == 3
    assert "0 repeat meetings, optimal: no movement has fewer." in text
    assert "3 club clashes, optimal: no movement with as few repeat meetings has fewer." in text


def test_a_large_field_shows_the_bound_it_can_prove_and_claims_no_optimum(client) -> None:
    # 18 players over 8 rounds: no design, and too many seatings of a round for the exact
    # search; 8 × 6 × 3 = 144 meetings of 153 pairs, each player meeting 16 of 17: counting
    # proves nothing, and the local search leaves repeats. The page says what it cannot know.
    event, td, stage = _stage(18, 8)
    text = _seat_and_read(client, event, td, stage)
    movement, _clubs = _movement(event)
    repeats = schedule.repeat_pairs(movement)
    assert repeats > 0
    # One repeat is "1 repeat meeting" (the page's plural; the search's seed follows the
    # event's, so either may come).
    meetings = "repeat meeting" if repeats == 1 else "repeat meetings"
    told = f"Movement of rounds 1–8: {repeats} {meetings}; whether a movement has fewer"
    assert f"{told} is not known." in text
    assert "optimal" not in text


def test_the_add_a_stage_form_sent_twice_adds_one_stage(client) -> None:
    # A trial's double click added "1. Dup" and "2. Dup", and a stage cannot be deleted.
    event, td, _first = _stage(players=3, draft_rounds=0)
    client.force_login(td)
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    key = re.search(r'name="form_key" value="([^"]+)"', page)
    assert key, "the form carries its key"
    form = {"name": "Dup", "kind": "qualifying", "form_key": key.group(1)}
    url = reverse("organizer:stage_create", args=[event.slug])
    client.post(url, form)
    again = client.post(url, form, follow=True).content.decode()
    assert "This stage was added already: the form was sent twice." in again
    assert list(Stage.objects.filter(event=event, name="Dup").values_list("number", flat=True)) == [
        2
    ]
