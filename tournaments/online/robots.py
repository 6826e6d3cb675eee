"""The robots of an online event: its robot players, each robot's seed, and the robots' steps at
one table (tournaments.online's vocabulary).

The robots' steps go through the live table's write path as the system (actor None): a
timeout's one step through live_step, on the position the entrant let run out (of the robot
and his device acting at once one wins: LiveConflict); the robots' answers up to an entrant's
turn, or to the end at the close, through live_steps_by, deciding under the draft's lock, so
no device moves in between, and written at once (each step judged and audited as a device's;
one notice to the devices).
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection

from django.db.models import F

from games import steps as entry_steps
from games.models import Board
from games.robots import Robot
from tournaments.core.rules import rules_of
from tournaments.models import Entry, Event, Player, Table
from tournaments.tables import live

# The robots' names: stored (names are unique within an event), shown with the robot mark.
ROBOT_NAME = "Robot {seat}"


def robot_players(event: Event) -> dict[str, Player]:
    """Seat → the robot player of `event` for that seat, made when missing (Player.robot, an
    unranked reserve Entry: out of the standings, in every comparison). The caller holds the
    event's row lock, so that two first starts make one set."""
    found = {
        e.player.name: e.player
        for e in Entry.objects.filter(event=event, player__robot=True).select_related("player")
    }
    players = {}
    for seat in rules_of(event).seats:
        name = ROBOT_NAME.format(seat=seat)
        player = found.get(name)
        if player is None:
            player = Player.objects.create(name=name, robot=True, profile_hidden=True)
            Entry.objects.create(event=event, player=player, reserve=True, ranked=False)
        players[seat] = player
    return players


def robot_seed(event: Event, number: int, seat: str) -> str:
    """The seed of the robot of `seat` on board `number` of `event`: from the event's secret
    deal seed (its commitment when the seed is not stored here), never from the entrant, so
    that every entrant meets the same robot. Hashed: the seed itself never leaves the event."""
    secret = event.deal_seed or event.deal_commitment
    return hashlib.sha256(f"online-robot:{secret}:{number}:{seat}".encode()).hexdigest()


def robot_of(event: Event, number: int, seat: str) -> Robot:
    """The robot that plays `seat` on board `number` of `event` (its strength, its seed)."""
    return Robot(event.robot_strength, robot_seed(event, number, seat))


def robot_step(position: entry_steps.Position, robot: Robot) -> str:
    """The robot's step for the seat to move in `position`: a call during the bidding, else a
    play (canonical cards or ``pass``). The robot sees the seat's view only (games.robots).

    Raises:
        ValueError: nobody is to move (the game is over).
    """
    seat = position.to_move
    if seat is None:
        raise ValueError("the game is over: no robot is to move (R-END)")
    bidding = position.bidding
    if not bidding.done:
        return robot.call(bidding, position.deal.hands[seat])
    assert position.game is not None
    return robot.play(position.game, bottom=position.deal.bottom, calls=bidding.calls)


def robot_moves_for(*, table: Table, board: Board, human: str, at: int) -> bool:
    """The robot of `human`'s seat plays his move at `table`, on the position after `at`
    steps only (his timeout: the move he let run out, never a later one), counted in
    ``Table.robot_moves``; True when it played, False when the table moved on meanwhile."""
    state = live.live_state(table=table, board=board)
    if state.game is not None or state.position.to_move != human or at != len(state.position.steps):
        return False
    step = robot_step(state.position, robot_of(board.event, board.number, human))
    try:
        _state, error = live.live_step(
            table=table, board=board, seat=human, step=step, at=at, actor=None
        )
    except live.LiveConflict:
        return False  # he (or another sweep) moved first
    if error is not None:
        raise ValueError(f"the engine refused robot {human}'s step {step!r}: {error}")
    Table.objects.filter(pk=table.pk).update(robot_moves=F("robot_moves") + 1)
    return True


def _robots_of(board: Board) -> dict[str, Robot]:
    """Seat → the robot that plays it on `board` (robot_of), for every seat of its rules."""
    event = board.event
    return {seat: robot_of(event, board.number, seat) for seat in rules_of(event).seats}


def robots_act(*, table: Table, board: Board, human: str, for_human: int = 0) -> live.LiveState:
    """Let the robots play at `table` until it is the turn of `human` (the entrant's seat) or
    the game is over; with `for_human` > 0 the robot of his seat also plays up to that many of
    his moves (a timeout: one; the window's close: all), each counted in
    ``Table.robot_moves``. The robots' steps are one write (live.live_steps_by: one lock, one
    draft save, one notice to the devices). Returns the board at the table after them.

    Raises:
        games.records.GameRejected: the finished game refused by the write path (a bug).
        ValueError: the engine refused a robot's step (a bug).
    """
    robots = _robots_of(board)
    budget = [for_human]

    def choose(position: entry_steps.Position) -> str | None:
        seat = position.to_move
        if seat is None:
            return None
        if seat == human:
            if budget[0] <= 0:
                return None
            budget[0] -= 1
        return robot_step(position, robots[seat])

    state, seats = live.live_steps_by(table=table, board=board, choose=choose)
    played = sum(1 for seat in seats if seat == human)
    if played:
        Table.objects.filter(pk=table.pk).update(robot_moves=F("robot_moves") + played)
    return state


def robots_play(*, table: Table, board: Board, humans: Collection[str]) -> live.LiveState:
    """Let the robots play at the online table `table` (tournaments.online.tables) until the
    turn of a seat of `humans` (the entrants who play their seats themselves) or the game's
    end: every other seat is a robot's, a robot player's or one taken over from its entrant.
    One write, as robots_act. Returns the board at the table after them.

    Raises:
        games.records.GameRejected: the finished game refused by the write path (a bug).
        ValueError: the engine refused a robot's step (a bug).
    """
    robots = _robots_of(board)

    def choose(position: entry_steps.Position) -> str | None:
        seat = position.to_move
        if seat is None or seat in humans:
            return None
        return robot_step(position, robots[seat])

    state, _seats = live.live_steps_by(table=table, board=board, choose=choose)
    return state
