"""While entrants play an online robot duplicate its organizer cannot break their play: its
rounds (its boards) close with the window, never before; its start, zone and being online stay,
and its end moves only to now or later (never cleared). Any event's dates fall between the
years 1900 and 2999 (year 1 in a zone east of UTC was a server error)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.factories import EventFactory, online_board_play, online_event
from tournaments.core.access import AdministrationRefused
from tournaments.events import round_states
from tournaments.models import EventRole, Role
from tournaments.online.play import online_board_start
from tournaments.people.life import LifeRefused, event_place_set

pytestmark = pytest.mark.django_db


def _place(event, actor, **moved):
    values = {
        "starts_at": event.starts_at,
        "ends_at": event.ends_at,
        "time_zone": event.time_zone,
        "online": True,
    }
    values.update(moved)
    return event_place_set(event=event, actor=actor, **values)


def test_a_round_of_an_open_window_is_not_closed_by_the_organizer() -> None:
    event, organizer, (ann, bo) = online_event(entrants=2, boards=1)
    online_board_play(event, ann, 1)
    round_ = event.rounds.get(number=1)
    with pytest.raises(AdministrationRefused, match="close with its window"):
        round_states.round_close(round_=round_, actor=organizer)
    # Bo can still play it.
    assert online_board_start(event=event, user=bo, number=1)


def test_the_window_keeps_its_start_and_its_end_moves_only_forward() -> None:
    event, organizer, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    with pytest.raises(LifeRefused, match="only its end may move"):
        _place(event, organizer, starts_at=event.starts_at + timedelta(minutes=5))
    with pytest.raises(LifeRefused, match="only its end may move"):
        _place(event, organizer, online=False)
    with pytest.raises(LifeRefused, match="needs its window"):
        _place(event, organizer, ends_at=None)
    with pytest.raises(LifeRefused, match="cannot be in the past"):
        _place(event, organizer, ends_at=timezone.now() - timedelta(minutes=1))
    later = event.ends_at + timedelta(days=1)
    assert _place(event, organizer, ends_at=later).ends_at == later
    ended = timezone.now() + timedelta(seconds=30)  # the organizer ends it now
    assert _place(event, organizer, ends_at=ended).ends_at == ended


@pytest.mark.parametrize("year", [1, 1899, 3000, 9999])
def test_a_date_outside_the_years_is_refused_with_a_message(year) -> None:
    event = EventFactory()
    td = get_user_model().objects.create_user(f"td-years-{year}", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    moment = datetime(year, 1, 1, 0, 0)
    for field in ("starts_at", "ends_at"):
        values = {"starts_at": datetime(2026, 5, 1, 9, 0), "ends_at": None, field: moment}
        if field == "ends_at":
            values["ends_at"] = moment
        with pytest.raises(LifeRefused, match="between the years 1900 and 2999"):
            event_place_set(
                event=event, actor=td, time_zone="Asia/Shanghai", online=False, **values
            )
