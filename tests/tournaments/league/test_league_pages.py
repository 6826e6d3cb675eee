"""Clubs, series and profiles on the site: the home page, series standings (page, CSV, API),
profiles (page, CSV, API), hidden profiles, merged records, the rating chart, the archive."""

from __future__ import annotations

import csv
import io
import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.engine import RuleSet, deal_random
from tests.factories import event_finish, round_fill
from tournaments.archive import event_archive
from tournaments.events.boards import board_create
from tournaments.events.setup import round_seat
from tournaments.league import clubs
from tournaments.league.profiles import person_profile
from tournaments.models import Entry, Event, Player, Standing
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> dict[str, object]:
    """A club with a series (scale 10 8 6, best 2 of 3) of three finished events whose overall
    standings are stored by hand: e1 A 1, B 2=, C 2=; e2 B 1, A 2, C 3; e3 C 1, A 2, B 3."""
    admin = get_user_model().objects.create_user("admin", password="pw", is_superuser=True)
    admin.is_staff = True
    admin.save()
    club = clubs.club_create(name="Harbour Club", actor=admin)
    season = clubs.series_create(
        club=club, actor=admin, name="Harbour 2026", season="2026", scale="10, 8, 6", best_of=2
    )
    old = clubs.series_create(club=club, actor=admin, name="Harbour 2025", season="2025")
    clubs.series_finish(series=old, actor=admin)
    a = Player.objects.create(name="Amy")
    b = Player.objects.create(name="Bea")
    c = Player.objects.create(name="Cai")
    ranks = [
        [(a, "1"), (b, "2="), (c, "2=")],
        [(b, "1"), (a, "2"), (c, "3")],
        [(c, "1"), (a, "2"), (b, "3")],
    ]
    events = []
    for n, rows in enumerate(ranks, 1):
        event = clubs.club_event_open(
            club=club, actor=admin, name=f"Harbour Cup {n}", series=season
        )
        for pos, (player, rank) in enumerate(rows, 1):
            Entry.objects.create(event=event, player=player)
            Standing.objects.create(
                event=event,
                player=player,
                method="matchpoints",
                position=pos,
                rank=rank,
                total="10",
                top="20",
                percentage="50",
                boards=2,
            )
        # Only a finished event counts in its series (tournaments.people.life).
        event_finish(event, admin)
        events.append(event)
    return {
        "admin": admin,
        "club": club,
        "series": season,
        "old": old,
        "a": a,
        "b": b,
        "c": c,
        "events": events,
    }


