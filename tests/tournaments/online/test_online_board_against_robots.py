"""An entrant plays the boards of an online event against robots, end to end through the
services: each play is a table of the board's round with him at the board's seat, the finished
game goes through game_submit and the workers' verification, and once the window closes the
standings compare him with every entrant who held the same seat (matchpoints, DESIGN.md)."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest

from games.models import Game, Status
from tests.factories import online_board_play, online_event
from tournaments.models import AuditEntry, RoundState, Seat, Standing
from tournaments.online.close import CLOSED, online_window_close
from tournaments.online.play import board_seat
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db


def test_an_entrant_plays_a_board_and_the_game_goes_through_the_one_write_path() -> None:
    event, _td, (ann,) = online_event(entrants=1, boards=1)
    game = online_board_play(event, ann, 1)
    assert game.source == "seat" and game.status == Status.PENDING
    seats = {s.seat: s.player for s in Seat.objects.filter(table=game.table)}
    assert seats["S"].user == ann  # board 1: seat S
    assert seats["E"].robot and seats["W"].robot
    assert AuditEntry.objects.filter(event=event, action="game.submit").count() == 1
    assert AuditEntry.objects.filter(event=event, action="online.board_start").count() == 1


def _mp(mine: int, others: list[int]) -> int:
    """Matchpoints by the rule (DESIGN.md): 2 for each table beaten in the seat, 1 a tie."""
    return sum(2 if mine > o else 1 if mine == o else 0 for o in others)


def test_after_the_close_three_entrants_are_ranked_by_matchpoints_of_their_seats() -> None:
    event, _td, users = online_event(entrants=3, boards=2)
    scores: dict[int, dict[int, int]] = {}  # board → entrant index → his seat's raw score
    for number in (1, 2):
        seat = board_seat(event, number)
        for i, user in enumerate(users):
            game = online_board_play(event, user, number, seed=f"human-{i}")
            scores.setdefault(number, {})[i] = game.score[seat] if game.score else None
    # Nothing counted yet: verification runs with the close.
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    games = Game.objects.filter(table__round__event=event, replaced_at__isnull=True)
    assert games.count() == 6 and all(g.status == Status.VERIFIED for g in games)
    for number in (1, 2):
        seat = board_seat(event, number)
        for i, user in enumerate(users):
            game = games.get(board__number=number, table__seats__player__user=user)
            scores[number][i] = game.score[seat]
    assert set(event.rounds.values_list("state", flat=True)) == {RoundState.PUBLISHED}
    # The worked example (the same seed, robots and moves give the same games): board 1 at
    # seat S scores +2, -1, +2 → matchpoints 3 (beats Entrant 2, ties Entrant 3), 0, 3;
    # board 2 at seat E scores -2, -8, -4 → 4, 0, 2. Totals 7, 0, 5.
    assert scores == {1: {0: 2, 1: -1, 2: 2}, 2: {0: -2, 1: -8, 2: -4}}
    standings_recompute(event_id=event.pk)
    rows = {
        s.player.name: s
        for s in Standing.objects.filter(event=event, stage__isnull=True).select_related("player")
    }
    assert set(rows) == {"Entrant 1", "Entrant 2", "Entrant 3"}  # robots are unranked
    for i in range(3):
        expected = sum(
            _mp(scores[n][i], [scores[n][j] for j in range(3) if j != i]) for n in (1, 2)
        )
        row = rows[f"Entrant {i + 1}"]
        assert Fraction(row.total) == expected, (i, scores)
        assert row.boards == 2
    assert [rows[f"Entrant {i}"].total for i in (1, 2, 3)] == ["7", "0", "5"]
    assert [rows[f"Entrant {i}"].rank for i in (1, 2, 3)] == ["1", "3", "2"]
