"""The end of an online event's window (`online_window_close`) and the sweep that drives online
play between requests (`online_sweep`: the online tables whose wait is over, the timeouts, the
closes due). Vocabulary: tournaments.online.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ddz_site.kernel.dispatch import ONLINE_CLOSE, ONLINE_FINISH, enqueue, tasks_run_at_once
from games.models import Board, EntryDraft, Game, Status
from tournaments.core import mail
from tournaments.core.access import SWEEP, Actor, AdministrationRefused, signed_in, sweep_for
from tournaments.core.audit import audit_record
from tournaments.events import round_states, rounds
from tournaments.models import Event, EventStatus, Round, RoundState, Table
from tournaments.online.play import board_seat, timeout_check
from tournaments.online.robots import robots_act
from tournaments.online.tables import online_tables_sweep, tables_finish
from tournaments.online.window import MIN_MOVE_SECONDS, is_online_tables
from tournaments.people import life
from tournaments.tables.verification import games_verify

# What online_window_close answers: the window closed now or before, or why not yet.
CLOSED, NOT_DUE, WAITING = "closed", "not_due", "waiting"


def _boards_in_play(event: Event) -> list[tuple[Table, Board]]:
    """Every started play of `event` with no game stored yet, with its board."""
    boards = {b.round_id: b for b in Board.objects.filter(event=event).select_related("event")}
    tables = Table.objects.filter(round__event=event).exclude(
        pk__in=Game.objects.filter(table__round__event=event, replaced_at__isnull=True).values(
            "table_id"
        )
    )
    return [(t, boards[t.round_id]) for t in tables.order_by("round__number", "number")]


def online_window_close(*, event: Event, actor: Actor = SWEEP, now: datetime | None = None) -> str:
    """Close the window of the online `event` once its end is past: the robots finish every
    board still in play (the entrant's moves counted in Table.robot_moves; at online tables,
    a table still waiting filled and every entrant's seat taken over, marked in
    Seat.robot_from), its games are verified, every round closed and published, the seed
    revealed, and the event unsealed (tournaments.core.embargo). Idempotent: each part is
    skipped once done, and a close waiting for a game to settle (a claim the workers flagged
    needs a chief referee's ruling) is done by a later sweep. Audited
    (``online.window_close``, and each service's own record).

    Returns CLOSED (now or before), NOT_DUE (the window is open, or not online) or WAITING.

    Raises:
        NotOrganizer: `actor` is neither an organizer nor the sweep (access.SWEEP, the
            default).
    """
    now = now or timezone.now()
    fresh = Event.objects.get(pk=event.pk)
    if fresh.online_closed_at is not None:
        return CLOSED
    if not (fresh.online and fresh.online_robots) or fresh.ends_at is None or now < fresh.ends_at:
        return NOT_DUE
    in_play = _boards_in_play(fresh)
    if in_play and _finishing(fresh, in_play, actor, now):
        return WAITING  # the workers finish them, chunk by chunk; the last one closes
    _boards_finish(fresh, in_play, actor)
    _pending_verify(fresh)
    try:
        with transaction.atomic():
            _rounds_finish(fresh, actor)
            if fresh.deal_commitment and not Event.objects.get(pk=fresh.pk).seed_revealed:
                rounds.event_seed_reveal(event=fresh, actor=actor)
            if Event.objects.get(pk=fresh.pk).status != EventStatus.FINISHED:
                # Nothing can be played any more: the event is finished as by the organizer's
                # "Finish the event" (its results move the ratings; he may reopen it).
                life.event_finish(event=fresh, actor=actor)
            if not Event.objects.filter(pk=fresh.pk, online_closed_at__isnull=True).update(
                online_closed_at=now
            ):
                return CLOSED
            audit_record(
                event=fresh, actor=actor, action="online.window_close", obj=fresh, changes={}
            )
            mail.online_closed(fresh)  # each entrant who played, once (in this transaction)
    except AdministrationRefused:
        return WAITING  # a game not settled yet: the next sweep tries again
    event.online_closed_at = now
    return CLOSED


# At most this many boards in play are finished in the organizer's request that ends the
# window; more are left to a worker (each takes a few tens of milliseconds).
CLOSE_INLINE_BOARDS = 50
# More boards in play than this at the close are shared among the workers, this many a task
# (online_boards_finish), so that the close of 10,000 boards takes minutes on many workers,
# not an hour on one; a chunk left by a worker that died is taken again after
# FINISHING_SECONDS.
CLOSE_CHUNK = 50
FINISHING_SECONDS = 300.0


def _finishing(
    event: Event, in_play: list[tuple[Table, Board]], actor: Actor, now: datetime
) -> bool:
    """Whether the boards `in_play` of `event` are (or now will be) finished by the workers
    rather than here: while a fan-out is under way (Event.online_finishing_until), or, with
    more than CLOSE_CHUNK of them and workers to share them (no task runs in the sender's
    process), a fan-out sent now, one task a chunk (``online_finish``). A broker that cannot
    be reached leaves them to be finished here."""
    if Event.objects.filter(pk=event.pk, online_finishing_until__gt=now).exists():
        return True
    if len(in_play) <= CLOSE_CHUNK or tasks_run_at_once():
        return False
    until = now + timedelta(seconds=FINISHING_SECONDS)
    claimed = Event.objects.filter(
        Q(online_finishing_until__isnull=True) | Q(online_finishing_until__lte=now), pk=event.pk
    ).update(online_finishing_until=until)
    if not claimed:
        return True  # another close claimed it meanwhile
    asked_by = getattr(actor, "asked_by", "")
    tables = [table.pk for table, _board in in_play]
    for start in range(0, len(tables), CLOSE_CHUNK):
        if not enqueue(ONLINE_FINISH, event.pk, tables[start : start + CLOSE_CHUNK], asked_by):
            Event.objects.filter(pk=event.pk).update(online_finishing_until=None)
            return False  # the broker is away: finished here (a chunk sent meanwhile skips them)
    return True


def _boards_finish(event: Event, in_play: list[tuple[Table, Board]], actor: Actor) -> None:
    """The robots finish each board of `in_play` (its table and board): at online tables a
    table still waiting is filled and every entrant's seat taken over (marked); else the
    robot plays the entrant's moves to the end (counted in Table.robot_moves)."""
    for table, board in in_play:
        if is_online_tables(event):
            tables_finish(table=table, board=board, actor=actor)
            continue
        human = board_seat(event, board.number)
        robots_act(table=table, board=board, human=human, for_human=10_000)


def online_boards_finish(*, event: Event, table_ids: list[int], actor: Actor = SWEEP) -> str:
    """A worker's chunk of the close's fan-out (the task ``online_finish``): the boards of the
    tables `table_ids` still in play are finished (`_boards_finish`), then the close is asked
    again, which the last chunk to end completes (online_window_close). What the close
    answered."""
    wanted = set(table_ids)
    in_play = [(t, b) for t, b in _boards_in_play(event) if t.pk in wanted]
    _boards_finish(event, in_play, actor)
    if not _boards_in_play(event):
        Event.objects.filter(pk=event.pk).update(online_finishing_until=None)
    return online_window_close(event=event, actor=actor)


def online_window_end_now(*, event: Event, actor: Actor) -> str:
    """The organizer ends the window of the online `event` now (its end moved to now, as on
    the event's date form, audited there as ``online.window_end``), then closes it
    (`online_window_close`): here when CLOSE_INLINE_BOARDS boards or fewer are in play, else
    by a worker (the task ``online_close``; the sweep closes it too).

    Returns CLOSED when it is closed on return, else WAITING.

    Raises:
        NotOrganizer: `actor` is not an organizer of the event.
        tournaments.people.life.LifeRefused: the window is closed already, or the event not
            an online robot duplicate whose end may move.
    """
    end = timezone.now() + timedelta(seconds=1)
    life.event_place_set(
        event=event,
        actor=actor,
        starts_at=event.starts_at,
        ends_at=end,
        time_zone=event.time_zone,
        online=True,
        venue_name=event.venue_name,
        venue_address=event.venue_address,
        action="online.window_end",
    )
    # The close itself is the system's, as the sweep's (only it closes the rounds of a sealed
    # event), at this organizer's request: its records name him (access.sweep_for); his
    # ending is audited by the date form's service, as his own action.
    user = signed_in(actor)
    asked_by = user.get_username() if user is not None else ""
    if len(_boards_in_play(event)) <= CLOSE_INLINE_BOARDS:
        return online_window_close(event=event, actor=sweep_for(asked_by), now=end)
    # Not sent (the broker away): the sweep closes it.
    enqueue(ONLINE_CLOSE, event.pk, asked_by, countdown=1.0)
    return WAITING


def _pending_verify(event: Event) -> None:
    """Verify the games of `event` still pending, here. A verification skips a game a worker
    holds (SKIP LOCKED) and the worker may be verifying it at this moment: its lock is waited
    for, then what the worker left pending is verified too, so that the close does not wait a
    whole sweep for a game verified a millisecond after it looked."""
    pending = Game.objects.filter(
        table__round__event=event, replaced_at__isnull=True, status=Status.PENDING
    ).values_list("pk", flat=True)
    games_verify(game_ids=list(pending))
    held = list(pending)
    if held:
        with transaction.atomic():
            list(Game.objects.select_for_update().filter(pk__in=held).values_list("pk"))
        games_verify(game_ids=list(pending))


def _rounds_finish(event: Event, actor: Actor) -> None:
    """Close, then publish, every round of `event` not published yet (the round's services).

    Raises:
        AdministrationRefused: a round whose games are not all settled.
    """
    for round_ in Round.objects.filter(event=event).order_by("number"):
        if round_.state == RoundState.IN_PLAY:
            round_ = round_states.round_close(round_=round_, actor=actor)
        if round_.state == RoundState.CLOSED:
            round_states.round_publish(round_=round_, actor=actor)


def online_timeouts_sweep(now: datetime | None = None) -> int:
    """Play by the robot every entrant's move whose time ran out, in every online event whose
    window is not closed (`timeout_check`); the number played. Only the drafts older than
    their own event's seconds per move are read (one query for the events, one for each
    event's overdue drafts): the boards in play within their time are never visited."""
    now = now or timezone.now()
    events = Event.objects.filter(
        online=True, online_robots=True, online_closed_at__isnull=True
    ).values_list("pk", "move_seconds")
    played = 0
    for event_id, move_seconds in events:
        drafts = EntryDraft.objects.filter(
            table__round__event_id=event_id,
            updated_at__lte=now - timedelta(seconds=max(move_seconds, MIN_MOVE_SECONDS)),
        ).select_related("table", "board__event")
        played += sum(timeout_check(table=d.table, board=d.board, now=now) for d in drafts)
    return played


def online_sweep(now: datetime | None = None) -> dict[str, int]:
    """What the periodic sweep (tournaments.tasks) does for online play: the online tables
    whose wait is over filled by robots (tournaments.online.tables.online_tables_sweep), the
    timeouts, then the close of every online event whose window ended. ``{"filled",
    "timeouts", "closed"}``."""
    now = now or timezone.now()
    filled = online_tables_sweep(now)
    timeouts = online_timeouts_sweep(now)
    due = Event.objects.filter(
        online=True, online_robots=True, online_closed_at__isnull=True, ends_at__lte=now
    )
    closed = sum(online_window_close(event=e, now=now) == CLOSED for e in due)
    return {"filled": filled, "timeouts": timeouts, "closed": closed}
