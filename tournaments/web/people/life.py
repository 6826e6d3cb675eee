"""The organizer's pages of an event's dates, place and status (tournaments.people.life): the
"Date, place and status" form, and the dashboard's "Finish the event" and "Reopen the event".

Thin: parse with a Django form, call one service, show its refusal as the form's error or a
message (nothing changed then). For the event's organizers only (403 for anyone else, the
sign-in page for the anonymous).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.forms.fields import BaseTemporalField
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import NotAllowed, NotOrganizer
from tournaments.core.zones import real_zones
from tournaments.models import STARTED, Event, RobotStrength
from tournaments.online.window import (
    MAX_MOVE_SECONDS,
    MAX_SEAT_WAIT_SECONDS,
    MIN_MOVE_SECONDS,
    MIN_SEAT_WAIT_SECONDS,
    online_play_set,
    online_tables_refusals,
)
from tournaments.people import life
from tournaments.web.organizer import event_for_organizer, login_required

# What a datetime-local input sends, and what a person may type where it is a text box.
WALL_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]


class WallTimeField(forms.DateTimeField):
    """A date and time as typed, without a zone: the service reads it in the event's zone (the
    form's own field), not in the site's as Django's field would."""

    def to_python(self, value: Any) -> datetime | None:
        if value in self.empty_values:
            return None
        if isinstance(value, datetime):
            return value
        result: datetime | None = BaseTemporalField.to_python(self, value)
        return result


class EventLifeForm(forms.Form):
    starts_at = WallTimeField(
        label=gettext_lazy("Starts"),
        required=False,
        input_formats=WALL_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=WALL_FORMATS[0]),
    )
    ends_at = WallTimeField(
        label=gettext_lazy("Ends"),
        required=False,
        input_formats=WALL_FORMATS,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=WALL_FORMATS[0]),
    )
    time_zone = TypedTextField(
        label=gettext_lazy("Time zone"),
        required=False,
        max_length=64,
        help_text=gettext_lazy(
            "The venue's, e.g. Asia/Shanghai: the start and end are in it. Empty: the site's."
        ),
        widget=forms.TextInput(attrs={"list": "time-zones", "autocomplete": "off"}),
    )
    online = forms.BooleanField(label=gettext_lazy("Played online"), required=False)
    # Online play on the site (tournaments.online): the window is the start and the end.
    online_robots = forms.BooleanField(
        label=gettext_lazy("Played on this site against robots"),
        required=False,
        help_text=gettext_lazy(
            "Online only: each entrant plays every board between the start and the end, the "
            "other seats played by robots."
        ),
    )
    robot_strength = forms.ChoiceField(
        label=gettext_lazy("Robot strength"), choices=RobotStrength.choices, required=False
    )
    move_seconds = forms.IntegerField(
        label=gettext_lazy("Seconds per move online"),
        min_value=MIN_MOVE_SECONDS,
        max_value=MAX_MOVE_SECONDS,
        required=False,
    )
    # Online tables (tournaments.online.tables): entrants seated together as they arrive.
    online_tables = forms.BooleanField(
        label=gettext_lazy("Entrants play together at online tables"),
        required=False,
        help_text=gettext_lazy(
            "Played on this site against robots only: entrants are seated together as they "
            "arrive; robots take the seats still free after the wait below, and take over "
            "from a player who leaves or lets a move's time run out (marked on his result)."
        ),
    )
    seat_wait_seconds = forms.IntegerField(
        label=gettext_lazy("Seconds to wait for entrants at an online table"),
        min_value=MIN_SEAT_WAIT_SECONDS,
        max_value=MAX_SEAT_WAIT_SECONDS,
        required=False,
    )
    venue_name = TypedTextField(label=gettext_lazy("Venue"), required=False, max_length=200)
    venue_address = TypedTextField(
        lines=True,
        label=gettext_lazy("Venue address"),
        required=False,
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    status = forms.ChoiceField(
        label=gettext_lazy("Status"),
        required=False,
        choices=[(s.value, s.label) for s in life.BEFORE_PLAY],
        help_text=gettext_lazy(
            "The event is in play once its first round starts, and finished when you finish it "
            "on its dashboard."
        ),
    )

    def clean_time_zone(self) -> str:
        """The zone as the service takes it (tournaments.people.life.zone_parse), refused at
        its field: a zone unknown, or of no place ("localtime")."""
        try:
            return life.zone_parse(self.cleaned_data.get("time_zone") or "")
        except life.LifeRefused as exc:
            raise forms.ValidationError(exc.message) from None

    def clean(self) -> dict[str, Any]:
        """Online tables only with robots, as the service says (tournaments.online.window)."""
        data = super().clean() or {}
        if data.get("online_robots") and not data.get("online"):
            # Dropped without a word before: the page said "saved".
            self.add_error(
                "online_robots",
                _(
                    "Played on this site against robots is for an event played online: tick "
                    "“Played online” too."
                ),
            )
        robots = bool(data.get("online") and data.get("online_robots"))
        refusals = online_tables_refusals(
            robots=robots,
            tables=bool(data.get("online_tables")),
            seat_wait_seconds=data.get("seat_wait_seconds"),
        )
        for field, message in refusals.items():
            if field not in self.errors:
                self.add_error(field, message)
        return data


def _initial(event: Event) -> dict[str, Any]:
    zone = life.zone_of(event)

    def wall(value: datetime | None) -> datetime | None:
        return timezone.localtime(value, zone).replace(tzinfo=None) if value else None

    return {
        "starts_at": wall(event.starts_at),
        "ends_at": wall(event.ends_at),
        "time_zone": event.time_zone,
        "online": event.online,
        "online_robots": event.online_robots,
        "robot_strength": event.robot_strength,
        "move_seconds": event.move_seconds,
        "online_tables": event.online_tables,
        "seat_wait_seconds": event.seat_wait_seconds,
        "venue_name": event.venue_name,
        "venue_address": event.venue_address,
        "status": event.status,
    }


@login_required
def event_life(request: HttpRequest, slug: str) -> HttpResponse:
    """When and where the event is played, and its status before play (GET: the form; POST:
    store it, then back to the dashboard)."""
    event = event_for_organizer(request, slug)
    before_play = not event.rounds.filter(state__in=STARTED).exists() and event.status in (
        life.BEFORE_PLAY
    )
    form = EventLifeForm(
        request.POST if request.method == "POST" else None, initial=_initial(event)
    )
    if not before_play:
        del form.fields["status"]
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                # One write: a refused part (the online play) leaves the dates unsaved too.
                with transaction.atomic():
                    _place_and_play_set(request, event, data, before_play)
            except (NotAllowed, NotOrganizer) as exc:
                raise PermissionDenied(exc.message) from None
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("The event's date, place and status are saved."))
                return redirect("organizer:dashboard", slug=event.slug)
        status = 400
    return render(
        request,
        "people/event_life.html",
        {"event": event, "form": form, "zones": sorted(real_zones())},
        status=status,
    )


