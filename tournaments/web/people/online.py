"""The pages of online play (tournaments.online): an entrant's page of an online event (the
window in the event's zone, his boards: not started, waiting for his online table, in play,
finished with his result and, at online tables, the robot's take-over of his seat, and a button
to play each, but for a board in play whose seat the robot took over: the robot plays it to
its end), starting a board, leaving his online table, and the organizer's dealing of the
boards. His board itself is the device page of tournaments.web.devices (kind ``online``: his
own seat only; the waiting page while his online table is not full).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from tournaments.core.access import NotOrganizer, is_organizer
from tournaments.core.embargo import results_sealed
from tournaments.core.zones import event_time
from tournaments.models import Event
from tournaments.online import play
from tournaments.online.close import CLOSED, online_window_end_now
from tournaments.online.entry import enter_refusal, entrant_refusal, online_enter
from tournaments.online.window import (
    MAX_ONLINE_BOARDS,
    OnlineRefused,
    is_online_duplicate,
    is_online_tables,
    online_boards_deal,
    window_refusal,
)


def _event(slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not is_online_duplicate(event):
        raise Http404(_("There is no such online event."))
    return event


def _rows(event: Event, request: HttpRequest) -> list[dict[str, Any]]:
    player = play.entrant_of(event, request.user)
    if player is None:
        return []
    rows = []
    for board in play.entrant_boards(event, player):
        game = board.game
        score = (game.score or {}).get(board.seat) if game is not None else None
        # "played by the robot from move N": N is the first step after the take-over.
        robot_move = board.robot_from + 1 if board.robot_from is not None else None
        # A board in play whose seat the robot took over (he left, or let a move's time run
        # out) is the robot's to its end: no going back to it, only whose it is now.
        robot_plays = robot_move is not None and board.state == "in_play"
        rows.append(
            {
                "board": board,
                "score": score,
                "game": game,
                "robot_move": robot_move,
                "robot_plays": robot_plays,
            }
        )
    return rows


@login_required
def online_home(request: HttpRequest, slug: str) -> HttpResponse:
    """The entrant's page of the online event `slug` (module docstring); its organizer's
    dealing form too, with why he does not enter (tournaments.online.entry.entrant_refusal)."""
    event = _event(slug)
    entrant = play.entrant_of(event, request.user)
    # An official (or an account tied to a robot) is offered neither "Enter" nor a board:
    # said once, where the entrant's boards or the "Enter" button would be.
    not_his = entrant_refusal(event, request.user)
    return render(
        request,
        "people/online.html",
        {
            "event": event,
            "opens": event_time(event, event.starts_at),
            "closes": event_time(event, event.ends_at),
            "refusal": window_refusal(event) or (not_his if entrant else None),
            "entrant": entrant,
            "enter_refusal": enter_refusal(event) or not_his,
            "rows": _rows(event, request),
            "at_tables": is_online_tables(event),
            "sealed": results_sealed(event),
            "organizer": is_organizer(request.user, event),
            "max_boards": MAX_ONLINE_BOARDS,
        },
    )


@login_required
@require_POST
def online_start(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """POST: start board `number` (or open it again) and go to its device page."""
    event = _event(slug)
    try:
        play.online_board_start(event=event, user=request.user, number=number)
    except OnlineRefused as exc:
        messages.error(request, exc.message)
        return redirect("online:home", slug=slug)
    return redirect("online:device_board", slug=slug, number=number)


@login_required
@require_POST
def online_leave(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """POST: the entrant leaves his online table of board `number` (his device's "Leave the
    table"; tournaments.online.play.online_board_leave), back to his page with what happened."""
    event = _event(slug)
    try:
        at = play.online_board_leave(event=event, user=request.user, number=number)
    except OnlineRefused as exc:
        messages.error(request, exc.message)
        return redirect("online:home", slug=slug)
    if at is None:
        messages.success(
            request,
            _("You left the table of board %(n)s before it started: start it again when you like.")
            % {"n": number},
        )
    else:
        messages.success(
            request,
            _("You left the table of board %(n)s: the robot plays your seat from move %(m)s on.")
            % {"n": number, "m": at + 1},
        )
    return redirect("online:home", slug=slug)


@login_required
@require_POST
def online_join(request: HttpRequest, slug: str) -> HttpResponse:
    """POST: the signed-in account enters the event (tournaments.online.entry)."""
    event = _event(slug)
    try:
        online_enter(event=event, user=request.user)
    except OnlineRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You are entered in %(event)s.") % {"event": event.name})
    return redirect("online:home", slug=slug)


@login_required
@require_POST
def online_close_now(request: HttpRequest, slug: str) -> HttpResponse:
    """POST: the organizer ends the window now and closes it
    (tournaments.online.close.online_window_end_now)."""
    event = _event(slug)
    try:
        done = online_window_end_now(event=event, actor=request.user)
    except NotOrganizer as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        if done == CLOSED:
            messages.success(
                request,
                _("The window is closed: the results of every board are public."),
            )
        else:
            messages.success(
                request,
                _(
                    "The window has ended: the robots are finishing the boards in play; the "
                    "results are public once they are done."
                ),
            )
    return redirect("online:home", slug=slug)


@login_required
@require_POST
def online_deal(request: HttpRequest, slug: str) -> HttpResponse:
    """POST ``boards``: the organizer deals that many boards, one round each."""
    event = _event(slug)
    try:
        boards = int(request.POST.get("boards", ""))
    except ValueError:
        boards = 0
    try:
        made = online_boards_deal(event=event, boards=boards, actor=request.user)
    except NotOrganizer as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            ngettext("%(n)s board dealt.", "%(n)s boards dealt.", len(made)) % {"n": len(made)},
        )
    return redirect("online:home", slug=slug)
