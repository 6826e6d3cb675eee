"""The cut of a stage waits until every round of the stage is closed: a round seated or in
play refuses it and nobody is eliminated.
"""

from __future__ import annotations

import pytest

from ddz_site.kernel.errors import DomainError
from games.models import Game
from tests.factories import round_fill
from tournaments.events import round_states, rounds, stages
from tournaments.models import StageEntry
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def test_the_cut_waits_for_every_round_of_its_stage(event_in_play) -> None:
    event, first, users = event_in_play
    td = users["td"]
    stage = first.stage
    stage.cut = 3
    stage.save()
    stages.stage_create(event=event, actor=td, kind="final")
    second = rounds.round_create(event=event, stage=stage, actor=td)
    stages.round_seat_swiss(round_=second, actor=td)
    rounds.round_deal(round_=second, boards=1, actor=td)
    round_fill(first)
    round_states.round_close(round_=first, actor=td)
    # Round 2 is seated, not closed: no cut, nobody eliminated.
    with pytest.raises(DomainError, match="not closed yet: round 2"):
        stages.stage_cut(stage=stage, actor=td)
    round_states.round_start(round_=second, actor=td)
    with pytest.raises(DomainError, match="not closed yet: round 2"):
        stages.stage_cut(stage=stage, actor=td)
    assert not StageEntry.objects.exists()
    round_fill(second)
    for game in Game.objects.filter(board__event=event):
        game_verify(game_id=game.pk)
    round_states.round_close(round_=second, actor=td)
    assert len(stages.stage_cut(stage=stage, actor=td)) == 3
