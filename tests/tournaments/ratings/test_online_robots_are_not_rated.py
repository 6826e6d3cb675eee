"""A finished online duplicate moves its entrants' ratings and never rates its robots: they
are left out of the comparison groups, as holders and as tablemates."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.factories import online_board_play, online_event
from tournaments.models import EventStatus, RatingEntry
from tournaments.online.close import CLOSED, online_window_close
from tournaments.ratings.service import ratings_recompute

pytestmark = pytest.mark.django_db


def test_a_finished_online_event_rates_its_entrants_and_not_its_robots() -> None:
    event, _organizer, users = online_event(entrants=3, boards=2)
    for number in (1, 2):
        for i, user in enumerate(users):
            online_board_play(event, user, number, seed=f"rated-{i}")
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    event.refresh_from_db()
    # The window's close finishes the event itself: no organizer step is needed.
    assert event.status == EventStatus.FINISHED
    ratings_recompute(full=True)
    rated = RatingEntry.objects.filter(event=event).select_related("player")
    assert {r.player.user_id for r in rated} == {u.pk for u in users}
    assert not [r for r in rated if r.player.robot]
