"""An event's dates, place and status (tournaments.models.EventStatus).

Vocabulary: an event *starts* and *ends* at instants (``starts_at``, ``ends_at``, stored in
UTC) and is shown in its *zone* (``time_zone``, a name of the IANA database such as
Asia/Shanghai; empty: the site's TIME_ZONE); it is played at a *venue* (a name and an address)
or *online*. Its *status* moves announced → registration open (the organizer opens registration,
tournaments.people.registration) → in play (its first round starts,
tournaments.events.round_states) → finished (the organizer's ``event_finish``, refused while a
round is not published; ``event_reopen`` takes it back to in play). Only a finished event moves
the ratings (tournaments.ratings.service.rated_events) and the series
(tournaments.league.profiles.series_events): finishing and reopening ask for the ratings again.

An event's *date* is its start, or when it was opened while it has none; lists of events show
the newest first (``newest_first``: by date, then by when it was opened).

Every write here is the organizer's (tournaments.core.access.organizer_lock), one transaction,
a conditional UPDATE where the status moves, audited (tournaments.core.audit).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.db import transaction
from django.db.models import QuerySet
from django.db.models.functions import Coalesce
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from tournaments.core.access import Actor, organizer_lock
from tournaments.core.audit import audit_record
from tournaments.core.rating_requests import ratings_request
from tournaments.core.zones import is_real_zone, wall_time_aware, wall_time_refusal, zone_of
from tournaments.models import STARTED, Event, EventStatus, Round, RoundState, Table
from tournaments.ratings.service import event_day

# The statuses the organizer sets by hand on the event's form: before play only (in play and
# finished are reached by starting a round and by finishing).
BEFORE_PLAY = (EventStatus.ANNOUNCED, EventStatus.REGISTRATION_OPEN)


class LifeRefused(DomainError):
    """A change of an event's dates, place or status that cannot be made; nothing changed."""


# --- Reading: zone, date, place, order -----------------------------------------------------


def zone_parse(name: str) -> str:
    """The time zone ``name`` (stripped; "" for the site's), checked: a real zone of the IANA
    database (tournaments.core.zones.real_zones), or one an event holds already (stored before
    the check: its form still saves with its zone unchanged).

    Raises:
        LifeRefused: a name the time zone database does not know, or one it knows that is not
            the zone of a place ("localtime", "Factory", …).
    """
    name = name.strip()
    if not name or is_real_zone(name):
        return name
    try:
        # A key with "..", a leading "/" or other path tricks is refused by zoneinfo itself.
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise LifeRefused(
            _("Unknown time zone %(zone)s: give a name such as Asia/Shanghai or Europe/Paris.")
            % {"zone": name[:64]}
        ) from None
    if not Event.objects.filter(time_zone=name).exists():
        raise LifeRefused(
            _(
                "%(zone)s is not the time zone of a place: give a name such as Asia/Shanghai "
                "or Europe/Paris."
            )
            % {"zone": name[:64]}
        )
    return name


def event_moment(event: Event) -> datetime:
    """The instant an event is dated by: its start, else when it was opened."""
    return event.starts_at or event.created_at


def event_date(event: Event) -> date:
    """The event's date: the day of its start (else of its opening) in the event's zone (the
    rating's chart dates its points the same way: tournaments.ratings.service.event_day)."""
    return event_day(event)


def event_when(event: Event) -> str:
    """When ``event`` is played, in its zone and the active language: "12 July 2026 09:00 –
    18:00 (Asia/Shanghai)", the end's date repeated only when it is another day; "" while it has
    no start."""
    if event.starts_at is None:
        return ""
    zone = zone_of(event)
    start = timezone.localtime(event.starts_at, zone)
    text = formats.date_format(start, "DATETIME_FORMAT")
    if event.ends_at is not None:
        end = timezone.localtime(event.ends_at, zone)
        same_day = end.date() == start.date()
        text += " – " + formats.date_format(end, "TIME_FORMAT" if same_day else "DATETIME_FORMAT")
    return f"{text} ({zone})"


def event_where(event: Event) -> str:
    """Where ``event`` is played: "online", the venue's name (and address, after a comma), or
    ""."""
    if event.online:
        return _("online")
    parts = [event.venue_name.strip(), " ".join(event.venue_address.split())]
    return ", ".join(p for p in parts if p)


def newest_first(events: QuerySet[Event]) -> QuerySet[Event]:
    """``events`` newest first: by date (the start, else the opening), then by opening, then
    by id (a fixed order for events opened at the same instant)."""
    return events.order_by(Coalesce("starts_at", "created_at").desc(), "-created_at", "-pk")