def _act(request: HttpRequest, event: Event, call: Any, success: str) -> HttpResponse:
    try:
        call(event=event, actor=request.user)
    except (NotAllowed, NotOrganizer) as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect("organizer:dashboard", slug=event.slug)


@login_required
@require_POST
def event_finish(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard's "Finish the event" (refused, with the reason, while a round is not
    published)."""
    event = get_object_or_404(Event, slug=slug)
    return _act(
        request,
        event,
        life.event_finish,
        _("The event is finished: its results now count in the ratings and the series."),
    )


@login_required
@require_POST
def event_reopen(request: HttpRequest, slug: str) -> HttpResponse:
    """The dashboard's "Reopen the event" (a finished event back in play)."""
    event = get_object_or_404(Event, slug=slug)
    return _act(
        request,
        event,
        life.event_reopen,
        _(
            "The event is in play again: its results leave the ratings and the series until it "
            "is finished again."
        ),
    )


def _as_stored(
    typed: datetime | None, stored: datetime | None, event: Event, zone: str
) -> datetime | None:
    """The instant the form means by the wall time `typed`: the event's `stored` one when it
    reads the same to the minute in the same zone (the form shows it to the minute: sent back
    untouched, it is no move, even if the stored instant has seconds), else `typed` as it is
    (read in the event's zone by the service)."""
    if typed is None or stored is None or zone != event.time_zone:
        return typed
    shown = timezone.localtime(stored, life.zone_of(event)).replace(tzinfo=None)
    return stored if typed == shown.replace(second=0, microsecond=0) else typed


def _place_and_play_set(
    request: HttpRequest, event: Event, data: dict[str, Any], before_play: bool
) -> None:
    """The services of the date, place and status form, in the caller's transaction.

    Raises:
        DomainError, NotAllowed, NotOrganizer: as the services do.
    """
    life.event_place_set(
        event=event,
        actor=request.user,
        starts_at=_as_stored(data["starts_at"], event.starts_at, event, data["time_zone"]),
        ends_at=_as_stored(data["ends_at"], event.ends_at, event, data["time_zone"]),
        time_zone=data["time_zone"],
        online=data["online"],
        venue_name=data["venue_name"],
        venue_address=data["venue_address"],
    )
    robots = bool(data["online"] and data["online_robots"])
    online_play_set(
        event=event,
        actor=request.user,
        robots=robots,
        strength=data["robot_strength"] or event.robot_strength,
        move_seconds=data["move_seconds"] or event.move_seconds,
        tables=bool(robots and data["online_tables"]),
        seat_wait_seconds=data["seat_wait_seconds"] or event.seat_wait_seconds,
    )
    if before_play and data.get("status"):
        life.event_status_set(event=event, actor=request.user, status=data["status"])
