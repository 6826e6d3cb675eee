"""During the window the leaderboard of an online robot duplicate counts every game played so
far, each board compared among the entrants who finished it (N = their tables), although
another entrant is still playing it: entrants come at different times, and waiting for every
table of a board would leave the leaderboard empty until the close."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.factories import online_board_play, online_event
from tournaments.models import Standing
from tournaments.online import play
from tournaments.online.play import board_seat
from tournaments.standings.store import standings_recompute
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def test_the_leaderboard_counts_the_games_played_while_another_entrant_plays() -> None:
    event, _td, (ann, bo, cy) = online_event(entrants=3, boards=1)
    seat = board_seat(event, 1)
    scores = {}
    for user, seed in ((ann, "a"), (bo, "b")):
        game = online_board_play(event, user, 1, seed=seed)
        game_verify(game_id=game.pk)
        game.refresh_from_db()
        scores[user.pk] = game.score[seat]
    play.online_board_start(event=event, user=cy, number=1)  # in play, not finished
    standings_recompute(event_id=event.pk)
    rows = {
        r.player.user_id: r
        for r in Standing.objects.filter(event=event, stage=None).select_related("player")
    }
    assert set(rows) == {ann.pk, bo.pk}  # Cy has no result yet; the robots are never ranked
    a, b = scores[ann.pk], scores[bo.pk]
    # Two tables compare (top 2): 2 for the better score, 0 the worse, 1 each when equal.
    expected = {
        ann.pk: 2 if a > b else 1 if a == b else 0,
        bo.pk: 2 if b > a else 1 if a == b else 0,
    }
    assert {u: Fraction(r.total) for u, r in rows.items()} == expected
    assert {r.top for r in rows.values()} == {"2"} and {r.boards for r in rows.values()} == {1}
