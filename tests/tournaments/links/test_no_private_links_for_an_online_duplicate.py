"""An online robot duplicate has no private link and no correction window: its entrants play
with their accounts, each his own seat. A trial found the organizer's dashboard could make table
links for its rounds, player links for its entrants and its robots (four links for one entrant
and three robots) and a correction window; each is refused now, nothing made."""

from __future__ import annotations

import pytest

from tests.factories import online_event
from tournaments.links.tokens import (
    LinkRefused,
    correction_window_set,
    player_links_make,
    table_links_make,
)
from tournaments.models import Event, PlayerLink, TableLink
from tournaments.online import play

pytestmark = pytest.mark.django_db


def test_no_table_link_player_link_or_correction_window() -> None:
    event, td, (ann,) = online_event(entrants=1, boards=2)
    play.online_board_start(event=event, user=ann, number=1)
    round_ = event.rounds.get(number=1)
    with pytest.raises(LinkRefused, match="online against robots"):
        table_links_make(event=event, actor=td, round_=round_)
    with pytest.raises(LinkRefused, match="online against robots"):
        player_links_make(event=event, actor=td)
    with pytest.raises(LinkRefused, match="online against robots"):
        correction_window_set(event=event, actor=td, minutes=10)
    assert not TableLink.objects.filter(round__event=event).exists()
    assert not PlayerLink.objects.filter(event=event).exists()
    assert Event.objects.get(pk=event.pk).correction_minutes == event.correction_minutes
