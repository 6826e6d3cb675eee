"""Adjusted scores are given only once their round has started (tournaments.standings.rulings):
a draft or seated round's boards have been played by no one, and a board is open to the public
once every table has a game or an adjusted score for it (tournaments.core.embargo), so
adjusted scores there would show its cards before play. A refused ruling changes nothing. A
closed or published round still takes them: they are the director's corrections (the
correction window; a late correction to a finished event moves the ratings after it).
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import duplicate_round
from tournaments.models import Adjustment, RoundState
from tournaments.standings.rulings import (
    RulingRejected,
    adjusted_scores_set,
    weighted_score_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    return duplicate_round(tables=2, boards=1, seed="adjust-state")


@pytest.mark.parametrize("state", [RoundState.DRAFT, RoundState.SEATED])
def test_an_adjusted_score_before_play_is_refused_and_nothing_is_stored(played, state) -> None:
    _event, round_, tables, boards = played
    round_.state = state
    round_.save(update_fields=["state"])
    # The actor None is the system, which may rule (tournaments.core.access.may_rule): the
    # refusal under test is the round's, whoever asks.
    with pytest.raises(RulingRejected, match="has not started"):
        adjusted_scores_set(table=tables[0], board=boards[0], scores={"S": "avg+"}, actor=None)
    with pytest.raises(RulingRejected, match="has not started"):
        weighted_score_set(
            table=tables[0],
            board=boards[0],
            results=[("1", {"S": 2, "E": -1, "W": -1})],
            reason="a director's weighted score",
            actor=None,
        )
    assert not Adjustment.objects.exists()


def test_a_board_of_a_round_not_started_stays_hidden_whatever_is_asked(played) -> None:
    # The trial's steps: "average" to every seat at every table of a board of a seated round
    # showed its hands and bottom to anyone.
    event, round_, tables, boards = played
    round_.state = RoundState.SEATED
    round_.save(update_fields=["state"])
    for table in tables:
        with pytest.raises(RulingRejected):
            adjusted_scores_set(
                table=table,
                board=boards[0],
                scores=dict.fromkeys("SEW", "avg"),
                actor=None,
            )
    page = Client().get(f"/events/{event.slug}/boards/{boards[0].number}/").content.decode()
    assert "This board is still being played" in page
    assert "Bottom cards" not in page


@pytest.mark.parametrize("state", [RoundState.IN_PLAY, RoundState.CLOSED, RoundState.PUBLISHED])
def test_a_started_round_takes_adjusted_scores(played, state) -> None:
    _event, round_, tables, boards = played
    round_.state = state
    round_.save(update_fields=["state"])
    (given,) = adjusted_scores_set(
        table=tables[0], board=boards[0], scores={"S": "avg+"}, actor=None
    )
    assert Adjustment.objects.get().pk == given.pk
