"""The check-in pages (tournaments.people.checkin): the page a scanned QR code opens, the
organizer's check-in list (a tap per entrant, a search by name, made for a phone), the rounds
an entrant plays (late entry, withdrawal) and "seat the round with those present".

For the organizers and referees of the event (403 for anyone else; entries' rounds and seating
for the organizers); thin: each calls one service and says what it did or why not.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from tournaments.core.access import NotAllowed, NotOrganizer, is_official
from tournaments.events import fields, stages
from tournaments.models import Entry, Event, Player, Round, RoundState
from tournaments.online.window import is_online_duplicate
from tournaments.people import checkin


def _event_for_official(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not is_official(request.user, event):
        raise PermissionDenied(
            _("Only the organizers and referees of this event may see this page.")
        )
    return event


@login_required
def scan(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """What a scanned check-in QR code opens: the entrant checked in for the next round (a
    GET does it, so that a scan is all it takes; checking in twice changes nothing, and the
    code is the registration's secret), or why not."""
    event = _event_for_official(request, slug)
    try:
        done = checkin.checkin_by_token(event=event, token=token, actor=request.user)
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        return render(
            request,
            "people/checkin_scan.html",
            {"event": event, "refusal": exc.message},
            status=409,
        )
    return render(
        request,
        "people/checkin_scan.html",
        {"event": event, "done": done, "name": done.registration.shown_name},
    )


def _round_shown(request: HttpRequest, event: Event) -> Round | None:
    number = request.GET.get("round") or request.POST.get("round")
    if number and number.isdigit():
        found = event.rounds.filter(number=int(number)).first()
        if found is not None:
            return found
    return checkin.next_round(event)


@login_required
def checkin_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The check-in list for a round (?round=N; the next round by default), searchable by
    name (?q=): each entrant with a big present/absent button. An online robot duplicate's
    entrants are listed with no round: they enter and play online, with no check-in."""
    event = _event_for_official(request, slug)
    # An online event's entrants enter themselves and play online: no round is checked in.
    online = is_online_duplicate(event)
    round_ = None if online else _round_shown(request, event)
    query = request.GET.get("q", "")[:120]
    rows = checkin.checkin_list(event=event, round_=round_, query=query)
    return render(
        request,
        "people/checkin_list.html",
        {
            "event": event,
            "round": round_,
            "rounds": [] if online else list(event.rounds.order_by("number")),
            "online": online,
            "rows": rows,
            "query": query,
            "present": sum(1 for r in rows if r.present),
            "open": round_ is not None and round_.state in checkin.OPEN_FOR_CHECK_IN,
            "by_round": fields.seated_by_round(event),
        },
    )


def _back(event: Event, round_: Round | None, query: str = "") -> HttpResponse:
    url = reverse("registration:checkin_list", args=[event.slug])
    params = []
    if round_ is not None:
        params.append(f"round={round_.number}")
    if query:
        params.append(f"q={quote(query)}")
    return redirect(url + ("?" + "&".join(params) if params else "") + "#list")


def _run(request: HttpRequest, call: Any, success: str) -> None:
    try:
        call()
    except (NotAllowed, NotOrganizer) as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)


@login_required
@require_POST
def tap(request: HttpRequest, slug: str, number: int, player_id: int) -> HttpResponse:
    """A tap on the check-in list: present (``present=1``) or not for round ``number``."""
    event = _event_for_official(request, slug)
    round_ = get_object_or_404(Round, event=event, number=number)
    player = get_object_or_404(Player, pk=player_id, entries__event=event)
    present = request.POST.get("present") == "1"
    try:
        changed = checkin.presence_set(
            round_=round_, player=player, present=present, actor=request.user
        )
    except (NotAllowed, NotOrganizer) as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, exc.message)
        return _back(event, round_, request.POST.get("q", "")[:120])
    # Said as it is: a tap that changed nothing (a second tap, another official's) says so.
    if present:
        said = (
            _("%(name)s is checked in for round %(round)s.")
            if changed
            else _("%(name)s was checked in for round %(round)s already.")
        )
    else:
        said = (
            _("%(name)s is no longer checked in for round %(round)s.")
            if changed
            else _("%(name)s was not checked in for round %(round)s.")
        )
    messages.success(request, said % {"name": player.name, "round": number})
    return _back(event, round_, request.POST.get("q", "")[:120])


def _round_number(value: str | None) -> int | None:
    value = (value or "").strip()
    if not value:
        return None
    return int(value) if value.isdigit() and len(value) < 6 else 0


@login_required
@require_POST
def entry_rounds(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    """An entrant's rounds from the check-in list: enters from round N (late), withdrawn from
    round M (empty: from the start, to the end)."""
    event = _event_for_official(request, slug)
    entry = get_object_or_404(Entry.objects.select_related("player"), event=event, pk=entry_id)
    first = _round_number(request.POST.get("first_round"))
    withdrawn = _round_number(request.POST.get("withdrawn_from"))
    _run(
        request,
        lambda: checkin.entry_rounds_set(
            entry=entry, first_round=first, withdrawn_from=withdrawn, actor=request.user
        ),
        _("The rounds %(name)s plays are saved.") % {"name": entry.player.name},
    )
    return _back(event, _round_shown(request, event))


@login_required
@require_POST
def seat_present(request: HttpRequest, slug: str) -> HttpResponse:
    """Seat the next round with those present (or active), letting the extra players sit out
    when the organizer ticked it."""
    event = _event_for_official(request, slug)
    round_ = event.rounds.filter(state=RoundState.DRAFT).order_by("number").first()
    if round_ is None:
        messages.error(request, _("This event has no draft round to seat."))
        return _back(event, None)
    sit_out = bool(request.POST.get("sit_out"))
    out: list[str] = []

    def seat() -> None:
        report = stages.round_seat_present(round_=round_, actor=request.user, sit_out=sit_out)
        out.extend(report.get("sit_out") or [])

    _run(
        request,
        seat,
        _("Round %(round)s is seated with the players present.") % {"round": round_.number},
    )
    if out:
        # Named, as the dashboard's Swiss seating names them (a trial's checked-in player
        # was left out in silence).
        messages.info(request, _("Sitting out: %(names)s.") % {"names": ", ".join(out)})
    return _back(event, round_)
