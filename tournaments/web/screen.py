"""What the room sees: the big-screen page for a projector (the current round's seating with
each table's boards finished, the boards in play, the late tables and the next round's seating
once seated, the round clock and the live standings, each refreshing by itself; with
``?cycle=S`` one page at a time: the room, the standings a screenful at a time and the
travellers of the boards open to everyone, each for S seconds), the clock's small JSON
endpoint, the clock's buttons of the referee page, and the round the referees' lists show
(round_choice: the round the room plays unless another is asked for).

The big-screen page is public-safe: it is the same for everyone, a signed-in organizer
included (it carries no name, no form token, nothing under embargo: the seating and the number
of games of a board are public, the stored standings count open boards only and the travellers
are those of open boards, tournaments.core.embargo), so a projector's laptop may stay signed
in. It polls ``screen/clock/`` (never cached: a few hundred bytes, two queries), its own room
part (``?fragment=room``) and the standings' own cached fragment
(tournaments.web.public.standings_live). Thin views: the clock is tournaments.events.clock's,
the room's reads tournaments.events.room's.
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core.access import Actor, may_run_clock
from tournaments.events import clock, room
from tournaments.models import Event, Round, RoundState, Table
from tournaments.results import pages
from tournaments.web import public as views

# How often an open page asks the server for the clock's state (seconds); between two asks
# the browser counts by itself.
POLL_SECONDS = 5
# How long each page of a cycling screen stays (seconds): the default of a bare ``?cycle``,
# then the bounds of ``?cycle=S`` (from a page one can read to one a room waits for).
CYCLE_SECONDS = 20
CYCLE_MIN_SECONDS = 5
CYCLE_MAX_SECONDS = 300
ACTIONS = ("start", "pause", "resume", "extra", "reset")


def round_asked(event: Event, request: HttpRequest) -> Round | None:
    """The round of ``?round=N``, else the round the room is playing (clock.current_round);
    None for an event without rounds.

    Raises:
        Http404: ``round`` is not a number of ASCII digits, or `event` has no such round.
    """
    number = request.GET.get("round", "")
    if not number:
        return clock.current_round(event)
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
    if not re.fullmatch(r"[0-9]{1,9}", number):
        raise Http404("no such round")
    return get_object_or_404(Round, event=event, number=int(number))


def round_choice(request: HttpRequest, event: Event) -> tuple[Round | None, dict[str, Any]]:
    """The round a referee's list of `event` shows (the status board, the confirmation
    queue): ``?round=all`` every round (None), ``?round=N`` round N, else the round the room
    plays (clock.current_round; None without rounds); with the context of
    templates/referee/_round_choice.html, whose links keep the page's path (``query``: what
    to add to it to show the same round again, "" for the default).

    Raises:
        Http404: ``round`` is neither ``all`` nor the number of a round of `event`
        (round_asked).
    """
    every = request.GET.get("round") == "all"
    round_ = None if every else round_asked(event, request)
    if every:
        query = "round=all"
    elif request.GET.get("round") and round_ is not None:
        query = f"round={round_.number}"
    else:
        query = ""
    rounds = list(event.rounds.order_by("number"))
    return round_, {
        "choice": {
            "rounds": rounds,
            "round": round_,
            "all": every,
            "path": request.path,
            "query": query,
        }
    }


def _clock_text(left: timedelta) -> str:
    """The time left as clock.js shows it: 29:59, 1:05:00, −2:15 once over."""
    ms = left // timedelta(milliseconds=1)
    seconds = -ms // 1000 if ms < 0 else -(-ms // 1000)
    hours, rest = divmod(seconds, 3600)
    body = f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
    return ("\u2212" if ms < 0 else "") + body


def clock_context(
    event: Event, round_: Round | None, user: Actor = None, *, tables: bool = False
) -> dict[str, object]:
    """The context of templates/tournaments/_clock.html: the clock of `round_` as the JSON the
    page counts from, the URL it polls, the list of tables given extra time (`tables`), and
    whether `user` gets the clock's buttons."""
    view = clock.round_clock(round_) if round_ is not None else clock.ClockView(round=None)
    now = timezone.now()
    url = reverse("public:screen_clock", kwargs={"slug": event.slug})
    # No buttons on a round whose clock does not run (draft, closed, published): they would
    # only be refused (tournaments.events.clock.RUNNING_STATES).
    buttons = (
        round_ is not None
        and round_.state in clock.RUNNING_STATES
        and user is not None
        and may_run_clock(user, event)
    )
    labels = {
        "running": _("Running"),
        "paused": _("Paused"),
        "stopped": _("Clock not started"),
        "over": _("Time is up"),
        "table": _("Table %(n)s"),
        "extra": _("+%(m)s min"),
    }
    return {
        "clock_round": round_,
        "clock_view": view,
        "clock_json": json.dumps(view.to_json(now)),
        "clock_labels": json.dumps(labels),
        "clock_text": "\u2013:\u2013\u2013"
        if view.state == "stopped"
        else _clock_text(view.remaining(now)),
        "clock_url": f"{url}?round={round_.number}" if round_ is not None else url,
        "clock_poll": POLL_SECONDS,
        "clock_list": tables,
        "clock_buttons": buttons,
        "clock_tables": list(round_.tables.order_by("number").values_list("number", flat=True))
        if buttons and round_ is not None
        else [],
        "clock_max": clock.MAX_MINUTES,
        "clock_max_extra": clock.MAX_EXTRA_MINUTES,
    }


