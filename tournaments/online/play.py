"""An entrant's play of an online event: his boards (`entrant_boards`), starting one
(`online_board_start`), his device at it (`entrant_device`), a step of his and the robots' answer
(`step_and_robots`, the one call of both device doors), the seconds left for the move now
(`move_seconds_left`, which every device is told), the move played by the robot when its time
ran out (`timeout_check`) and, at online tables, leaving his table (`online_board_leave`).
Vocabulary: tournaments.online; an event with online tables is seated and played as
tournaments.online.tables says, each call here handing it on.
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

from games.models import Board, EntryDraft, Game
from tournaments.core.access import Actor, signed_in
from tournaments.core.audit import audit_record
from tournaments.core.rules import rules_of
from tournaments.links.devices import Device, DeviceRefused
from tournaments.links.tokens import DEVICE_CHARS, LinkBearer
from tournaments.models import Entry, Event, Player, Round, RoundState, Seat, Table
from tournaments.online import tables as online_tables
from tournaments.online.entry import entrant_refusal
from tournaments.online.robots import robot_moves_for, robot_players, robots_act, robots_play
from tournaments.online.window import (
    OnlineRefused,
    is_online_duplicate,
    is_online_tables,
    window_refusal,
)
from tournaments.tables import live


def board_seat(event: Event, number: int) -> str:
    """The seat every entrant holds on board `number` of `event` (R-SEAT order, rotating by
    board number: S, E, W, S, … at three players)."""
    seats = rules_of(event).seats
    return seats[(number - 1) % len(seats)]


def entrant_of(event: Event, user: Actor) -> Player | None:
    """The player `user`'s account plays `event` as: his Player (Player.user) entered in it
    and not withdrawn; None for anyone else."""
    account = signed_in(user)
    if account is None:
        return None
    entry = (
        Entry.objects.filter(
            event=event, player__user=account, player__robot=False, withdrawn_from__isnull=True
        )
        .select_related("player")
        .first()
    )
    return entry.player if entry is not None else None


@dataclass(frozen=True)
class EntrantBoard:
    """One board of an online event as its entrant sees it: its ``number``, his ``seat`` (at
    online tables "" until he is seated), his ``table`` (None: not started), ``state``
    (``not_started``, ``waiting``: his online table waits for entrants, ``in_play``,
    ``finished``), his ``game`` once finished, the ``robot_moves`` played for him (robot
    duplicate) and ``robot_from``, the step from which the robot took his seat over at an
    online table (None: he played it himself)."""

    number: int
    seat: str
    table: Table | None
    state: str
    game: Game | None
    robot_moves: int
    robot_from: int | None = None


def entrant_boards(event: Event, player: Player) -> list[EntrantBoard]:
    """Every board of `event`, in number order, with `player`'s play of it. Three queries."""
    seats = {
        s.table.round_id: s
        for s in Seat.objects.filter(table__round__event=event, player=player).select_related(
            "table"
        )
    }
    tables = {round_id: s.table for round_id, s in seats.items()}
    at_tables = is_online_tables(event)
    games = {
        g.table_id: g
        for g in Game.objects.filter(
            table_id__in=[t.pk for t in tables.values()], replaced_at__isnull=True
        )
    }
    out = []
    for board in Board.objects.filter(event=event).order_by("number"):
        table = tables.get(board.round_id) if board.round_id is not None else None
        game = games.get(table.pk) if table is not None else None
        state = "not_started" if table is None else "finished" if game else "in_play"
        if table is not None and table.waiting_until is not None:
            state = "waiting"
        moves = table.robot_moves if table is not None else 0
        mine = seats.get(board.round_id) if board.round_id is not None else None
        seat = (
            mine.seat if mine is not None else "" if at_tables else board_seat(event, board.number)
        )
        robot_from = mine.robot_from if mine is not None else None
        out.append(EntrantBoard(board.number, seat, table, state, game, moves, robot_from))
    return out


def _board(event: Event, number: int) -> Board:
    board = Board.objects.filter(event=event, number=number, round__isnull=False).first()
    if board is None:
        raise OnlineRefused(_("%(event)s has no board %(n)s.") % {"event": event.name, "n": number})
    return board


