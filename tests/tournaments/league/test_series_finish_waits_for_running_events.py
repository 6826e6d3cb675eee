"""A series is not marked finished (which awards its master points at once) while one of its
events still runs: a round not closed or published, or all of them played but the event not
finished (only a finished event counts in its series, tournaments.people.life). The refusal
names the event(s), in the service, on the club organizer's page (400 with the message) and in
the admin's series form. A finished event, or one with no rounds, does not block."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.league import clubs
from tournaments.models import ClubRole, Event, EventStatus, Round, RoundState, Series

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    users = get_user_model().objects
    admin = users.create_user("site-admin", password="pw", is_staff=True, is_superuser=True)
    club = clubs.club_create(name="North Club", actor=admin)
    td = users.create_user("north-td", password="pw")
    clubs.club_member_add(club=club, user=td, role=ClubRole.ORGANIZER, actor=admin)
    series = clubs.series_create(club=club, actor=td, name="North 2026")
    done = clubs.club_event_open(club=club, actor=td, name="Cup Done", series=series)
    Round.objects.create(event=done, number=1, state=RoundState.PUBLISHED)
    Round.objects.create(event=done, number=2, state=RoundState.CLOSED)
    Event.objects.filter(pk=done.pk).update(status=EventStatus.FINISHED)
    clubs.club_event_open(club=club, actor=td, name="Cup Empty", series=series)
    running = clubs.club_event_open(club=club, actor=td, name="Cup Running", series=series)
    Round.objects.create(event=running, number=1, state=RoundState.CLOSED)
    late = Round.objects.create(event=running, number=2, state=RoundState.IN_PLAY)
    return {"admin": admin, "club": club, "td": td, "series": series, "late": late}


@pytest.mark.parametrize("state", [RoundState.IN_PLAY, RoundState.SEATED, RoundState.DRAFT])
def test_a_round_not_closed_keeps_the_series_running(season, state) -> None:
    Round.objects.filter(pk=season["late"].pk).update(state=state)
    with pytest.raises(clubs.ClubRefused) as refused:
        clubs.series_finish(series=season["series"], actor=season["td"])
    assert "Cup Running" in refused.value.message
    assert "Cup Done" not in refused.value.message and "Cup Empty" not in refused.value.message
    assert not Series.objects.get(pk=season["series"].pk).finished


def test_an_event_played_out_but_not_finished_keeps_the_series_running(season) -> None:
    Round.objects.filter(pk=season["late"].pk).update(state=RoundState.PUBLISHED)
    with pytest.raises(clubs.ClubRefused) as refused:
        clubs.series_finish(series=season["series"], actor=season["td"])
    assert "Cup Running" in refused.value.message and "Cup Done" not in refused.value.message
    assert not Series.objects.get(pk=season["series"].pk).finished


def test_finished_or_empty_events_do_not_block(season) -> None:
    Round.objects.filter(pk=season["late"].pk).update(state=RoundState.PUBLISHED)
    Event.objects.filter(pk=season["late"].event_id).update(status=EventStatus.FINISHED)
    clubs.series_finish(series=season["series"], actor=season["td"])
    assert Series.objects.get(pk=season["series"].pk).finished
    # Current again, whatever its events: nothing is awarded by that.
    clubs.series_finish(series=season["series"], actor=season["td"], finished=False)
    assert not Series.objects.get(pk=season["series"].pk).finished


def test_the_club_page_shows_the_refusal(season) -> None:
    client = Client()
    client.force_login(season["td"])
    url = reverse("clubs:finish", args=[season["club"].slug, season["series"].slug])
    answer = client.post(url, {"finished": "1"})
    assert answer.status_code == 400
    assert "Cup Running" in answer.content.decode()
    assert not Series.objects.get(pk=season["series"].pk).finished


def test_the_admin_series_form_refuses_finished(season) -> None:
    from tournaments.admin.clubs import SeriesForm

    series = season["series"]
    fields = ["club", "name", "slug", "season", "scale", "best_of", "lot_seed", "master_scale"]
    data = {name: getattr(series, name) for name in fields}
    data["club"] = series.club_id
    data["best_of"] = data["best_of"] or ""
    data["tiebreaks"] = "[]"
    form = SeriesForm(data={**data, "finished": "on"}, instance=series)
    assert not form.is_valid()
    assert "Cup Running" in str(form.errors)
    # Not finishing it is no business of its events.
    form = SeriesForm(data=data, instance=Series.objects.get(pk=series.pk))
    assert form.is_valid(), form.errors
