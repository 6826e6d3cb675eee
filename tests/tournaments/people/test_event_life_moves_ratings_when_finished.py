"""Only a finished event moves the ratings and the series (tournaments.people.life): an event
whose rounds are all published but which its organizer has not finished is not rated and does
not count in its series; finishing it rates it and counts it; reopening it takes it out again;
the rating chart dates each point by the event's start."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, duplicate_round, round_fill
from tournaments.events import round_states
from tournaments.league import clubs
from tournaments.league.profiles import series_table
from tournaments.models import RatingEntry, RatingState
from tournaments.people import life
from tournaments.ratings import service as ratings
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def td():
    return get_user_model().objects.create_superuser("rated-td", password="x")


def _played(td, **fields):
    """An event of one round of three tables, every board played, closed and published: all
    its results final, the event not finished."""
    event, round_, _tables, _boards = duplicate_round(event=EventFactory(**fields), boards=2)
    round_fill(round_)
    round_states.round_close(round_=round_, actor=td)
    round_states.round_publish(round_=round_, actor=td)
    standings_recompute(event_id=event.pk)
    return event


def test_ratings_move_when_the_event_is_finished_and_leave_when_it_is_reopened(
    td, django_capture_on_commit_callbacks
) -> None:
    event = _played(td, starts_at=datetime(2026, 3, 1, 23, 0, tzinfo=UTC), time_zone="Asia/Tokyo")
    requested = RatingState.objects.filter().values_list("requested", flat=True).first() or 0
    assert ratings.rated_events() == []
    assert ratings.ratings_recompute() == 0
    assert not RatingEntry.objects.exists()

    with django_capture_on_commit_callbacks():
        life.event_finish(event=event, actor=td)
    assert RatingState.objects.get().requested == requested + 1  # finishing asked for them
    assert [e.pk for e in ratings.rated_events()] == [event.pk]
    assert ratings.ratings_recompute() == 9
    player = RatingEntry.objects.filter(event=event).first().player_id
    (point,) = ratings.history(player)
    # 23:00 UTC on 1 March is 08:00 on 2 March in Tokyo: the chart's point is dated the 2nd.
    assert str(point.date) == "2026-03-02"

    with django_capture_on_commit_callbacks():
        life.event_reopen(event=event, actor=td)
    assert RatingState.objects.get().requested == requested + 2  # and reopening again
    assert ratings.rated_events() == []
    assert ratings.ratings_recompute() == 9  # its nine rows removed
    assert not RatingEntry.objects.exists()


def test_the_rating_order_is_by_date(td) -> None:
    later = _played(td, starts_at=datetime(2026, 5, 1, tzinfo=UTC))
    earlier = _played(td, starts_at=datetime(2026, 4, 1, tzinfo=UTC))  # opened after `later`
    for event in (later, earlier):
        life.event_finish(event=event, actor=td)
    assert [e.pk for e in ratings.rated_events()] == [earlier.pk, later.pk]


def test_a_series_counts_its_finished_events_only(td) -> None:
    club = clubs.club_create(name="Life club", actor=td)
    series = clubs.series_create(club=club, actor=td, name="Life series")
    done = _played(td, club=club, series=series, starts_at=datetime(2026, 1, 5, tzinfo=UTC))
    waiting = _played(td, club=club, series=series, starts_at=datetime(2026, 2, 5, tzinfo=UTC))
    life.event_finish(event=done, actor=td)
    table = series_table(series)
    assert table.events == [done]
    assert table.coming == [waiting]
    # Nine players ranked by the finished event alone.
    assert len(table.lines) == 9
    assert all(len(line.points) == 1 for line in table.lines)