def online_board_start(
    *, event: Event, user: Actor, number: int, now: datetime | None = None
) -> Table:
    """Start board `number` of `event` for the entrant `user`: his table of the board's round,
    him at the board's seat (`board_seat`) and the robots at the others, the robots played up
    to his first turn; at online tables, his seat at a table of entrants
    (tournaments.online.tables.table_join: the board starts once the table is full). A board
    started already answers with its table (one play a board). Audited
    (``online.board_start``).

    Raises:
        OnlineRefused: the window not open (its times said), `user` not entered or one of the
            event's officials (tournaments.online.entry.entrant_refusal), no such board, its
            round not in play.
    """
    refusal = window_refusal(event, now)
    if refusal is not None:
        raise OnlineRefused(refusal)
    player = entrant_of(event, user)
    if player is None:
        raise OnlineRefused(_("Only an entrant of %(event)s plays its boards.") % {"event": event})
    refusal = entrant_refusal(event, user)  # an entrant made an official since
    if refusal is not None:
        raise OnlineRefused(refusal)
    board = _board(event, number)
    if is_online_tables(event):
        table = online_tables.table_join(
            event=event, board=board, player=player, actor=user, now=now
        )
        return Table.objects.select_related("round__event").get(pk=table.pk)
    seat = board_seat(event, number)
    with transaction.atomic():
        # The event's row orders the starts (and the close, which locks it too): one set of
        # robot players, one table a play, no start in a round closed meanwhile.
        locked = Event.objects.select_for_update().get(pk=event.pk)
        mine = Seat.objects.filter(table__round=board.round, player=player).first()
        table = mine.table if mine is not None else _table_make(locked, board, player, seat, user)
    # Also for a play started before (a robot's turn left by a failure): up to his turn.
    robots_act(table=table, board=board, human=seat)
    return Table.objects.select_related("round__event").get(pk=table.pk)


def _table_make(event: Event, board: Board, player: Player, seat: str, actor: Actor) -> Table:
    """A new table of `board`'s round: `player` at `seat`, the robots at the others, its draft
    (the clock of his first move), audited as `actor`'s; the caller holds the event's row lock.

    Raises:
        OnlineRefused: the round is not in play.
    """
    # Read again under the lock: the close may have closed it since the board was read.
    round_ = Round.objects.get(boards=board)
    if round_.state != RoundState.IN_PLAY:
        raise OnlineRefused(_("Board %(n)s is not in play.") % {"n": board.number})
    robots = robot_players(event)
    last = round_.tables.aggregate(n=Max("number"))["n"] or 0
    table = Table.objects.create(round=round_, number=last + 1)
    Seat.objects.bulk_create(
        Seat(table=table, seat=s, player=player if s == seat else robots[s])
        for s in rules_of(event).seats
    )
    EntryDraft.objects.get_or_create(table=table, board=board)
    audit_record(
        event=event,
        actor=actor,
        action="online.board_start",
        obj=table,
        changes={"board": board.number, "seat": seat, "player": player.name},
    )
    return table


def entrant_device(user: Actor, slug: str, number: int, *, device: str = "") -> Device:
    """The seat device of the entrant `user` on board `number` of the online event `slug`: his
    own seat of his table, never another (the referee device is no entrant's).

    Raises:
        DeviceRefused: no such event or board, or a board he has not started (404); not an
            entrant (403).
    """
    event = Event.objects.filter(slug=slug).first()
    if event is None or not is_online_duplicate(event):
        raise DeviceRefused(_("There is no such online event."), status=404)
    player = entrant_of(event, user)
    account = signed_in(user)
    if player is None or account is None:
        raise DeviceRefused(_("Only an entrant of %(event)s plays its boards.") % {"event": event})
    board = (
        Board.objects.select_related("event", "round")
        .filter(event=event, number=number, round__isnull=False)
        .first()
    )
    mine = (
        Seat.objects.select_related("table__round__event")
        .filter(table__round=board.round, player=player)
        .first()
        if board is not None
        else None
    )
    if board is None or mine is None:
        raise DeviceRefused(
            _("You have not started board %(n)s: start it from your page.") % {"n": number},
            status=404,
        )
    via: dict[str, Any] = {
        "link": "online",
        "id": account.pk,
        "table_id": mine.table_id,
        "seat": mine.seat,
    }
    return Device(
        None, mine.table, board, mine.seat, LinkBearer(via=via, device=device[:DEVICE_CHARS])
    )


