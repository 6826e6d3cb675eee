"""The demo's club and series (tournaments.demo.league, run by manage.py ddz_demo) with a real
Celery worker: three events through the services, deals from committed seeds, bots of three
strengths, the series standings and the profiles."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournaments.demo import league as demo_league
from tournaments.demo import life as demo_life
from tournaments.models import Club, EventStatus, RoundState


@pytest.mark.services
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_demo_has_a_club_with_a_series_of_three_events(client, celery_worker) -> None:
    out = io.StringIO()
    call_command("ddz_demo", "--records", "", "--timeout", "120", stdout=out)
    club = Club.objects.get(name=demo_league.CLUB)
    series = club.series.get()
    events = list(series.events.order_by("created_at"))
    assert [e.name for e in events] == [f"Demo Club Cup {n}" for n in (1, 2, 3)]
    for event in events:
        assert event.club == club
        assert event.deal_commitment
        assert set(event.rounds.values_list("state", flat=True)) == {RoundState.PUBLISHED}
        assert event.boards.count() == demo_league.ROUNDS * demo_league.BOARDS_PER_ROUND
        assert event.standings.filter(stage__isnull=True).count() == 9
        # Dated a week apart before today, finished: they count in the series and ratings.
        assert event.status == EventStatus.FINISHED
        assert event.venue_name == demo_life.CLUB_VENUE and event.starts_at is not None
        assert event.categories == demo_life.CATEGORIES
    assert [e.starts_at for e in events] == sorted(e.starts_at for e in events)
    # The last cup has its prizes, overall and in each category, and players in categories.
    last = events[-1]
    assert sorted(last.prizes.values_list("category", "place", "description")) == sorted(
        demo_life.PRIZES
    )
    assert last.entries.get(player__name="Hui").categories == ["women", "youth"]
    results = client.get(reverse("prizes:results", args=[last.slug])).content.decode()
    assert all(text in results for _c, _p, text in demo_life.PRIZES)
    page = client.get(series.get_absolute_url()).content.decode()
    assert page.count("<tr>") >= 9
    ann = events[0].entries.get(player__name="Ann").player
    profile = client.get(reverse("league:person", args=[ann.pk])).content.decode()
    # Her three cups and the demo event, with the chart of her results.
    assert all(e.name in profile for e in events) and "Demo duplicate" in profile
    assert 'id="results-chart"' in profile
    assert "Demo Series 2026" in out.getvalue()
    home = client.get("/").content.decode()
    assert "Demo Club" in home and series.get_absolute_url() in home
