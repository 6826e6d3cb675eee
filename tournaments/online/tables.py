"""Online tables: the second form of online play (issue 22), where the entrants of an event with
``Event.online_tables`` play each board together, seated as they arrive, robots filling the
seats nobody took in time and taking over from a player who leaves. Vocabulary: tournaments.online,
and:

- *waiting table*: a table of round n made when an entrant started board n and found no other
  waiting table of that round; ``Table.waiting_until`` (made + ``Event.seat_wait_seconds``) is
  when robots fill the seats still empty. An arriving entrant joins the oldest waiting table of
  the round whose wait is not over (`table_join`), at its first free seat in the rules' seat
  order (R-SEAT: S, E, W at three players; two, four or five seats by the event's rules).
- *full*: every seat has an entrant, or the wait is over and the event's robot players
  (tournaments.online.robots.robot_players) sat at the empty seats (`table_fill`). Only then is
  ``waiting_until`` cleared and the table's draft made (the clock of the first move): the board
  does not start before, and no device is shown a card before.
- *lazy fill*: nothing runs at a waiting table's deadline; whichever comes first fills it: a
  device of the table reading the board (`waiting_at`) or the sweep (`online_tables_sweep`, from
  tournaments.online.close.online_sweep).
- *humans*: the seats of a table whose entrants play them themselves (`humans_of`); the robots
  play every other seat (tournaments.online.robots.robots_play).
- *take-over*: the robot of a seat plays it for the rest of the board, from the step
  ``Seat.robot_from`` on: its entrant pressed "Leave the table" (`table_leave`), let a move's
  time run out (``Event.move_seconds``, `table_timeout_check`) or the window closed mid-board
  (`tables_finish`). The seat stays his, and his result is marked "played by the robot from
  move N" (N = robot_from + 1, the first step of the board made after the take-over). Leaving a
  table still waiting frees the seat instead (he saw no card: he may start the board again).

Concurrency: every change of a table's seats (an arrival, a fill, a seat freed) holds the
event's row lock, as tournaments.online.play.online_board_start does, so two entrants arriving at
once never take one seat nor make two half tables where one would do. A take-over holds the
table's draft row (tournaments.tables.live), so that the entrant's own step and the robot's
never both land. A change of the seats of a table that existed before asks for the standings with
no boards (tournaments.standings.requests.standings_request: anything changed), so that the
per-process snapshot reads the seats again. Each change tells the table's devices
(ddz_site.kernel.broadcast.table_changed), which read the table again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.broadcast import table_changed
from games.models import Board, EntryDraft, Game
from tournaments.core.access import Actor
from tournaments.core.audit import audit_record
from tournaments.core.rules import rules_of
from tournaments.models import Event, Player, Round, RoundState, Seat, Table
from tournaments.online.robots import robot_of, robot_players, robot_step, robots_play
from tournaments.online.window import OnlineRefused, is_online_tables
from tournaments.standings.requests import standings_request
from tournaments.tables import live


@dataclass(frozen=True)
class Waiting:
    """A waiting table as its devices show it: ``seats``, (seat, the entrant's name or None
    for a seat still free) in the rules' order, and ``until``, when robots fill the free
    seats."""

    seats: list[tuple[str, str | None]]
    until: datetime

    def seconds_left(self, now: datetime | None = None) -> int:
        """Whole seconds until robots fill the free seats (0 once due)."""
        left = (self.until - (now or timezone.now())).total_seconds()
        return max(0, math.ceil(left))

    def as_json(self, now: datetime | None = None) -> dict[str, Any]:
        """``{"seats": [{"seat", "name"}], "seconds"}``: what a waiting device is sent."""
        return {
            "seats": [{"seat": s, "name": n} for s, n in self.seats],
            "seconds": self.seconds_left(now),
        }


def humans_of(table: Table) -> frozenset[str]:
    """The seats of `table` whose entrants play them themselves: neither a robot player's nor
    taken over by the robot (``Seat.robot_from``). One query."""
    return frozenset(
        Seat.objects.filter(table=table, player__robot=False, robot_from__isnull=True).values_list(
            "seat", flat=True
        )
    )


def seat_left_at(table: Table, seat: str | None) -> int | None:
    """The step from which the robot plays `seat` at `table` (``Seat.robot_from``), None while
    its entrant plays it (or `seat` is None). One query."""
    if seat is None:
        return None
    return (
        Seat.objects.filter(table=table, seat=seat)
        .values_list("robot_from", flat=True)
        .order_by()
        .first()
    )


def step_refusal(table: Table, seat: str | None) -> str | None:
    """Why the entrant at `seat` of the online table `table` may not step now, in the reader's
    language: the table still waits for entrants, or the robot took his seat over; None when
    he may."""
    if Table.objects.filter(pk=table.pk, waiting_until__isnull=False).exists():
        return _("The board starts once the table is full.")
    left = seat_left_at(table, seat)
    if left is not None:
        return _("The robot plays your seat from move %(n)s on.") % {"n": left + 1}
    return None


def _seated(table: Table) -> dict[str, Seat]:
    return {s.seat: s for s in Seat.objects.filter(table=table).select_related("player")}


def table_join(
    *, event: Event, board: Board, player: Player, actor: Actor, now: datetime | None = None
) -> Table:
    """Seat the entrant `player` for `board` of the online-tables `event` (module docstring):
    at his table of the board's round if he has one, else at the first free seat of the
    round's oldest waiting table whose wait is not over, else at the first seat of a new
    waiting table; the table starts its board once full. Audited (``online.board_start``, and
    ``online.table_full`` when his arrival fills the table). The caller checked the window
    and his entry.

    Raises:
        OnlineRefused: the board's round is not in play.
    """
    with transaction.atomic():
        # The event's row orders the arrivals (and the close, which locks it too).
        locked = Event.objects.select_for_update().get(pk=event.pk)
        now = now or timezone.now()
        mine = Seat.objects.filter(table__round=board.round_id, player=player).first()
        if mine is not None:
            return mine.table
        # Read again under the lock: the close may have closed it since the board was read.
        round_ = Round.objects.get(boards=board)
        if round_.state != RoundState.IN_PLAY:
            raise OnlineRefused(_("Board %(n)s is not in play.") % {"n": board.number})
        seats = rules_of(locked).seats
        table = round_.tables.filter(waiting_until__gt=now).order_by("number").first()
        joined = table is not None
        if table is None:
            last = round_.tables.aggregate(n=Max("number"))["n"] or 0
            until = now + timedelta(seconds=locked.seat_wait_seconds)
            table = Table.objects.create(round=round_, number=last + 1, waiting_until=until)
        taken = _seated(table)
        seat = next(s for s in seats if s not in taken)
        Seat.objects.create(table=table, seat=seat, player=player)
        audit_record(
            event=locked,
            actor=actor,
            action="online.board_start",
            obj=table,
            changes={"board": board.number, "seat": seat, "player": player.name},
        )
        if len(taken) + 1 == len(seats):
            _table_start(locked, table, board, robots=[])
        if joined:
            # A seat added to a table the standings' snapshot may know.
            standings_request(event_id=locked.pk)
        table_changed(table_id=table.pk, board_number=board.number)
    return table


def _table_start(event: Event, table: Table, board: Board, *, robots: list[str]) -> None:
    """`table` is full: its wait cleared, its draft made (the clock of the first move),
    audited as the system's (``online.table_full``, with the seats the `robots` took); the
    caller holds the event's row lock."""
    Table.objects.filter(pk=table.pk).update(waiting_until=None)
    table.waiting_until = None
    EntryDraft.objects.get_or_create(table=table, board=board)
    audit_record(
        event=event,
        actor=None,
        action="online.table_full",
        obj=table,
        changes={"board": board.number, "robots": robots},
    )


