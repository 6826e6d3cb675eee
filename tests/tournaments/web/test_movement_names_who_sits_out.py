"""Seating a stage by a movement names who sits out each round: a trial seated 10 players at
tables of three for one round, and the tenth sat out with no word anywhere (Swiss seating and
the check-in page already name them). A player who sits out every round of the stage, and so
plays none of it, is said so apart."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import get_messages
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.events import rounds, stages
from tournaments.models import Entry, EventRole, Role, Seat

pytestmark = pytest.mark.django_db


def _seated(client, players: int, draft_rounds: int) -> tuple[list[str], set[str], list]:
    event = EventFactory()
    td = get_user_model().objects.create_user(f"td-sit-{event.pk}", password="pw")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    names = [f"Player {i:02d}" for i in range(players)]
    for name in names:
        Entry.objects.create(event=event, player=PlayerFactory(name=name))
    stage = stages.stage_create(event=event, actor=td)
    for _ in range(draft_rounds):
        rounds.round_create(event=event, stage=stage, actor=td)
    client.force_login(td)
    url = reverse("organizer:stage_action", args=[event.slug, stage.number, "seat"])
    answer = client.post(url)
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    seated = set(
        Seat.objects.filter(table__round__event=event).values_list("player__name", flat=True)
    )
    return names, seated, said


def test_one_round_names_the_player_who_sits_out_and_that_he_plays_none(client) -> None:
    names, seated, said = _seated(client, players=10, draft_rounds=1)
    (out,) = set(names) - seated
    assert any(f"Round 1: {out}" in m for m in said), said
    assert any(f"{out} sits out every round of this stage" in m for m in said), said


def test_rotating_sit_outs_are_named_round_by_round(client) -> None:
    names, seated, said = _seated(client, players=10, draft_rounds=3)
    assert seated == set(names)  # over three rounds everyone plays
    line = next(m for m in said if "sit out" in m)
    assert all(f"Round {n}:" in line for n in (1, 2, 3)), line
    assert not any("every round of this stage" in m for m in said)


def test_a_field_that_fills_its_tables_says_nothing_of_sitting_out(client) -> None:
    _names, _seated_names, said = _seated(client, players=9, draft_rounds=2)
    assert not any("sit out" in m for m in said), said


def test_the_rounds_page_names_who_sits_out_it(client) -> None:
    # A trial's sit-out was named in one message and nowhere else: not on the round's page.
    from tournaments.models import Round

    names, seated, _said = _seated(client, players=10, draft_rounds=1)
    (out,) = set(names) - seated
    round_ = Round.objects.get(number=1, event__entries__player__name=out)
    page = client.get(reverse("public:round", args=[round_.event.slug, 1])).content.decode()
    assert 'id="sitting-out"' in page and out in page.split('id="sitting-out"', 1)[1]
