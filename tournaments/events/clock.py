"""The round clock: how long a round lasts, and how much of it is left at each table.

Vocabulary: a round's *clock* (tournaments.models.RoundClock) is *stopped* (never started, or
reset), *running* or *paused*. It stores the round's length M in minutes, the moment t0 it was
started, the moment p of the current pause (null while it runs) and the total P of the pauses
before. At a moment t its *elapsed* time is (p or t) − t0 − P and its *time left* is M minutes
minus that, negative once the round is over its time; a table given x *extra minutes*
(tournaments.models.TableTime) has x minutes more. Every screen counts from these stored
timestamps and the server's clock (ClockView.to_json), so a reload or a second screen shows
the same time.

Writes are the services below, one transaction each, for the event's organizers and chief
referees only (tournaments.core.access.may_run_clock), each audited (``clock.start``,
``clock.pause``, ``clock.resume``, ``clock.extra_time``, ``clock.reset``). The state changes
are conditional UPDATEs (a clock is paused only while it runs, resumed only from the pause it
is in), so of two concurrent clicks exactly one wins; a refusal raises ClockRefused and writes
nothing. Only a round that is seated or in play has a clock to run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from tournaments.core.access import Actor, may_run_clock
from tournaments.core.audit import audit_record
from tournaments.models import Event, Round, RoundClock, RoundState, Table, TableTime

# The longest round, and the most extra time one table gets (minutes): a typo such as 600
# for 60 is refused rather than shown on the big screen.
MAX_MINUTES = 600
MAX_EXTRA_MINUTES = 120
# Rounds whose clock may run: seated (players at their tables) and in play.
RUNNING_STATES = (RoundState.SEATED, RoundState.IN_PLAY)


class ClockRefused(DomainError):
    """A change to a round's clock that cannot be made; nothing was written."""