def _fill_locked(event: Event, table: Table, board: Board, now: datetime, force: bool) -> bool:
    """Robots sit at the empty seats of `table` if it is still waiting and its wait is over
    (or `force`), and it starts; True when it did. The caller holds the event's row lock."""
    fresh = Table.objects.filter(pk=table.pk, waiting_until__isnull=False).first()
    if fresh is None or fresh.waiting_until is None:
        return False
    if not force and fresh.waiting_until > now:
        return False
    taken = _seated(fresh)
    robots = robot_players(event)
    empty = [s for s in rules_of(event).seats if s not in taken]
    Seat.objects.bulk_create(Seat(table=fresh, seat=s, player=robots[s]) for s in empty)
    _table_start(event, fresh, board, robots=empty)
    if empty:
        # Seats added to a table the standings' snapshot may know.
        standings_request(event_id=event.pk)
    table_changed(table_id=table.pk, board_number=board.number)
    table.waiting_until = None
    return True


def table_fill(
    *, table: Table, board: Board, now: datetime | None = None, force: bool = False
) -> bool:
    """Fill the waiting `table` with robots once its wait is over (`force`: now, the window's
    close) and let them play up to an entrant's turn; True when it was filled now, False when
    it is full already or still waits."""
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=board.event_id)
        filled = _fill_locked(locked, table, board, now or timezone.now(), force)
    if filled:
        robots_play(table=table, board=board, humans=humans_of(table))
    return filled


