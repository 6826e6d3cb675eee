"""A profile leaves out what compared the player with no one (a top of 0: each of his boards
played at one table only): "Results over time" has no point for such an event (its table row
shows "—", and a point at 0 % would read as the worst result possible), and such a board is
neither among his best boards nor his worst."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.factories import event_entered_with_standing, online_board_play, online_event
from tournaments.league.profiles import person_profile
from tournaments.models import Player
from tournaments.online.close import CLOSED, online_window_close

pytestmark = pytest.mark.django_db


def test_an_event_with_no_comparison_has_no_point_on_the_chart() -> None:
    amy = Player.objects.create(name="Amy")
    event_entered_with_standing(amy, "Club Night", total="6", top="8", percentage="75")
    event_entered_with_standing(amy, "Alone Online", total="0", top="0", percentage="0")
    profile = person_profile(amy, user=None)
    assert [p.event.name for p in profile.played] == ["Club Night", "Alone Online"]
    chart = profile.results_chart
    assert chart is not None
    # One point, the first event's 75 %, labelled with its number in the table.
    assert [(label, value) for _x, _y, label, value in chart.dots] == [("1", "75")]


def test_a_board_compared_with_no_one_is_neither_best_nor_worst() -> None:
    # Alone online: each board played at one table, a top of 0 and 0 points, which the
    # scorecard shows as "not compared"; it is no worst board, nor a best one.
    event, _organizer, (ann,) = online_event(entrants=1, boards=2)
    for number in (1, 2):
        online_board_play(event, ann, number, seed="alone")
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    player = Player.objects.get(user=ann)
    profile = person_profile(player, user=None)
    assert [p.event.pk for p in profile.played] == [event.pk]
    assert profile.best == {} and profile.worst == {}
