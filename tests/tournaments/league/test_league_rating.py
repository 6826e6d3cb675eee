"""The rating rates the person: after a merge the records of one person share one rating
line (on the kept record) and her profile charts it; an unmerge rates them apart again."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tournaments.ratings.test_ratings_stored import _event
from tournaments.league import clubs
from tournaments.models import RatingEntry
from tournaments.ratings import service as ratings

pytestmark = pytest.mark.django_db


def test_a_merge_rates_the_person_and_an_unmerge_rates_apart() -> None:
    field = [PlayerFactory() for _ in range(6)]
    ann_two = PlayerFactory(name="Ann (second record)")
    first, _r, td = _event(field, seed="person-1")
    second, _r2, _td = _event([ann_two, *field[1:]], seed="person-2")
    ratings.ratings_recompute(full=True)
    ann = field[0]
    assert set(RatingEntry.objects.filter(player=ann).values_list("event", flat=True)) == {first.pk}
    assert RatingEntry.objects.filter(player=ann_two).count() == 1

    td.is_staff = True
    td.save()
    clubs.person_merge(keep=ann, merge=ann_two, actor=td)
    ratings.ratings_recompute()
    # One line for the person, on the kept record: after the first event and the second.
    assert list(
        RatingEntry.objects.filter(player=ann).order_by("position").values_list("event", flat=True)
    ) == [first.pk, second.pk]
    assert not RatingEntry.objects.filter(player=ann_two).exists()
    page = Client().get(reverse("league:person", args=[ann.pk])).content.decode()
    assert 'id="rating-chart"' in page
    # The stored rows equal a recompute from scratch.
    assert ratings.ratings_compute() == {
        (e.player_id, e.event_id): (e.position, e.mu, e.sigma, e.ordinal)
        for e in RatingEntry.objects.all()
    }

    clubs.person_unmerge(player=ann_two, actor=td)
    ratings.ratings_recompute()
    assert RatingEntry.objects.filter(player=ann).count() == 1
    assert RatingEntry.objects.filter(player=ann_two).count() == 1


def test_a_hidden_profile_keeps_her_rating_out_of_the_public_lists() -> None:
    from rest_framework.test import APIClient

    field = [PlayerFactory() for _ in range(3)]
    _e, _r, td = _event(field, seed="hidden-rating")
    ratings.ratings_recompute(full=True)
    td.is_staff = True
    td.save()
    clubs.profile_hide(player=field[0], hidden=True, actor=td)
    api = APIClient()
    listed = [r["player_id"] for r in api.get(reverse("ratings:api_list")).json()]
    assert field[0].pk not in listed and len(listed) == 2
    assert api.get(reverse("ratings:api_history", args=[field[0].pk])).status_code == 404
    assert api.get(reverse("ratings:api_history", args=[field[1].pk])).status_code == 200
    assert f",{field[0].name}," not in Client().get(reverse("ratings:csv")).content.decode()
