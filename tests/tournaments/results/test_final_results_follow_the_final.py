"""The final results rank the players of the stage reached by the last cut first, in that
stage's standings, then the others in the whole event's (tournaments.results.prizes.
overall_rows): a trial's non-finalist, ahead on the whole event's percentage, was placed above
a finalist and took the prize of the final's runner-up."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, PlayerFactory
from tournaments.models import Prize, Stage, StageEntry, Standing
from tournaments.results import prizes

pytestmark = pytest.mark.django_db


def _row(event, stage, player, position: int, rank: str, percentage: str) -> None:
    Standing.objects.create(
        event=event,
        stage=stage,
        player=player,
        method="matchpoints",
        position=position,
        rank=rank,
        total="1",
        top="2",
        percentage=percentage,
        boards=1,
    )


def test_the_finalists_come_first_in_the_finals_order() -> None:
    event = EventFactory()
    qualifying = Stage.objects.create(event=event, number=1, name="Q", cut=2)
    final = Stage.objects.create(event=event, number=2, name="F", carry_over=True)
    leo, mia, ned, oz = (PlayerFactory(name=n) for n in ("Leo", "Mia", "Ned", "Oz"))
    for position, player in enumerate((mia, leo), start=1):
        StageEntry.objects.create(stage=final, player=player, position=position)
    # The whole event: Ned (no final boards) tops it on his qualifying percentage.
    for position, (player, rank) in enumerate(
        ((ned, "1"), (leo, "2"), (mia, "3="), (oz, "3=")), start=1
    ):
        _row(event, None, player, position, rank, "60")
    _row(event, qualifying, mia, 1, "1", "70")
    _row(event, final, leo, 1, "1", "65")
    _row(event, final, mia, 2, "2", "55")
    Prize.objects.create(event=event, category="", place=2, description="Runner-up")
    overall = prizes.final_results(event)[0]
    assert [(r.standing.player.name, r.place) for r in overall.rows] == [
        ("Leo", "1"),
        ("Mia", "2"),
        ("Ned", "3"),
        ("Oz", "4"),
    ]
    assert overall.rows[1].prize is not None and overall.rows[1].standing.player == mia


def test_an_event_without_a_cut_keeps_its_standings_and_their_ties() -> None:
    event = EventFactory()
    a, b, c = (PlayerFactory(name=n) for n in ("A", "B", "C"))
    for position, (player, rank) in enumerate(((a, "1"), (b, "2="), (c, "2=")), start=1):
        _row(event, None, player, position, rank, "50")
    overall = prizes.final_results(event)[0]
    assert [r.place for r in overall.rows] == ["1", "2=", "2="]
