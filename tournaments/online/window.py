"""An online event's window and set-up: whether it is open (`window_refusal`), the organizer's
settings of online play (`online_play_set`) and its boards, one round each
(`online_boards_deal`). Vocabulary: tournaments.online.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.robots import STRENGTHS
from tournaments.core.access import Actor, AdministrationRefused, organizer_lock
from tournaments.core.audit import audit_record
from tournaments.core.zones import event_time
from tournaments.events import round_states, rounds
from tournaments.models import Event, Round, RoundState

MIN_MOVE_SECONDS = 5  # the model's check constraint: a move needs a few seconds at least
MAX_MOVE_SECONDS = 3600
# The organizer's wait at an online table before robots fill its empty seats (the model's
# check constraint: positive).
MIN_SEAT_WAIT_SECONDS = 1
MAX_SEAT_WAIT_SECONDS = 3600
MAX_ONLINE_BOARDS = 60


class OnlineRefused(DomainError):
    """What an entrant (or the organizer) asked of online play cannot be done now: the window
    not open, no entry, no such board; nothing was written."""

    code = "forbidden"


def is_online_duplicate(event: Event) -> bool:
    """Whether `event` is played on the site against robots (tournaments.online)."""
    return bool(event.online and event.online_robots)


def is_online_tables(event: Event) -> bool:
    """Whether the entrants of `event` play together at online tables (tournaments.online,
    the second form: tournaments.online.tables), rather than each alone against robots."""
    return bool(event.online and event.online_robots and event.online_tables)


def window_refusal(event: Event, now: datetime | None = None) -> str | None:
    """Why no board of `event` may be started or played now, in the reader's language (the
    window's times in the event's zone); None while its window is open."""
    now = now or timezone.now()
    if not is_online_duplicate(event):
        return _("%(event)s is not played on this site.") % {"event": event.name}
    if event.starts_at is None or event.ends_at is None:
        return _("The organizer has not set the window of %(event)s yet.") % {"event": event.name}
    if now < event.starts_at:
        return _("The window opens on %(opens)s.") % {"opens": event_time(event, event.starts_at)}
    if event.online_closed_at is not None or now >= event.ends_at:
        return _("The window closed on %(closes)s.") % {"closes": event_time(event, event.ends_at)}
    return None


def online_tables_refusals(
    *, robots: bool, tables: bool, seat_wait_seconds: int | None
) -> dict[str, str]:
    """Why online tables cannot be set so, by field (``online_tables``,
    ``seat_wait_seconds``), in the reader's language; empty when they can. The rules: online
    tables only with robots (the model's check constraint too), a wait of 1..3600 seconds.
    The service and the administration's form say the same."""
    refusals = {}
    if tables and not robots:
        refusals["online_tables"] = _(
            "Entrants play together at online tables only in an event played on this site "
            "against robots."
        )
    if seat_wait_seconds is not None and not (
        MIN_SEAT_WAIT_SECONDS <= seat_wait_seconds <= MAX_SEAT_WAIT_SECONDS
    ):
        refusals["seat_wait_seconds"] = _(
            "The wait for entrants at an online table is %(low)s to %(high)s seconds."
        ) % {"low": MIN_SEAT_WAIT_SECONDS, "high": MAX_SEAT_WAIT_SECONDS}
    return refusals


def online_play_set(
    *,
    event: Event,
    actor: Actor,
    robots: bool,
    strength: str,
    move_seconds: int,
    tables: bool | None = None,
    seat_wait_seconds: int | None = None,
) -> Event:
    """Set how `event` is played online: on the site against robots (`robots`, an online
    event only), their `strength` (games.robots.STRENGTHS), the seconds of each move, and
    whether entrants play together at online tables (`tables`, with robots only) with the
    wait before robots fill a table's empty seats (`seat_wait_seconds`); None keeps those
    two as they are (robots turned off turn the tables off). Audited as ``online.settings``
    with the fields changed.

    Raises:
        NotOrganizer; AdministrationRefused: an unknown strength, seconds out of 5..3600,
            robots for an event not online, tables without robots or a wait out of 1..3600
            (`online_tables_refusals`), or a change once a round started.
    """
    if strength not in STRENGTHS:
        raise AdministrationRefused(_("Unknown robot strength %(s)s.") % {"s": strength})
    if not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS:
        raise AdministrationRefused(
            _("A move takes %(low)s to %(high)s seconds.")
            % {"low": MIN_MOVE_SECONDS, "high": MAX_MOVE_SECONDS}
        )
    refusals = online_tables_refusals(
        robots=robots, tables=bool(tables), seat_wait_seconds=seat_wait_seconds
    )
    if refusals:
        raise AdministrationRefused(" ".join(refusals.values()))
    values: dict[str, object] = {
        "online_robots": robots,
        "robot_strength": strength,
        "move_seconds": move_seconds,
    }
    if tables is not None or not robots:
        values["online_tables"] = bool(tables) and robots
    if seat_wait_seconds is not None:
        values["seat_wait_seconds"] = seat_wait_seconds
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        if robots and not locked.online:
            raise AdministrationRefused(_("Only an online event is played against robots."))
        if robots and (locked.starts_at is None or locked.ends_at is None):
            # Its start and end are the window: without them nobody could tell when to play.
            raise AdministrationRefused(
                _("An event played on this site needs its window: give its start and its end.")
            )
        changes = {f: [getattr(locked, f), v] for f, v in values.items() if getattr(locked, f) != v}
        if changes and locked.started_round() is not None:
            # Entrants met these robots already: a change would compare unlike plays.
            raise AdministrationRefused(
                _("Online play is fixed once a round of the event has started.")
            )
        if changes:
            Event.objects.filter(pk=event.pk).update(**values)
            audit_record(
                event=locked, actor=actor, action="online.settings", obj=locked, changes=changes
            )
    for f, v in values.items():
        setattr(event, f, v)
    return event


def online_boards_deal(*, event: Event, boards: int, actor: Actor) -> list[Round]:
    """Deal `boards` boards to `event`, one round each (round n holds board n), from its
    committed seed (committed now when it has none), every round in play at once: its tables
    are made as entrants start its board. Audited (``online.boards_deal``, and each service's
    own record).

    Raises:
        NotOrganizer; AdministrationRefused: not an online event against robots, a number of
        boards outside 1..60, the seed revealed, the event finished (as round_deal).
    """
    made = []
    with transaction.atomic():
        # Who asks first: a player is refused as one, whatever number he sent.
        locked = organizer_lock(event, actor)
        if not 1 <= boards <= MAX_ONLINE_BOARDS:
            raise AdministrationRefused(
                _("Deal 1 to %(max)s boards at a time.") % {"max": MAX_ONLINE_BOARDS}
            )
        if not is_online_duplicate(locked):
            raise AdministrationRefused(_("Make the event online and played against robots first."))
        if not locked.deal_commitment:
            rounds.event_seed_commit(event=locked, actor=actor)
        for _number in range(boards):
            round_ = rounds.round_create(event=locked, actor=actor)
            rounds.round_deal(round_=round_, boards=1, actor=actor)
            # An online round is seated with no table: each entrant's play makes one.
            Round.objects.filter(pk=round_.pk, state=RoundState.DRAFT).update(
                state=RoundState.SEATED
            )
            round_.state = RoundState.SEATED
            made.append(round_states.round_start(round_=round_, actor=actor))
        audit_record(
            event=locked,
            actor=actor,
            action="online.boards_deal",
            obj=locked,
            changes={"rounds": [r.number for r in made]},
        )
    return made