def finish_refusal(event: Event) -> str | None:
    """Why ``event`` cannot be finished now (its start still to come, a round not published,
    or already finished; for an online robot duplicate whose window is open, its close
    finishes it), or None. The dashboard shows it beside the button; ``event_finish`` raises
    it."""
    if event.status == EventStatus.FINISHED:
        return _("The event is already finished.")
    if event.starts_at is not None and event.starts_at > timezone.now():
        # Finished, its results would go to the ratings and series before it is played.
        return _(
            "The event starts %(when)s, still to come: it cannot be finished before. If it was "
            "played early, correct its date first."
        ) % {"when": event_when(event)}
    waiting = (
        Round.objects.filter(event=event)
        .exclude(state=RoundState.PUBLISHED)
        .order_by("number")
        .first()
    )
    window_open = event.online and event.online_robots and event.online_closed_at is None
    if waiting is not None and window_open:
        # Its rounds close with the window only (tournaments.online): no button of the
        # organizer's would close them, "End the window now" does.
        return _(
            "The window's close finishes %(event)s: its rounds close and are published with "
            "it. To finish it before its end, use “End the window now” on its online page."
        ) % {"event": event.name}
    if waiting is not None:
        return _(
            "The event cannot be finished while round %(number)s is not published (it is "
            "%(state)s): publish every round first."
        ) % {"number": waiting.number, "state": RoundState(waiting.state).label}
    return None


# --- Writing -------------------------------------------------------------------------------


# The years an event's dates may fall in.
FIRST_YEAR, LAST_YEAR = 1900, 2999


def _aware(value: datetime | None, zone: tzinfo) -> datetime | None:
    """`value`, a wall time in `zone` when naive, as an aware moment.

    Raises:
        LifeRefused: a wall time the zone skips or gives twice (zones.wall_time_refusal).
    """
    if value is None or timezone.is_aware(value):
        return value
    refusal = wall_time_refusal(value, zone)
    if refusal is not None:
        raise LifeRefused(refusal)
    return wall_time_aware(value, zone)


def _text(value: str, *, field: str, lines: bool = False, max_length: int | None = None) -> str:
    value = value.strip()
    unfit = text_refusal(value, lines=lines, max_length=max_length)
    if unfit is not None:
        raise LifeRefused(f"{field}: {unfit[1]}")
    return value


def event_place_set(
    *,
    event: Event,
    actor: Actor,
    starts_at: datetime | None,
    ends_at: datetime | None,
    time_zone: str,
    online: bool,
    venue_name: str = "",
    venue_address: str = "",
    action: str = "event.place",
) -> Event:
    """Set when and where ``event`` is played. A naive ``starts_at``/``ends_at`` is a wall
    time in ``time_zone`` (the form's fields); an aware one is taken as it is. An online event
    keeps no venue.

    Returns the event as stored. Audited as ``action`` with the fields changed: ``event.place``,
    or ``online.window_end`` when the organizer ends an online window now
    (tournaments.online.close.online_window_end_now).

    Raises:
        NotOrganizer; LifeRefused: an unknown zone, a date outside FIRST_YEAR..LAST_YEAR, an
        end without a start or before it, a venue's name or address that is not printable
        text or too long; for an online robot duplicate whose boards are dealt, its window
        closed, its end cleared or moved into the past, its being online changed, or its
        start or zone changed once an entrant started a board (_window_refusal).
    """
    zone_name = zone_parse(time_zone)
    zone = ZoneInfo(zone_name) if zone_name else timezone.get_default_timezone()
    for moment in (starts_at, ends_at):
        if moment is not None and not FIRST_YEAR <= moment.year <= LAST_YEAR:
            # Year 1 in a zone east of UTC is before the first instant a database stores.
            raise LifeRefused(
                _("Give a date between the years %(first)s and %(last)s.")
                % {"first": FIRST_YEAR, "last": LAST_YEAR}
            )
    start, end = _aware(starts_at, zone), _aware(ends_at, zone)
    if end is not None and start is None:
        raise LifeRefused(_("Give the event's start before its end."))
    if start is not None and end is not None and end < start:
        raise LifeRefused(_("The event cannot end before it starts."))
    name = _text(venue_name, field=_("Venue"), max_length=200)
    address = _text(venue_address, field=_("Venue address"), lines=True, max_length=1000)
    if online:
        name = address = ""
    values = {
        "starts_at": start,
        "ends_at": end,
        "time_zone": zone_name,
        "online": online,
        "venue_name": name,
        "venue_address": address,
    }
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        changes = {
            f: [_jsonable(getattr(locked, f)), _jsonable(v)]
            for f, v in values.items()
            if getattr(locked, f) != v
        }
        refusal = _window_refusal(locked, changes, end)
        if refusal is not None:
            raise LifeRefused(refusal)
        if changes:
            Event.objects.filter(pk=event.pk).update(**values)
            audit_record(event=locked, actor=actor, action=action, obj=locked, changes=changes)
            if "starts_at" in changes and locked.status == EventStatus.FINISHED:
                # The rating order is by date: a finished event moved in time is rated again.
                ratings_request(event.pk)
    for f, v in values.items():
        setattr(event, f, v)
    return event


