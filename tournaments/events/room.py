"""What the room sees of a round on the big screen (reads only): the boards in play, how far
each table has come and which tables are late, the next round's seating, and the boards whose
travellers the screen cycles through.

Vocabulary: a table *finished* a board when it has a current game of it or an adjusted score
for it (tournaments.core.embargo, where the rule is written). A *board in play* is a board of
the round in play, shown with how many of the round's tables finished it. The boards *due* at
a table are those an even pace calls for: once the round's clock has started, floor(boards ×
elapsed / length) after the clock has run `elapsed` of the table's `length` (the round's
minutes and the table's extra minutes, tournaments.events.clock), every board once its time is
up; before the clock starts, the boards the middle table of the room finished (the floor of
the median, the *room pace*), so that a room keeping one pace has no late table. A table is
*late* when it finished fewer boards than are due. The *next round* is the first round after
the one in play that is seated. The *results round* is the latest round, up to the one shown,
with a board open to everyone (tournaments.core.embargo); its open boards are the travellers
the screen shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median

from games.models import Board
from tournaments.core import embargo
from tournaments.events.clock import ClockView
from tournaments.models import Round, RoundState, Table


@dataclass(frozen=True)
class BoardInPlay:
    """Board `number` of the round, finished by `finished` of its round's `tables` tables."""

    number: int
    finished: int
    tables: int

    @property
    def done(self) -> bool:
        """Whether every table of the round finished it."""
        return self.tables > 0 and self.finished >= self.tables


@dataclass(frozen=True)
class TablePace:
    """Table `number` of the round: `finished` of the round's `boards` boards, `due` due."""

    number: int
    finished: int
    boards: int
    due: int

    @property
    def late(self) -> bool:
        """Whether the table finished fewer boards than are due."""
        return self.finished < self.due


def boards_due(*, boards: int, elapsed: timedelta, length: timedelta) -> int:
    """The boards due after `elapsed` of a table's time `length` at an even pace:
    floor(boards × elapsed / length), from 0 to `boards` (all of them once the time is up, or
    when `length` is not positive). Exact: integer microseconds, no floating point."""
    if length <= timedelta(0) or elapsed >= length:
        return boards
    if elapsed <= timedelta(0):
        return 0
    return boards * (elapsed // timedelta(microseconds=1)) // (length // timedelta(microseconds=1))


def room_pace(finished: Sequence[int]) -> int:
    """The boards the middle table finished: the floor of the median of `finished` (one count
    per table), 0 for a room of no table."""
    return int(median(finished)) if finished else 0


def boards_in_play(round_: Round) -> list[BoardInPlay]:
    """The boards of `round_` in number order, each with the tables that finished it and the
    round's tables (tournaments.core.embargo.with_open); one query."""
    rows = (
        embargo.with_open(Board.objects.filter(round=round_))
        .order_by("number")
        .values_list("number", "finished_tables", "round_tables")
    )
    return [BoardInPlay(number, finished, tables) for number, finished, tables in rows]


def table_paces(round_: Round, clock: ClockView, now: datetime) -> list[TablePace]:
    """Every table of `round_` by number with the boards it finished and the boards due at
    `now` by `clock`, the round's clock (see the module docstring); three queries. A round
    that is not in play has nothing due: none of its tables is late."""
    numbers = dict(Table.objects.filter(round=round_).values_list("pk", "number"))
    boards = Board.objects.filter(round=round_).count()
    done = embargo.finished_boards(round_)
    finished = {number: len(done.get(pk, ())) for pk, number in numbers.items()}
    due: dict[int, int]
    if round_.state != RoundState.IN_PLAY:
        due = dict.fromkeys(finished, 0)
    elif clock.started_at is not None:
        elapsed = clock.elapsed(now)
        due = {
            n: boards_due(
                boards=boards,
                elapsed=elapsed,
                length=timedelta(minutes=clock.minutes + clock.extra.get(n, 0)),
            )
            for n in finished
        }
    else:
        due = dict.fromkeys(finished, room_pace(list(finished.values())))
    return [TablePace(n, finished[n], boards, due[n]) for n in sorted(finished)]


def next_round(round_: Round) -> Round | None:
    """The first seated round of `round_`'s event after it while `round_` is in play (its
    seating is then worth showing the room), else None; one query at most."""
    if round_.state != RoundState.IN_PLAY:
        return None
    return (
        Round.objects.filter(
            event_id=round_.event_id, number__gt=round_.number, state=RoundState.SEATED
        )
        .order_by("number")
        .first()
    )


def results_boards(round_: Round) -> list[Board]:
    """The open boards of the results round of `round_` (see the module docstring) in number
    order, with their event and round; [] before any board up to `round_` is open. One query."""
    boards = list(
        embargo.with_open(
            Board.objects.filter(event_id=round_.event_id, round__number__lte=round_.number)
        )
        .filter(is_open=True)
        .select_related("event", "round")
        .order_by("-round__number", "number")
    )
    latest = boards[0].round_id if boards else None
    return [b for b in boards if b.round_id == latest]