def table_clock_context(table: Table | None, event: Event) -> dict[str, object]:
    """The context of templates/referee/_table_clock.html: the round clock of `table`'s round
    (of the round the room plays when `table` is None), with the table's own time."""
    round_ = table.round if table is not None else clock.current_round(event)
    return {
        **clock_context(event, round_),
        "clock_table": table.number if table is not None else None,
    }


def _cycle_seconds(request: HttpRequest) -> int | None:
    """How long each page of a cycling screen stays, in seconds: None without ``?cycle``;
    ``?cycle=S`` kept within CYCLE_MIN_SECONDS and CYCLE_MAX_SECONDS; CYCLE_SECONDS when S is
    empty or not a number of ASCII digits (a projector's address typed by hand still cycles)."""
    if "cycle" not in request.GET:
        return None
    value = request.GET["cycle"]
    if not re.fullmatch(r"[0-9]+", value):
        return CYCLE_SECONDS
    # More digits than any page lasts: no int() of a string of any length.
    seconds = int(value) if len(value) <= 9 else CYCLE_MAX_SECONDS
    return min(max(seconds, CYCLE_MIN_SECONDS), CYCLE_MAX_SECONDS)


def _room_context(
    round_: Round | None, seats: tuple[str, ...], view: clock.ClockView
) -> dict[str, object]:
    """The context of templates/tournaments/_screen_room.html: the seating of `round_`, and
    while it is in play each table's boards finished and due by its clock `view`, the boards
    in play, the late tables and the next round's seating (tournaments.events.room)."""
    if round_ is None:
        return {"tables": [], "paces": {}, "boards_in_play": [], "late_tables": []}
    in_play = round_.state == RoundState.IN_PLAY
    paces = room.table_paces(round_, view, timezone.now()) if in_play else []
    following = room.next_round(round_)
    return {
        "tables": pages.round_seating(round_=round_, seats=seats),
        "paces": {p.number: p for p in paces},
        "boards_in_play": room.boards_in_play(round_) if in_play else [],
        "late_tables": [p for p in paces if p.late],
        "next_round": following,
        "next_tables": pages.round_seating(round_=following, seats=seats) if following else [],
    }


def screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The big-screen page of an event: ``?round=N`` for another round than the current,
    ``?cycle=S`` for one page at a time, S seconds each (_cycle_seconds), the travellers of
    the results round (tournaments.events.room.results_boards) among them; ``?fragment=room``
    is the room's part alone, which the page fetches to refresh itself."""
    event = get_object_or_404(Event, slug=slug)
    round_ = round_asked(event, request)
    seats = pages.seats_of(event)
    clock_part = clock_context(event, round_)
    # Follow the room to the next round (a reload) unless a round was asked for.
    follow = "round" not in request.GET
    room_url = reverse("public:screen", kwargs={"slug": event.slug}) + "?fragment=room"
    context: dict[str, object] = {
        "event": event,
        "round": round_,
        "seats": seats,
        "follow": follow,
        "room_url": room_url if follow or round_ is None else f"{room_url}&round={round_.number}",
        **_room_context(round_, seats, cast(clock.ClockView, clock_part["clock_view"])),
    }
    if request.GET.get("fragment") == "room":
        return render(request, "tournaments/_screen_room.html", {**context, **clock_part})
    cycle = _cycle_seconds(request)
    travellers = (
        [
            (board, pages.seats_of(event, board), pages.board_traveller(board=board))
            for board in room.results_boards(round_)
        ]
        if cycle is not None and round_ is not None
        else []
    )
    context.update(
        {
            "cycle": cycle,
            "cycle_labels": {"next": _("Next page in %(s)s s")},
            "travellers": travellers,
            "standings_html": views._standings_html(request, event, None),
            "live_url": views._live_url(event, None),
            "refresh": views.REFRESH_SECONDS,
            **clock_part,
        }
    )
    if follow:
        context["clock_url"] = reverse("public:screen_clock", kwargs={"slug": event.slug})
    return render(request, "tournaments/screen.html", context)


def screen_clock(request: HttpRequest, slug: str) -> JsonResponse:
    """The clock of the current round (or ``?round=N``) as ClockView.to_json, uncached."""
    event = get_object_or_404(Event, slug=slug)
    round_ = round_asked(event, request)
    view = clock.round_clock(round_) if round_ is not None else clock.ClockView(round=None)
    response = JsonResponse(view.to_json(timezone.now()))
    response["Cache-Control"] = "no-cache, no-store"
    return response


def _minutes(value: str | None) -> int:
    try:
        return int((value or "").strip())
    except ValueError:
        raise clock.ClockRefused(_("Write the time as a whole number of minutes.")) from None


@login_required(login_url="account_login")
@require_POST
def clock_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """A button of the round clock: ``start`` (POST ``minutes``), ``pause``, ``resume``,
    ``extra`` (POST ``table``, its number, and ``minutes``) or ``reset``; back to ``next``
    (the referee page by default) with the refusal, if any, as a message."""
    if action not in ACTIONS:
        raise Http404("no such clock action")
    event = get_object_or_404(Event, slug=slug)
    round_ = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    if not may_run_clock(request.user, event):
        raise PermissionDenied(_("Only the organizers and chief referees run the round clock."))
    try:
        if action == "start":
            clock.clock_start(
                round_=round_, minutes=_minutes(request.POST.get("minutes")), actor=request.user
            )
        elif action == "pause":
            clock.clock_pause(round_=round_, actor=request.user)
        elif action == "resume":
            clock.clock_resume(round_=round_, actor=request.user)
        elif action == "reset":
            clock.clock_reset(round_=round_, actor=request.user)
        else:
            table_number = request.POST.get("table", "")
            table = Table.objects.filter(
                round=round_,
                number=int(table_number) if re.fullmatch(r"[0-9]{1,9}", table_number) else -1,
            ).first()
            if table is None:
                raise clock.ClockRefused(
                    _("Round %(number)s has no table %(table)s.")
                    % {"number": round_.number, "table": table_number}
                )
            clock.clock_extra_time(
                table=table, minutes=_minutes(request.POST.get("minutes")), actor=request.user
            )
    except clock.ClockRefused as exc:
        messages.error(request, exc.message)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("referee:event", kwargs={"slug": event.slug})
    return redirect(back)