def _ms(moment: datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


@dataclass(frozen=True)
class ClockView:
    """A round's clock as read (see the module docstring); `extra` maps table numbers to
    their extra minutes (tables without any are left out)."""

    round: int | None
    minutes: int = 0
    started_at: datetime | None = None
    paused_at: datetime | None = None
    paused: timedelta = timedelta(0)
    extra: dict[int, int] = field(default_factory=dict)

    @property
    def state(self) -> str:
        """``"stopped"``, ``"running"`` or ``"paused"``."""
        if self.started_at is None:
            return "stopped"
        return "running" if self.paused_at is None else "paused"

    def elapsed(self, now: datetime) -> timedelta:
        """The time the clock has run at `now` (zero when stopped)."""
        if self.started_at is None:
            return timedelta(0)
        end = self.paused_at or now
        return max(end - self.started_at - self.paused, timedelta(0))

    def remaining(self, now: datetime, table: int | None = None) -> timedelta:
        """The time left at `now` for the round, or for table number `table` with its extra
        minutes; negative once over."""
        extra = self.extra.get(table, 0) if table is not None else 0
        return timedelta(minutes=self.minutes + extra) - self.elapsed(now)

    def to_json(self, now: datetime) -> dict[str, Any]:
        """What a page counts from: times in milliseconds since the epoch (``now`` the
        server's), the pauses in milliseconds, ``tables`` as {"table number": extra minutes}.
        Time left at the browser's t = minutes·60000 (+ the table's) − ((paused_at or t) −
        started_at − paused_ms), with t corrected by the difference between ``now`` and the
        browser's clock when the answer arrived."""
        return {
            "round": self.round,
            "state": self.state,
            "now": _ms(now),
            "minutes": self.minutes,
            "started_at": _ms(self.started_at),
            "paused_at": _ms(self.paused_at),
            "paused_ms": int(self.paused.total_seconds() * 1000),
            "tables": {str(n): m for n, m in sorted(self.extra.items())},
        }


def round_clock(round_: Round) -> ClockView:
    """The clock of `round_` (a stopped one if it was never started); two queries."""
    row = RoundClock.objects.filter(round=round_).first()
    extra = dict(
        TableTime.objects.filter(table__round=round_, extra_minutes__gt=0).values_list(
            "table__number", "extra_minutes"
        )
    )
    if row is None:
        return ClockView(round=round_.number, extra=extra)
    return ClockView(
        round=round_.number,
        minutes=row.minutes,
        started_at=row.started_at,
        paused_at=row.paused_at,
        paused=row.paused,
        extra=extra,
    )


def current_round(event: Event) -> Round | None:
    """The round the room is playing: the last round in play; else the first seated one
    (the next to play, when a stage is seated at once); else the last round; None without
    rounds. One query."""
    rounds = list(event.rounds.order_by("number"))
    in_play = [r for r in rounds if r.state == RoundState.IN_PLAY]
    if in_play:
        return in_play[-1]
    seated = [r for r in rounds if r.state == RoundState.SEATED]
    if seated:
        return seated[0]
    return rounds[-1] if rounds else None


# --- Services ------------------------------------------------------------------------------


def _allowed(actor: Actor, event: Event) -> None:
    if not may_run_clock(actor, event):
        raise ClockRefused(
            _("Only the organizers and chief referees of %(event)s run its round clock.")
            % {"event": event}
        )


def _not_running(round_: Round) -> ClockRefused:
    state = Round.objects.filter(pk=round_.pk).values_list("state", flat=True).first()
    return ClockRefused(
        _("Round %(number)s is %(state)s: its clock does not run.")
        % {"number": round_.number, "state": RoundState(state).label if state else "?"}
    )


def _runnable(round_: Round) -> Any:
    """The clock row of `round_`, to UPDATE on its own columns, once the round's row is
    locked in a state whose clock may run (a round closing meanwhile waits for this
    transaction). Conditions stay on the clock's own columns: an UPDATE filtered through a
    join would test them in a subquery, on a snapshot taken before a concurrent writer
    committed, and two concurrent pauses would both win."""
    if not Round.objects.select_for_update().filter(pk=round_.pk, state__in=RUNNING_STATES):
        raise _not_running(round_)
    return RoundClock.objects.filter(round=round_)


def _refusal(round_: Round, message: str) -> ClockRefused:
    return ClockRefused(message % {"number": round_.number})


def clock_start(
    *, round_: Round, minutes: int, actor: Actor, at: datetime | None = None
) -> ClockView:
    """Start the clock of `round_` for `minutes` (1 to MAX_MINUTES) at `at` (now by default).

    Raises:
        ClockRefused: the actor may not run the clock, minutes out of range, the round not
        seated or in play, the clock already started (reset it first).
    """
    _allowed(actor, round_.event)
    if not 1 <= minutes <= MAX_MINUTES:
        raise ClockRefused(
            _("A round lasts from 1 to %(max)s minutes, not %(minutes)s.")
            % {"max": MAX_MINUTES, "minutes": minutes}
        )
    at = at or timezone.now()
    with transaction.atomic():
        RoundClock.objects.get_or_create(round=round_)
        if not (
            _runnable(round_)
            .filter(started_at__isnull=True)
            .update(minutes=minutes, started_at=at, paused_at=None, paused=timedelta(0))
        ):
            raise _refusal(round_, _("The clock of round %(number)s is already started."))
        audit_record(
            event=round_.event,
            actor=actor,
            action="clock.start",
            obj=round_,
            changes={"minutes": minutes, "started_at": at.isoformat()},
        )
    return round_clock(round_)


def clock_pause(*, round_: Round, actor: Actor, at: datetime | None = None) -> ClockView:
    """Pause the running clock of `round_` at `at` (now by default).

    Raises:
        ClockRefused: the actor may not run the clock, the clock not running (stopped or
        already paused), the round not seated or in play.
    """
    _allowed(actor, round_.event)
    at = at or timezone.now()
    with transaction.atomic():
        if not (
            _runnable(round_)
            .filter(started_at__isnull=False, started_at__lte=at, paused_at__isnull=True)
            .update(paused_at=at)
        ):
            raise _refusal(round_, _("The clock of round %(number)s is not running."))
        audit_record(
            event=round_.event,
            actor=actor,
            action="clock.pause",
            obj=round_,
            changes={"paused_at": at.isoformat()},
        )
    return round_clock(round_)


def clock_resume(*, round_: Round, actor: Actor, at: datetime | None = None) -> ClockView:
    """Restart the paused clock of `round_` at `at` (now by default); the pause is added to
    the pauses before.

    Raises:
        ClockRefused: the actor may not run the clock, the clock not paused, the round not
        seated or in play.
    """
    _allowed(actor, round_.event)
    at = at or timezone.now()
    with transaction.atomic():
        clocks = _runnable(round_)
        paused_at = clocks.values_list("paused_at", flat=True).first()
        pause = max(at - paused_at, timedelta(0)) if paused_at is not None else timedelta(0)
        # Conditional on the very pause read: a concurrent resume (or a new pause) makes
        # this UPDATE match nothing, so one pause is never counted twice.
        if paused_at is None or not clocks.filter(paused_at=paused_at).update(
            paused_at=None, paused=F("paused") + pause
        ):
            raise _refusal(round_, _("The clock of round %(number)s is not paused."))
        audit_record(
            event=round_.event,
            actor=actor,
            action="clock.resume",
            obj=round_,
            changes={"paused_seconds": round(pause.total_seconds())},
        )
    return round_clock(round_)


def clock_extra_time(*, table: Table, minutes: int, actor: Actor) -> ClockView:
    """Give `table` `minutes` (0 to MAX_EXTRA_MINUTES) of extra time on its round's clock;
    it replaces what the table had (so a repeated click gives no more).

    Raises:
        ClockRefused: the actor may not run the clock, minutes out of range, the round not
        seated or in play.
    """
    round_ = table.round
    _allowed(actor, round_.event)
    if not 0 <= minutes <= MAX_EXTRA_MINUTES:
        raise ClockRefused(
            _("Extra time is from 0 to %(max)s minutes, not %(minutes)s.")
            % {"max": MAX_EXTRA_MINUTES, "minutes": minutes}
        )
    with transaction.atomic():
        _runnable(round_)
        before = (
            TableTime.objects.filter(table=table).values_list("extra_minutes", flat=True).first()
        )
        TableTime.objects.update_or_create(table=table, defaults={"extra_minutes": minutes})
        audit_record(
            event=round_.event,
            actor=actor,
            action="clock.extra_time",
            obj=table,
            changes={"extra_minutes": [before or 0, minutes]},
        )
    return round_clock(round_)


def clock_reset(*, round_: Round, actor: Actor) -> ClockView:
    """Stop the clock of `round_` and clear its tables' extra time (a clock started by
    mistake); it can then be started again.

    Raises:
        ClockRefused: the actor may not run the clock, the clock not started, the round not
        seated or in play.
    """
    _allowed(actor, round_.event)
    with transaction.atomic():
        if not (
            _runnable(round_)
            .filter(started_at__isnull=False)
            .update(started_at=None, paused_at=None, paused=timedelta(0))
        ):
            raise _refusal(round_, _("The clock of round %(number)s is not started."))
        TableTime.objects.filter(table__round=round_).delete()
        audit_record(event=round_.event, actor=actor, action="clock.reset", obj=round_)
    return round_clock(round_)
