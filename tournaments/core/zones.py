"""An event's time zone: the zone its times are typed and shown in (Event.time_zone, else the
site's), and a moment written in it with the zone named. Below the pages, the mails
(tournaments.core.mail) and the event's life (tournaments.people.life), which all show them.

A *real zone* (`real_zones`) is a place's zone of the IANA database ("Asia/Shanghai", "UTC",
the old names such as "US/Eastern" too): the database's technical entries that zoneinfo opens
all the same are none ("localtime", the machine's own zone; "Factory", a zone of no place;
"posixrules"; the "posix/" and "right/" copies of the database).
"""

from __future__ import annotations

from datetime import UTC, datetime, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from tournaments.models import Event

# The zone database's entries that name no place (module docstring).
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})
NOT_PLACES_FOLDERS = ("posix/", "right/")


@cache
def real_zones() -> frozenset[str]:
    """The names of every real zone (module docstring) of the zone database installed.
    Read once: the database changes only with the machine's packages."""
    return frozenset(
        name
        for name in available_timezones()
        if name not in NOT_PLACES and not name.startswith(NOT_PLACES_FOLDERS)
    )


def is_real_zone(name: str) -> bool:
    """Whether `name` is a real zone (module docstring), exactly as written."""
    return name in real_zones()


def zone_of(event: Event) -> tzinfo:
    """The zone ``event`` is shown in: its own, else the site's (also for a name the zone
    database stopped knowing: the site's zone, not a crash)."""
    if event.time_zone:
        try:
            return ZoneInfo(event.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return timezone.get_default_timezone()


def event_time(event: Event, moment: datetime | None) -> str:
    """``moment`` in ``event``'s zone and the active language's format, the zone named:
    "Jan. 12, 2030, 11:59 p.m. (Asia/Shanghai)"; "" for None."""
    if moment is None:
        return ""
    zone = zone_of(event)
    return f"{formats.date_format(timezone.localtime(moment, zone), 'DATETIME_FORMAT')} ({zone})"


def wall_time_refusal(value: datetime, zone: tzinfo) -> str | None:
    """Why the naive wall time `value` names no single moment in `zone`, or None when it names
    one: a time the zone skips (the hour its clocks go forward) would be stored as another
    time, and one it gives twice (the hour they go back) as the first of the two, each
    without a word."""
    when = value.strftime("%Y-%m-%d %H:%M")
    first = value.replace(tzinfo=zone, fold=0)
    # Through UTC: a moment converted to its own zone comes back as it is, a skipped wall
    # time included (zoneinfo reads it with the offset before the change).
    if first.astimezone(UTC).astimezone(zone).replace(tzinfo=None) != value:
        return _(
            "%(when)s does not exist in %(zone)s: its clocks go forward then. Give a time "
            "before or after the change."
        ) % {"when": when, "zone": zone}
    if first.utcoffset() != value.replace(tzinfo=zone, fold=1).utcoffset():
        return _(
            "%(when)s happens twice in %(zone)s: its clocks go back then. Give a time "
            "before or after the change."
        ) % {"when": when, "zone": zone}
    return None


def wall_time_aware(value: datetime, zone: tzinfo) -> datetime:
    """The moment the naive wall time `value` names in `zone` (wall_time_refusal says None)."""
    return value.replace(tzinfo=zone, fold=0)