def timeout_check(*, table: Table, board: Board, now: datetime | None = None) -> bool:
    """Play the entrant's move by the robot of his seat when its time ran out (his turn began
    ``move_seconds`` ago or more: the table's draft was saved last then), and the robots'
    answer; True when it did. At online tables the robot takes his seat over for the rest of
    the board (tournaments.online.tables.table_timeout_check). Asked by the sweep and whenever
    a device of the table reads the board."""
    event = board.event
    if is_online_tables(event):
        return online_tables.table_timeout_check(table=table, board=board, now=now)
    if not is_online_duplicate(event) or event.online_closed_at is not None:
        return False
    draft = EntryDraft.objects.filter(table=table, board=board).only("updated_at", "steps").first()
    now = now or timezone.now()
    if draft is None or draft.updated_at + timedelta(seconds=event.move_seconds) > now:
        return False
    human = board_seat(event, board.number)
    if not robot_moves_for(table=table, board=board, human=human, at=len(draft.steps)):
        return False
    robots_act(table=table, board=board, human=human)
    return True


def move_seconds_left(*, table: Table, board: Board, now: datetime | None = None) -> int | None:
    """Whole seconds left for the move of the seat to move at `table` on `board` of an online
    event before the robot plays it (`timeout_check`): the turn began when the table's draft
    was saved last, and has ``move_seconds``; 0 once overdue. None when no move is timed: not
    an online event, its window closed, or no draft (an online table still waiting). One
    query; the caller knows whether the board is still in play."""
    event = board.event
    if not is_online_duplicate(event) or event.online_closed_at is not None:
        return None
    saved = (
        EntryDraft.objects.filter(table=table, board=board)
        .values_list("updated_at", flat=True)
        .first()
    )
    if saved is None:
        return None
    due = saved + timedelta(seconds=event.move_seconds)
    # Seconds left, not the time itself: the device's clock need not agree with the server's.
    return max(0, math.ceil((due - (now or timezone.now())).total_seconds()))


def robot_moves_at(table: Table) -> int:
    """How many of the entrant's moves the robot played at his `table` of an online event
    against robots (Table.robot_moves: a move's time ran out, or the window closed), read
    now: the robots' writes count them in the database. One query."""
    return Table.objects.filter(pk=table.pk).values_list("robot_moves", flat=True).first() or 0


def live_state_now(*, table: Table, board: Board) -> live.LiveState:
    """The board at `table` now (tournaments.tables.live.live_state), an online entrant's
    overdue move played by the robot first (`timeout_check`); an online table whose wait is
    over filled by robots first (tournaments.online.tables.waiting_at)."""
    if is_online_tables(board.event):
        online_tables.waiting_at(table=table, board=board)
    timeout_check(table=table, board=board)
    return live.live_state(table=table, board=board)


def step_and_robots(
    *, table: Table, board: Board, seat: str | None, step: str, at: int, actor: Actor
) -> tuple[live.LiveState, dict[str, Any] | None]:
    """One step of a device (tournaments.tables.live.live_step, the same answers), then, at a
    table of an online event, the robots' steps until the entrant's turn or the end: what both
    device doors (HTTP and socket) call.

    Raises:
        OnlineRefused: an online event's window is not open; as live_step otherwise.
    """
    event = board.event
    if not is_online_duplicate(event):
        return live.live_step(table=table, board=board, seat=seat, step=step, at=at, actor=actor)
    refusal = window_refusal(event)
    if refusal is not None:
        raise OnlineRefused(refusal)
    timeout_check(table=table, board=board)
    at_tables = is_online_tables(event)
    refusal = online_tables.step_refusal(table, seat) if at_tables else None
    if refusal is not None:
        raise OnlineRefused(refusal)
    state, error = live.live_step(
        table=table, board=board, seat=seat, step=step, at=at, actor=actor
    )
    if error is None and state.game is None and at_tables:
        state = robots_play(table=table, board=board, humans=online_tables.humans_of(table))
    elif error is None and state.game is None:
        state = robots_act(table=table, board=board, human=board_seat(event, board.number))
    return state, error


def online_board_leave(*, event: Event, user: Actor, number: int) -> int | None:
    """The entrant `user` leaves his online table of board `number` of `event`
    (tournaments.online.tables.table_leave): the step count from which the robot plays his
    seat, or None when he left a table still waiting (his seat freed: he may start the board
    again). Audited (``online.table_leave``).

    Raises:
        OnlineRefused: not an event with online tables, the window not open, `user` not
            entered, no such board, no table of his at it, or its game over.
    """
    if not is_online_tables(event):
        raise OnlineRefused(
            _("The boards of %(event)s are played to their end: there is no table to leave.")
            % {"event": event.name}
        )
    refusal = window_refusal(event)
    if refusal is not None:
        raise OnlineRefused(refusal)
    player = entrant_of(event, user)
    if player is None:
        raise OnlineRefused(_("Only an entrant of %(event)s plays its boards.") % {"event": event})
    board = _board(event, number)
    return online_tables.table_leave(board=board, player=player, actor=user)
