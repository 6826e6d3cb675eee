"""Master points: a finished series awards them by the places of its final standings, on the
organizer's table (players tied share the places they cover, as the series' own points do), a
person's master points add up over the series, and titles follow master-point thresholds."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import event_finish
from tournaments.league import clubs, series
from tournaments.league.profiles import person_master_points
from tournaments.models import Entry, MasterTitle, Player, Standing

F = Fraction
LADDER = ((F(10), "Five-Star Player"), (F(50), "Grand Master"), (F(500), "Lifetime Grand Master"))


def test_master_points_by_final_place_ties_share_the_places_they_cover() -> None:
    # Final series places 1, 2=, 2=, 4 on the table 5 3 1: B and C cover places 2 and 3,
    # (3 + 1) / 2 = 2 each; D's fourth place is off the table.
    rows = series.series_standings(
        [series.EventPlaces("e", {"A": 1, "B": 2, "C": 2, "D": 4})], scale=(F(10), F(8), F(6))
    )
    assert series.master_points(rows, (F(5), F(3), F(1))) == {"A": 5, "B": 2, "C": 2, "D": 0}


@pytest.mark.parametrize(
    ("points", "title"),
    [(F(0), None), (F(19, 2), None), (F(10), "Five-Star Player"), (F(499), "Grand Master")],
)
def test_the_title_is_the_highest_threshold_reached(points: Fraction, title: str | None) -> None:
    assert series.title_of(points, LADDER) == title


def test_a_ladder_is_read_in_any_order() -> None:
    assert series.title_of(F(600), tuple(reversed(LADDER))) == "Lifetime Grand Master"


def _series_with_places(club, admin, name: str, master: str, places: list[tuple[Player, str]]):
    made = clubs.series_create(club=club, actor=admin, name=name, scale="10, 8, 6")
    made.master_scale = master
    made.save(update_fields=["master_scale"])
    event = clubs.club_event_open(club=club, actor=admin, name=f"{name} cup", series=made)
    for position, (player, rank) in enumerate(places, 1):
        Entry.objects.create(event=event, player=player)
        Standing.objects.create(
            event=event,
            player=player,
            method="matchpoints",
            position=position,
            rank=rank,
            total="10",
            top="20",
            percentage="50",
            boards=2,
        )
    # Only a finished event counts in its series (tournaments.people.life).
    event_finish(event, admin)
    return made


@pytest.mark.django_db
def test_a_persons_master_points_add_up_over_finished_series_and_give_her_title() -> None:
    admin = get_user_model().objects.create_user("mp-admin", password="pw", is_superuser=True)
    club = clubs.club_create(name="Master Club", actor=admin)
    amy, bea, cai = (Player.objects.create(name=n) for n in ("Amy", "Bea", "Cai"))
    spring = _series_with_places(
        club, admin, "Spring", "5, 3, 1", [(amy, "1"), (bea, "2="), (cai, "2=")]
    )
    autumn = _series_with_places(club, admin, "Autumn", "10, 4", [(amy, "1"), (bea, "2")])
    running = _series_with_places(club, admin, "Winter", "100", [(bea, "1")])
    for done in (spring, autumn):
        clubs.series_finish(series=done, actor=admin)
    MasterTitle.objects.create(name="Five-Star Player", threshold=10)
    MasterTitle.objects.create(name="Grand Master", threshold=50)
    # Amy 5 + 10; Bea (3 + 1) / 2 + 4; the running series awards nothing yet.
    amy_points = person_master_points(amy)
    assert (amy_points.total, amy_points.title) == (15, "Five-Star Player")
    assert [(a.series, a.points) for a in amy_points.awards] == [(spring, 5), (autumn, 10)]
    bea_points = person_master_points(bea)
    assert (bea_points.total, bea_points.title) == (6, None)
    assert running not in [a.series for a in bea_points.awards]
    page = Client().get(reverse("league:person", args=[amy.pk])).content.decode()
    assert 'id="master-points"' in page and "Five-Star Player" in page and ">15<" in page
    shown = Client().get(reverse("league:series", args=[spring.slug])).content.decode()
    assert 'id="series-master-points"' in shown


@pytest.mark.django_db
def test_the_club_organizer_sets_the_master_points_table_of_a_series() -> None:
    admin = get_user_model().objects.create_user("mp-org", password="pw", is_superuser=True)
    club = clubs.club_create(name="Table Club", actor=admin)
    client = Client()
    client.force_login(admin)
    url = reverse("clubs:club", args=[club.slug])
    refused = client.post(url, {"name": "Bad", "master_scale": "5, x"})
    assert refused.status_code == 400 and "x" in refused.content.decode()
    assert not club.series.exists()
    made = client.post(url, {"name": "Good", "master_scale": "5, 3, 1.5"})
    assert made.status_code == 302
    assert club.series.get().master_scale == "5, 3, 3/2"


@pytest.mark.django_db
def test_the_series_api_gives_the_master_points_once_the_series_is_finished() -> None:
    admin = get_user_model().objects.create_user("mp-api", password="pw", is_superuser=True)
    club = clubs.club_create(name="Api Club", actor=admin)
    amy, bea = Player.objects.create(name="Amy"), Player.objects.create(name="Bea")
    made = _series_with_places(club, admin, "Api", "4, 1", [(amy, "1"), (bea, "2")])
    url = reverse("league-api:series", args=[made.slug])
    running = Client().get(url).json()
    assert running["master_scale"] == ["4", "1"]
    assert [r["master_points"] for r in running["rows"]] == [None, None]
    clubs.series_finish(series=made, actor=admin)
    assert [r["master_points"] for r in Client().get(url).json()["rows"]] == ["4", "1"]
