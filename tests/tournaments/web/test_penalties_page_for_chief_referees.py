"""The penalties page (tournaments.web.penalties): a chief referee gives and withdraws a
penalty without the admin (a trial's chief referee, not staff, had no way to), to a player
of the event only; a referee may not open it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory, duplicate_round
from tournaments.models import AuditEntry, EventRole, Penalty, Role

pytestmark = pytest.mark.django_db


def _client(event, name: str, role: str) -> Client:
    user = get_user_model().objects.create_user(name, password="x")
    EventRole.objects.create(event=event, user=user, role=role)
    client = Client()
    client.force_login(user)
    return client


def test_a_chief_referee_gives_and_withdraws_a_penalty() -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-page")
    chief = _client(event, "pen-chief", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    assert chief.get(url).status_code == 200
    player = tables[0].seats.first().player
    given = chief.post(
        url, {"player": player.pk, "points": "1.5", "stage": "", "reason": "slow play"}, follow=True
    )
    assert given.status_code == 200
    penalty = Penalty.objects.get()
    assert (penalty.player, penalty.points, penalty.stage) == (player, Decimal("1.5"), None)
    assert f"{player.name} is penalised 1.5." in given.content.decode()
    assert AuditEntry.objects.filter(action="penalty.add").count() == 1
    withdraw = reverse("referee:penalty_withdraw", args=[event.slug, penalty.pk])
    assert chief.post(withdraw).status_code == 302
    assert not Penalty.objects.exists()


def test_bad_input_is_refused_in_the_form_and_nothing_is_stored() -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-bad")
    chief = _client(event, "pen-chief-2", Role.CHIEF_REFEREE)
    url = reverse("referee:penalties", args=[event.slug])
    player = tables[0].seats.first().player
    stranger = PlayerFactory(name="Not Here")
    for data in (
        {"player": stranger.pk, "points": "1", "reason": "x"},  # not a player of the event
        {"player": player.pk, "points": "-1", "reason": "x"},
        {"player": player.pk, "points": "abc", "reason": "x"},
        {"player": player.pk, "points": "1", "reason": ""},
        {"player": player.pk, "points": "1", "reason": "a\x00b"},
    ):
        assert chief.post(url, data).status_code == 400, data
    assert not Penalty.objects.exists()


def test_a_referee_may_not_open_it() -> None:
    event, _round, _tables, _boards = duplicate_round(tables=1, boards=1, seed="pen-ref")
    referee = _client(event, "pen-ref", Role.REFEREE)
    assert referee.get(reverse("referee:penalties", args=[event.slug])).status_code == 403
    anonymous = Client().get(reverse("referee:penalties", args=[event.slug]))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