def _window_refusal(
    event: Event, changes: Mapping[str, object], end: datetime | None
) -> str | None:
    """Why the window of an online robot duplicate whose boards are dealt may not change so
    (tournaments.online: its start and end are the window); None when the change may be made.
    A closed window stays; the end is never cleared nor moved into the past (the organizer's
    "End the window now" closes it, with the boards in play); the event stays online (its
    rounds are in play, waiting for entrants); its start and zone move until an entrant
    starts a board (Table: nobody has played against the window before)."""
    if not (event.online and event.online_robots) or event.started_round() is None:
        return None
    if event.online_closed_at is not None and changes:
        return _("The window of %(event)s is closed: its dates stay.") % {"event": event.name}
    if "ends_at" in changes and end is None:
        return _("An event played on this site needs its window: give its start and its end.")
    if "ends_at" in changes and end is not None and end < timezone.now():
        return _(
            "The end of %(event)s cannot be in the past: to close its window now, use “End "
            "the window now” on its online page."
        ) % {"event": event.name}
    moved = "starts_at" in changes or "time_zone" in changes or "online" in changes
    if moved and Table.objects.filter(round__event=event).exists():
        return _(
            "Entrants are playing %(event)s: its start, its zone and its being online stay; "
            "only its end may move."
        ) % {"event": event.name}
    if "online" in changes:
        return _(
            "The boards of %(event)s are dealt to be played on this site: it stays online."
        ) % {"event": event.name}
    return None


def _jsonable(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime) else value


def _status_move(
    *, event: Event, actor: Actor, before: tuple[str, ...], after: str, action: str
) -> str:
    """Move the locked event's status from one of ``before`` to ``after`` (a conditional
    UPDATE), audited as ``action``; the status it had. The caller holds the transaction and the
    lock."""
    now = Event.objects.filter(pk=event.pk).values_list("status", flat=True).get()
    if not Event.objects.filter(pk=event.pk, status__in=before).update(status=after):
        raise LifeRefused(
            _("The event is %(status)s: it cannot become %(after)s.")
            % {"status": EventStatus(now).label, "after": EventStatus(after).label}
        )
    audit_record(
        event=event,
        actor=actor,
        action=action,
        obj=event,
        changes={"status": [now, after]},
    )
    event.status = after
    return now


def event_status_set(*, event: Event, actor: Actor, status: str) -> Event:
    """Set ``event``'s status by hand before play: announced or registration open (the
    registration service opens registration with its settings; this is the form's choice).

    Raises:
        NotOrganizer; LifeRefused: another status (in play comes with the first round, finished
        with ``event_finish``), or a round of the event has started.
    """
    if status not in BEFORE_PLAY:
        raise LifeRefused(
            _(
                "An event is in play once its first round starts, and finished by the "
                "organizer's “Finish the event”: choose announced or registration open."
            )
        )
    with transaction.atomic():
        organizer_lock(event, actor)
        if Round.objects.filter(event=event, state__in=STARTED).exists():
            raise LifeRefused(_("A round of the event has started: it is in play."))
        if event.status != status:
            _status_move(
                event=event,
                actor=actor,
                before=BEFORE_PLAY,
                after=status,
                action="event.announce"
                if status == EventStatus.ANNOUNCED
                else "event.registration_open",
            )
    return event


def event_finish(*, event: Event, actor: Actor) -> Event:
    """Finish ``event``: its results now move the ratings and its series (asked for again).

    Raises:
        NotOrganizer; LifeRefused: a round is not published (named), or it is already finished.
    """
    with transaction.atomic():
        locked = organizer_lock(event, actor)
        # Under the event's lock: a round cannot be added or moved back meanwhile by the
        # organizer's other requests, which take the same lock.
        refusal = finish_refusal(locked)
        if refusal is not None:
            raise LifeRefused(refusal)
        _status_move(
            event=event,
            actor=actor,
            before=(EventStatus.ANNOUNCED, EventStatus.REGISTRATION_OPEN, EventStatus.IN_PLAY),
            after=EventStatus.FINISHED,
            action="event.finish",
        )
        ratings_request(event.pk)
    return event


def event_reopen(*, event: Event, actor: Actor) -> Event:
    """Take a finished ``event`` back to in play (a late correction, a forgotten round): its
    results leave the ratings and series until it is finished again.

    Raises:
        NotOrganizer; LifeRefused: the event is not finished.
    """
    with transaction.atomic():
        organizer_lock(event, actor)
        _status_move(
            event=event,
            actor=actor,
            before=(EventStatus.FINISHED,),
            after=EventStatus.IN_PLAY,
            action="event.reopen",
        )
        ratings_request(event.pk)
    return event