def waiting_at(*, table: Table, board: Board, now: datetime | None = None) -> Waiting | None:
    """The waiting of `table` as its devices show it, after filling it when its wait is over
    (the lazy fill); None once it is full (or at any table that never waited)."""
    now = now or timezone.now()
    until = Table.objects.filter(pk=table.pk).values_list("waiting_until", flat=True).first()
    if until is not None and until <= now:
        table_fill(table=table, board=board, now=now)
        # Filled now, or by another device or the sweep meanwhile: read it again.
        until = Table.objects.filter(pk=table.pk).values_list("waiting_until", flat=True).first()
    if until is None:
        return None
    taken = _seated(table)
    seats = [(s, taken[s].player.name if s in taken else None) for s in rules_of(board.event).seats]
    return Waiting(seats=seats, until=until)


def _take_over(
    *, table: Table, board: Board, seat: str, actor: Actor, why: str, at: int | None = None
) -> int | None:
    """The robot of `seat` takes over from its entrant at `table` from the board's step count
    now (or only if it is still `at`), marked in ``Seat.robot_from`` and audited
    (``online.table_leave`` when he left, else ``online.robot_takeover`` with `why`); when it
    is his turn the robot plays it at once, under the same draft lock, so that his own step
    made meanwhile is refused as a stale one. The step count taken over from, or None when
    the table moved on from `at` or the seat was taken over already."""
    with transaction.atomic():
        draft = EntryDraft.objects.select_for_update().filter(table=table, board=board).first()
        steps = len(draft.steps) if draft is not None else 0
        if at is not None and steps != at:
            return None
        if not Seat.objects.filter(table=table, seat=seat, robot_from__isnull=True).update(
            robot_from=steps
        ):
            return None
        audit_record(
            event=board.event,
            actor=actor,
            action="online.table_leave" if why == "left" else "online.robot_takeover",
            obj=table,
            changes={"board": board.number, "seat": seat, "robot_from": steps, "why": why},
        )
        state = live.live_state(table=table, board=board)
        if state.game is None and state.position.to_move == seat:
            step = robot_step(state.position, robot_of(board.event, board.number, seat))
            _after, error = live.live_step(
                table=table, board=board, seat=seat, step=step, at=steps, actor=None
            )
            if error is not None:
                raise ValueError(f"the engine refused robot {seat}'s step {step!r}: {error}")
        # Every device of the table reads the seats' marks again (a notice without steps): his
        # own device its "left", the others' the seat taken over (their "taken_over").
        table_changed(table_id=table.pk, board_number=board.number)
    return steps


