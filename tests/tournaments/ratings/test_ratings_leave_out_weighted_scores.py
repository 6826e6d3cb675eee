"""A weighted score is a ruling, not a result played: the rating (README, "Rating": a seat given
an adjusted score is left out) leaves out every seat of a table given one, as it leaves out an
artificial percentage."""

from __future__ import annotations

import pytest

from tests.factories import PlayerFactory
from tests.tournaments.ratings.test_ratings_stored import _event, _groups_by_hand, _stored
from tournaments.ratings import model as rating
from tournaments.ratings import service as ratings
from tournaments.standings.rulings import adjusted_scores_set, weighted_score_set

pytestmark = pytest.mark.django_db


def test_weighted_and_percentage_seats_are_left_out_of_the_rating() -> None:
    players = [PlayerFactory() for _ in range(9)]
    event, round_, td = _event(players, seed="weighted")
    first, second = round_.tables.get(number=1), round_.tables.get(number=2)
    for board in event.boards.all():
        game = board.games.get(table=first, replaced_at__isnull=True)
        # The table's own result at weight ½, the result the other way round at weight ½.
        turned = {seat: -score for seat, score in game.score.items()}
        weighted_score_set(
            table=first,
            board=board,
            results=[("1/2", game.score), ("1/2", turned)],
            reason="a ruling",
            actor=td,
        )
        adjusted_scores_set(
            table=second, board=board, scores={"S": "61.8%"}, reason="a ruling", actor=td
        )
    ratings.ratings_recompute()
    stored = _stored(event)
    # Table 1's three players and table 2's S had no result of their own left to rate.
    assert not {p.pk for p in players[:4]} & set(stored)
    assert {p.pk for p in players[4:]} <= set(stored)
    (expected,) = rating.rate_events([_groups_by_hand(event)])
    assert stored == {p: (r.mu, r.sigma, r.ordinal) for p, r in expected.items()}
