"""Template filters of an event's dates, place and status (tournaments.people.life): what every
list of events shows beside an event's name, and the event page's "when and where"."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import formats
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tournaments.core import zones
from tournaments.models import Event, EventStatus
from tournaments.people import life

register = template.Library()


@register.filter
def event_day(event: Event) -> str:
    """The event's date (its start's day in its zone), localized; "no date yet" for one without
    a start that is not finished (a finished one is dated by its opening, as its rating)."""
    if event.starts_at is None and event.status != EventStatus.FINISHED:
        return gettext("no date yet")
    return formats.date_format(life.event_date(event), "DATE_FORMAT")


@register.filter
def event_when(event: Event) -> str:
    """When the event is played, in its time zone ("" without a start)."""
    return life.event_when(event)


@register.filter
def in_zone_of(moment: datetime | None, event: Event) -> str:
    """``moment`` in ``event``'s time zone, the zone named (tournaments.core.zones)."""
    return zones.event_time(event, moment)


@register.filter
def event_where(event: Event) -> str:
    """The venue (name, address) or "online" ("" when not given)."""
    return life.event_where(event)


@register.filter
def event_facts(event: Event, full: str = "") -> SafeString:
    """A list's line about an event: its date, its venue's name (with its address when `full`)
    or "online", and its status (a ``status-<value>`` class for the page's styles)."""
    where = life.event_where(event) if event.online or full else event.venue_name
    parts = [format_html('<span class="event-date nowrap">{}</span>', event_day(event))]
    if where:
        parts.append(format_html('<span class="event-venue">{}</span>', where))
    parts.append(
        format_html(
            '<span class="event-status status-{}">{}</span>',
            event.status,
            event.get_status_display(),
        )
    )
    return format_html('<span class="event-facts muted">{}</span>', SafeString(" · ".join(parts)))


@register.simple_tag
def finish_refusal(event: Event) -> str:
    """Why the event cannot be finished now ("" when it can): the dashboard shows it."""
    return life.finish_refusal(event) or ""