def table_timeout_check(*, table: Table, board: Board, now: datetime | None = None) -> bool:
    """At the online table `table`, when the move of the seat to move is overdue (its turn
    began ``move_seconds`` ago or more: the draft was saved last then): its robot takes over
    for the rest of the board if an entrant held it (marked, ``online.robot_takeover``), and
    the robots play up to the next entrant's turn; True when anything was played."""
    event = board.event
    if not is_online_tables(event) or event.online_closed_at is not None:
        return False
    draft = EntryDraft.objects.filter(table=table, board=board).only("updated_at", "steps").first()
    now = now or timezone.now()
    if draft is None or draft.updated_at + timedelta(seconds=event.move_seconds) > now:
        return False
    state = live.live_state(table=table, board=board)
    seat = state.position.to_move
    if state.game is not None or seat is None:
        return False
    at = len(state.position.steps)
    humans = humans_of(table)
    if seat in humans:
        if (
            _take_over(table=table, board=board, seat=seat, actor=None, why="timeout", at=at)
            is None
        ):
            return False
        humans = humans - {seat}
    after = robots_play(table=table, board=board, humans=humans)
    return len(after.position.steps) > at or after.game is not None


def table_leave(*, board: Board, player: Player, actor: Actor) -> int | None:
    """The entrant `player` leaves his table of `board` (his device's "Leave the table"): at a
    table still waiting his seat is freed (the table removed when nobody is left) and he may
    start the board again; else the robot of his seat takes over at once for the rest of the
    board (`_take_over`) and the robots play on. Returns the step count the robot took over
    from (leaving again answers the same), or None when his seat was freed. Audited
    (``online.table_leave``).

    Raises:
        OnlineRefused: he has no table of the board, or its game is over.
    """
    with transaction.atomic():
        locked = Event.objects.select_for_update().get(pk=board.event_id)
        mine = (
            Seat.objects.select_related("table")
            .filter(table__round=board.round_id, player=player)
            .first()
        )
        if mine is None:
            raise OnlineRefused(
                _("You have not started board %(n)s: there is no table to leave.")
                % {"n": board.number}
            )
        table = mine.table
        if Game.objects.filter(table=table, board=board, replaced_at__isnull=True).exists():
            raise OnlineRefused(_("Board %(n)s is over at your table.") % {"n": board.number})
        if mine.robot_from is not None:
            return mine.robot_from
        waiting = table.waiting_until is not None
        if waiting and not _fill_locked(locked, table, board, timezone.now(), force=False):
            _seat_free(locked, mine, board, actor)
            return None
    at = _take_over(table=table, board=board, seat=mine.seat, actor=actor, why="left")
    robots_play(table=table, board=board, humans=humans_of(table))
    return at if at is not None else seat_left_at(table, mine.seat)


def _seat_free(event: Event, seat: Seat, board: Board, actor: Actor) -> None:
    """The entrant of `seat` leaves its waiting table: the seat freed, the table removed when
    nobody is left at it; the caller holds the event's row lock."""
    table = seat.table
    seat.delete()
    audit_record(
        event=event,
        actor=actor,
        action="online.table_leave",
        obj=table,
        changes={"board": board.number, "seat": seat.seat, "waiting": True},
    )
    # A seat (or a table) gone that the standings' snapshot may know.
    standings_request(event_id=event.pk)
    if not Seat.objects.filter(table=table).exists():
        table.delete()
        return
    table_changed(table_id=table.pk, board_number=board.number)


def tables_finish(*, table: Table, board: Board, actor: Actor) -> live.LiveState:
    """At the window's close: `table` filled by robots if it still waits, the robot taking
    over every seat its entrant still plays (marked, ``online.robot_takeover``), and the board
    played to its end. Returns the board at the table after."""
    table_fill(table=table, board=board, force=True)
    for seat in sorted(humans_of(table)):
        _take_over(table=table, board=board, seat=seat, actor=actor, why="close")
    return robots_play(table=table, board=board, humans=())


def online_tables_sweep(now: datetime | None = None) -> int:
    """Fill with robots every waiting table whose wait is over, in every online event whose
    window is not closed (`table_fill`); the number filled."""
    now = now or timezone.now()
    due = Table.objects.filter(
        waiting_until__lte=now,
        round__event__online_tables=True,
        round__event__online_closed_at__isnull=True,
    ).select_related("round")
    filled = 0
    for table in due:
        board = Board.objects.select_related("event").filter(round_id=table.round_id).first()
        if board is not None:
            filled += table_fill(table=table, board=board, now=now)
    return filled
