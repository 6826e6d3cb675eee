"""An event's time zone: the zone its times are typed and shown in (Event.time_zone, else the
site's), and a moment written in it with the zone named. Below the pages, the mails
(tournaments.core.mail) and the event's life (tournaments.people.life), which all show them."""

from __future__ import annotations

from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import formats, timezone

from tournaments.models import Event


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
