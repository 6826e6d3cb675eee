"""A profile's "Results over time" has no point for an event whose matchpoints compared the
player with no one (a top of 0: each of his boards played at one table only): its table row
shows "—", and a point at 0 % would read as the worst result possible."""

from __future__ import annotations

import pytest

from tournaments.league.profiles import person_profile
from tournaments.models import Entry, Event, Player, Standing

pytestmark = pytest.mark.django_db


def _played(player: Player, name: str, *, top: str, percentage: str) -> None:
    event = Event.objects.create(name=name, slug=name.lower().replace(" ", "-"))
    Entry.objects.create(event=event, player=player)
    Standing.objects.create(
        event=event,
        player=player,
        method="matchpoints",
        position=1,
        rank="1",
        total="0" if top == "0" else "6",
        top=top,
        percentage=percentage,
        boards=2,
    )


def test_an_event_with_no_comparison_has_no_point_on_the_chart() -> None:
    amy = Player.objects.create(name="Amy")
    _played(amy, "Club Night", top="8", percentage="75")
    _played(amy, "Alone Online", top="0", percentage="0")
    profile = person_profile(amy, user=None)
    assert [p.event.name for p in profile.played] == ["Club Night", "Alone Online"]
    chart = profile.results_chart
    assert chart is not None
    # One point, the first event's 75 %, labelled with its number in the table.
    assert [(label, value) for _x, _y, label, value in chart.dots] == [("1", "75")]