def test_series_standings_by_hand(league: dict[str, object]) -> None:
    # Scale 10 8 6, best 2 of 3.  A: 10, 8, 8 -> 18.  B: (8+6)/2 = 7, 10, 6 -> 17.
    # C: 7, 6, 10 -> 17.  B and C share second place.
    series = league["series"]
    page = Client().get(reverse("league:series", args=[series.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Amy" in html and "Bea" in html and "Cai" in html
    data = APIClient().get(reverse("league-api:series", args=[series.slug])).json()
    rows = [(r["rank"], r["player"], r["total"], r["points"], r["counted"]) for r in data["rows"]]
    # Bea and Cai share second place: their order between them is not the rule's to say
    # (it followed the records' ids, which other tests move).
    assert rows[0] == ("1", "Amy", "18", ["10", "8", "8"], [True, True, False])
    assert sorted(rows[1:]) == [
        ("2=", "Bea", "17", ["7", "10", "6"], [True, True, False]),
        ("2=", "Cai", "17", ["7", "6", "10"], [True, False, True]),
    ]
    assert data["scale"] == ["10", "8", "6"] and data["best_of"] == 2
    assert [e["slug"] for e in data["events"]] == [e.slug for e in league["events"]]
    text = Client().get(reverse("league:series_csv", args=[series.slug])).content.decode()
    table = list(csv.DictReader(io.StringIO(text)))
    first = league["events"][0].slug
    third = league["events"][2].slug
    assert [(r["rank"], r["player"], r["total"]) for r in table][0] == ("1", "Amy", "18")
    assert sorted((r["rank"], r["player"], r["total"]) for r in table[1:]) == [
        ("2=", "Bea", "17"),
        ("2=", "Cai", "17"),
    ]
    assert table[0][third] == "8*"  # Amy's third event is not among her best two
    assert {r["player"]: r[first] for r in table}["Bea"] == "7"


def test_home_lists_clubs_and_their_current_series(league: dict[str, object]) -> None:
    html = Client().get("/").content.decode()
    assert 'id="clubs"' in html
    assert "Harbour Club" in html and league["club"].get_absolute_url() in html
    assert "Harbour 2026" in html
    assert "Harbour 2025" not in html  # finished: on the club's page only
    club_page = Client().get(league["club"].get_absolute_url()).content.decode()
    assert "Harbour 2025" in club_page and "Harbour Cup 1" in club_page
    api = APIClient().get(reverse("league-api:clubs")).json()
    assert api == [
        {
            "name": "Harbour Club",
            "slug": league["club"].slug,
            "current_series": [
                {
                    "name": "Harbour 2026",
                    "slug": league["series"].slug,
                    "season": "2026",
                    "finished": False,
                }
            ],
        }
    ]


def test_profile_page_csv_and_api_without_token(league: dict[str, object]) -> None:
    amy = league["a"]
    page = Client().get(reverse("league:person", args=[amy.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    for event in league["events"]:
        assert event.name in html
        assert reverse("public:scorecard", args=[event.slug, amy.pk]) in html
    assert 'id="results-chart"' in html and "<svg" in html
    assert 'id="no-rating"' in html
    data = APIClient().get(reverse("league-api:person", args=[amy.pk])).json()
    assert data["name"] == "Amy"
    assert [(e["event"], e["rank"], e["series"]) for e in data["events"]] == [
        (league["events"][0].slug, "1", league["series"].slug),
        (league["events"][1].slug, "2", league["series"].slug),
        (league["events"][2].slug, "2", league["series"].slug),
    ]
    assert data["rating"] == []
    assert APIClient().get(reverse("league-api:ratings", args=[amy.pk])).json() == []
    text = Client().get(reverse("league:person_csv", args=[amy.pk])).content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["event"], r["club"], r["rank"]) for r in rows] == [
        (e.slug, league["club"].slug, rank) for e, rank in zip(league["events"], "122", strict=True)
    ]


def test_hidden_profile_is_not_public_but_event_pages_keep_the_name(
    league: dict[str, object],
) -> None:
    bea = league["b"]
    clubs.profile_hide(player=bea, hidden=True, actor=league["admin"])
    anonymous = Client()
    assert anonymous.get(reverse("league:person", args=[bea.pk])).status_code == 404
    assert anonymous.get(reverse("league:person_csv", args=[bea.pk])).status_code == 404
    assert APIClient().get(reverse("league-api:person", args=[bea.pk])).status_code == 404
    assert APIClient().get(reverse("league-api:ratings", args=[bea.pk])).status_code == 404
    # The event's standings and the series keep her name, without a link to the profile.
    event = league["events"][0]
    standings = anonymous.get(reverse("public:standings", args=[event.slug])).content.decode()
    assert "Bea" in standings
    series = anonymous.get(reverse("league:series", args=[league["series"].slug])).content
    assert "Bea" in series.decode()
    assert reverse("league:person", args=[bea.pk]) not in series.decode()
    row = APIClient().get(reverse("league-api:series", args=[league["series"].slug])).json()
    assert [(r["player"], r["person_id"]) for r in row["rows"] if r["player"] == "Bea"] == [
        ("Bea", None)
    ]
    # An organizer of her events still sees it.
    organizer = Client()
    organizer.force_login(league["admin"])
    assert organizer.get(reverse("league:person", args=[bea.pk])).status_code == 200


def test_merged_record_leads_to_the_person(league: dict[str, object]) -> None:
    amy = league["a"]
    other = Player.objects.create(name="Amy W.")
    lone = clubs.club_event_open(club=league["club"], actor=league["admin"], name="Lone Cup")
    Entry.objects.create(event=lone, player=other)
    clubs.person_merge(keep=amy, merge=other, actor=league["admin"])
    response = Client().get(reverse("league:person", args=[other.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("league:person", args=[amy.pk])
    html = Client().get(reverse("league:person", args=[amy.pk])).content.decode()
    assert "Lone Cup" in html and "Amy W." in html
    data = APIClient().get(reverse("league-api:person", args=[other.pk])).json()
    assert data["id"] == amy.pk
    assert {r["id"] for r in data["records"]} == {amy.pk, other.pk}


def test_rating_chart_from_the_stored_rating(league: dict[str, object]) -> None:
    # The rating (tournaments.ratings.service) stores the person's rows on her kept record.
    from tournaments.models import RatingEntry

    events, amy = league["events"], league["a"]
    RatingEntry.objects.create(
        player=amy, event=events[0], position=1, mu=25.0, sigma=8.0, ordinal=1.0
    )
    RatingEntry.objects.create(
        player=amy, event=events[1], position=2, mu=27.5, sigma=6.0, ordinal=9.5
    )
    html = Client().get(reverse("league:person", args=[amy.pk])).content.decode()
    assert 'id="rating-chart"' in html and "9.5" in html
    data = APIClient().get(reverse("league-api:ratings", args=[amy.pk])).json()
    assert [(r["event"], r["mu"], r["sigma"], r["ordinal"]) for r in data] == [
        (events[0].slug, 25.0, 8.0, 1.0),
        (events[1].slug, 27.5, 6.0, 9.5),
    ]
    text = Client().get(reverse("league:person_csv", args=[amy.pk])).content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["ordinal"], r["mu"]) for r in rows] == [("1.0", "25.0"), ("9.5", "27.5"), ("", "")]


def test_archive_carries_club_and_series(league: dict[str, object]) -> None:
    event = league["events"][0]
    data = json.loads(json.dumps(event_archive.event_export(event=event)))
    assert data["club"] == {"name": "Harbour Club", "slug": league["club"].slug}
    assert data["series"]["slug"] == league["series"].slug
    assert data["series"]["scale"] == "10, 8, 6" and data["series"]["best_of"] == 2
    # Restored elsewhere under another name, it joins the same club and series.
    data["event"]["name"], data["event"]["slug"] = "Copy", "copy"
    copy = event_archive.event_import(data=data)
    assert copy.club == league["club"] and copy.series == league["series"]


def test_profile_of_a_played_event_has_best_and_worst_boards() -> None:
    admin = get_user_model().objects.create_user("td", password="pw", is_staff=True)
    club = clubs.club_create(name="Board Club", actor=admin)
    event = clubs.club_event_open(club=club, actor=admin, name="Played Cup")
    players = [Player.objects.create(name=f"P{i}") for i in range(6)]
    for p in players:
        Entry.objects.create(event=event, player=p)
    round_ = round_seat(event=event, number=1, tables=[players[:3], players[3:]])
    rules = RuleSet.from_spec("classic")
    rng = random.Random("league")
    for b in range(3):
        deal = deal_random(rules, rng, first_bidder="SEW"[b])
        board_create(
            event=event, round=round_, hands=deal.hands, bottom=deal.bottom, first_bidder="SEW"[b]
        )
    round_fill(round_, seed="league")
    standings_recompute(event_id=event.pk)
    assert Event.objects.get(pk=event.pk).standings.exists()
    html = Client().get(reverse("league:person", args=[players[0].pk])).content.decode()
    assert 'id="best-boards"' in html and 'id="worst-boards"' in html
    # Three boards played: the best two and the worst one, never a board in both lists
    # (best and worst of three each listed every board twice), every board linked.
    assert html.count(f'href="/events/{event.slug}/boards/') >= 3
    profile = person_profile(players[0], user=None)
    best = [(b.event.pk, b.row.board.number) for b in profile.best["matchpoints"]]
    worst = [(b.event.pk, b.row.board.number) for b in profile.worst["matchpoints"]]
    assert len(best) == 2 and len(worst) == 1 and not set(best) & set(worst)
    # The worst is the lowest of the three; the best list is best first.
    values = [b.value for b in profile.best["matchpoints"] + profile.worst["matchpoints"]]
    assert values == sorted(values, reverse=True)
    # The scorecard links to the profile.
    card = Client().get(reverse("public:scorecard", args=[event.slug, players[0].pk]))
    assert reverse("league:person", args=[players[0].pk]) in card.content.decode()


def test_profile_forms_hide_merge_unmerge(league: dict[str, object]) -> None:
    from tournaments.models import AuditEntry, EventRole

    amy, bea = league["a"], league["b"]
    # Amy herself (her player role names her) hides her profile; a stranger cannot.
    me = get_user_model().objects.create_user("amy", password="pw")
    EventRole.objects.create(event=league["events"][0], user=me, role="player", player=amy)
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger", password="pw"))
    hide = reverse("league:person_hide", args=[amy.pk])
    assert stranger.post(hide, {"hidden": "1"}).status_code == 403
    herself = Client()
    herself.force_login(me)
    page = herself.get(reverse("league:person", args=[amy.pk])).content.decode()
    assert 'id="hide-profile"' in page and 'id="merge-form"' not in page
    assert herself.post(hide, {"hidden": "1"}).status_code == 302
    assert Client().get(reverse("league:person", args=[amy.pk])).status_code == 404
    assert herself.post(hide, {"hidden": "0"}).status_code == 302
    assert Client().get(reverse("league:person", args=[amy.pk])).status_code == 200
    # An organizer merges another record by its id, then undoes it.
    twin = Player.objects.create(name="Amy Twin")
    lone = clubs.club_event_open(club=league["club"], actor=league["admin"], name="Twin Cup")
    Entry.objects.create(event=lone, player=twin)
    organizer = Client()
    organizer.force_login(league["admin"])
    merged = organizer.post(reverse("league:person_merge", args=[amy.pk]), {"other": twin.pk})
    assert merged.status_code == 302
    twin.refresh_from_db()
    assert twin.same_as_id == amy.pk
    # Bea played the same events as Amy: refused with a message, nothing changed.
    refused = organizer.post(
        reverse("league:person_merge", args=[amy.pk]), {"other": bea.pk}, follow=True
    )
    assert "two people" in refused.content.decode()
    bea.refresh_from_db()
    assert bea.same_as_id is None
    assert (
        stranger.post(reverse("league:person_unmerge", args=[amy.pk, twin.pk])).status_code == 403
    )
    organizer.post(reverse("league:person_unmerge", args=[amy.pk, twin.pk]))
    twin.refresh_from_db()
    assert twin.same_as_id is None
    assert list(
        AuditEntry.objects.filter(action__in=["person.merge", "person.unmerge", "profile.hide"])
        .order_by("at", "pk")
        .values_list("action", "actor__username")
    ) == [
        ("profile.hide", "amy"),
        ("profile.hide", "amy"),
        ("person.merge", "admin"),
        ("person.unmerge", "admin"),
    ]


def test_query_budgets_of_the_public_lists(
    league: dict[str, object], django_assert_max_num_queries
) -> None:
    api = APIClient()
    with django_assert_max_num_queries(4):
        assert api.get(reverse("league-api:clubs")).status_code == 200
    with django_assert_max_num_queries(8):
        assert (
            api.get(reverse("league-api:series", args=[league["series"].slug])).status_code == 200
        )


def test_club_page_queries_do_not_grow_with_its_events(
    league: dict[str, object], django_assert_max_num_queries
) -> None:
    """The club page names each event's series: one query for them all, not one per event
    (the fixture's club has three events in one series)."""
    with django_assert_max_num_queries(4):
        assert Client().get(league["club"].get_absolute_url()).status_code == 200


def test_profile_page_reads_the_records_once(
    league: dict[str, object], django_assert_max_num_queries
) -> None:
    """The profile fetches the person's records once (for her events, the records list and
    whether she is hidden): 2 for the look-up, 4 for her events and rating, 3 per event for
    its scorecard (the fixture's three events), 1 for the series that award master points."""
    with django_assert_max_num_queries(16):
        assert Client().get(reverse("league:person", args=[league["a"].pk])).status_code == 200


def test_league_pages_in_chinese(league: dict[str, object]) -> None:
    zh = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
    client = Client()
    home = client.get("/", **zh).content.decode()
    assert "俱乐部" in home
    series = client.get(reverse("league:series", args=[league["series"].slug]), **zh)
    text = series.content.decode()
    assert "每位选手最好的 2 场比赛计分。" in text and "各名次积分" in text
    person = client.get(reverse("league:person", args=[league["a"].pk]), **zh).content.decode()
    assert "参加过的比赛" in person and "还没有等级分。" in person
