"""The dashboard's private links and officials (namespace "officials"): make a round's or a
stage's table links (answered with the table cards to print, each link as a QR code: the only
time the links are shown, since only their hashes are stored), make the players' links, revoke
a link, set the correction window; add a referee or chief referee, remove one, assign the
referees of a stage's tables in one form; and the chief referee's handling of a signal.

Thin: each POST calls one service of tournaments.links or tournaments.events.officials; organizers
only (403 for anyone else, the login page for the anonymous), chief referees for signals.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required as _login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from tournaments.core import access
from tournaments.events import officials, overview
from tournaments.links import checks, tokens
from tournaments.models import (
    Event,
    PlayerLink,
    ResultCheck,
    Role,
    Round,
    SeatLink,
    Stage,
    TableLink,
)

login_required = partial(_login_required, login_url="account_login")


def _organizer_event(request: HttpRequest, slug: str) -> Event:
    event = get_object_or_404(Event, slug=slug)
    if not access.may_manage_officials(request.user, event):
        raise PermissionDenied(_("Only the organizers of this event may see this page."))
    return event


def _back(request: HttpRequest, event: Event, anchor: str) -> HttpResponse:
    return redirect(reverse("organizer:dashboard", args=[event.slug]) + f"#{anchor}")


def _hours(request: HttpRequest, default: int) -> int:
    try:
        return int(request.POST.get("hours") or default)
    except ValueError:
        return -1


def qr_svg(url: str) -> str:
    """The QR code of `url` as inline SVG (segno, no other dependency)."""
    return mark_safe(segno.make(url, error="m").svg_inline(scale=4, title=url))  # noqa: S308


def _whole(text: str) -> int | None:
    """A form's whole number: ASCII digits, at most 9 of them (str.isdigit() also takes "²",
    which int() refuses, and a number past the column is no row); None otherwise."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


@login_required
@require_POST
def table_links(request: HttpRequest, slug: str) -> HttpResponse:
    """Make the table links of round ``round`` (or stage ``stage``) with their seat links, and
    answer the sheets to print: a table card per table with a QR code per seat (the seat
    devices), and the referees' sheet with each table's link (the referee device)."""
    event = _organizer_event(request, slug)
    round_ = stage = None
    stage_number = _whole(request.POST.get("stage", ""))
    round_number = _whole(request.POST.get("round", ""))
    if (stage_number is None) == (round_number is None):
        # Neither, or both: which one was meant is not known.
        messages.error(request, _("Make table links for one round or for one stage."))
        return _back(request, event, "links")
    if stage_number is not None:
        stage = Stage.objects.filter(event=event, number=stage_number).first()
    elif round_number is not None:
        round_ = Round.objects.filter(event=event, number=round_number).first()
    if stage is None and round_ is None:
        messages.error(
            request,
            _("%(event)s has no such round or stage.") % {"event": event.name},
        )
        return _back(request, event, "links")
    try:
        made = tokens.table_links_make(
            event=event,
            actor=request.user,
            round_=round_,
            stage=stage,
            hours=_hours(request, tokens.DEFAULT_TABLE_HOURS),
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return _back(request, event, "links")
    cards = []
    seated = {t.number: s for t, s in overview.round_tables(round_)} if round_ else {}
    for m in made:
        url = request.build_absolute_uri(m.url)
        names = dict(seated.get(m.table or 0) or [])
        seats = []
        for seat, path in m.seats:
            seat_url = request.build_absolute_uri(path)
            seats.append(
                {"seat": seat, "url": seat_url, "qr": qr_svg(seat_url), "player": names.get(seat)}
            )
        # The table link shows every hand: it goes on the referee's sheet, never on the card
        # the players sit at, which carries one seat link per seat.
        cards.append(
            {
                "number": m.table,
                "url": url,
                "qr": qr_svg(url),
                "seated": seated.get(m.table or 0),
                "seats": seats,
            }
        )
    return render(
        request,
        "print/table_cards.html",
        {
            "event": event,
            "round": round_,
            "stage": stage,
            "cards": cards,
            "expires": made[0].expires if made else None,
        },
    )


@login_required
@require_POST
def player_links(request: HttpRequest, slug: str) -> HttpResponse:
    """Make every player's link and answer the list to print or send, each with its QR."""
    event = _organizer_event(request, slug)
    try:
        made = tokens.player_links_make(
            event=event, actor=request.user, hours=_hours(request, tokens.DEFAULT_PLAYER_HOURS)
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        return _back(request, event, "links")
    cards = []
    for m in made:
        url = request.build_absolute_uri(m.url)
        cards.append({"player": m.player, "url": url, "qr": qr_svg(url)})
    return render(
        request,
        "links/player_cards.html",
        {"event": event, "cards": cards, "expires": made[0].expires if made else None},
    )


@login_required
@require_POST
def link_revoke(request: HttpRequest, slug: str, kind: str, pk: int) -> HttpResponse:
    event = _organizer_event(request, slug)
    link: TableLink | PlayerLink | SeatLink
    if kind == "seat":
        # One seat's device alone (a lost phone): the table's other seats keep theirs.
        link = get_object_or_404(
            SeatLink.objects.select_related("table_link__event"), pk=pk, table_link__event=event
        )
    else:
        model: Any = {"table": TableLink, "player": PlayerLink}.get(kind)
        if model is None:
            raise Http404("no such kind of link")
        link = get_object_or_404(model.objects.select_related("event"), pk=pk, event=event)
    if tokens.link_revoke(link=link, actor=request.user):
        messages.success(request, _("The link is revoked: it opens nothing any more."))
    else:
        messages.error(request, _("That link was revoked already."))
    return _back(request, event, "links")


@login_required
@require_POST
def correction_window(request: HttpRequest, slug: str) -> HttpResponse:
    event = _organizer_event(request, slug)
    try:
        minutes = int(request.POST.get("minutes", ""))
    except ValueError:
        minutes = -1
    try:
        tokens.correction_window_set(event=event, actor=request.user, minutes=minutes)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The correction window is set."))
    return _back(request, event, "links")


@login_required
@require_POST
def official_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = _organizer_event(request, slug)
    username = request.POST.get("username", "")
    try:
        officials.official_add(
            event=event,
            actor=request.user,
            username=username,
            role=request.POST.get("role", ""),
            password=request.POST.get("password", ""),
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is an official of the event.") % {"name": username})
    return _back(request, event, "officials")


@login_required
@require_POST
def official_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = _organizer_event(request, slug)
    try:
        officials.official_remove(event=event, actor=request.user, role_id=pk)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The role is removed."))
    return _back(request, event, "officials")


@login_required
def stage_referees(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One form: the referee of each table of the stage, for all its rounds not closed."""
    event = _organizer_event(request, slug)
    stage = get_object_or_404(Stage, event=event, number=number)
    rows = officials.stage_referees(stage=stage)
    referees = [r.user for r in officials.officials_of(event=event) if r.role == Role.REFEREE]
    status = 200
    if request.method == "POST":
        chosen: dict[int, int | None] = {}
        unread: list[int] = []
        for row in rows:
            value = request.POST.get(f"table-{row.number}", "")
            # Empty is "nobody"; anything else must be an account's number (the list's values).
            chosen[row.number] = _whole(value) if value else None
            if value and chosen[row.number] is None:
                unread.append(row.number)
        try:
            if unread:
                raise officials.OfficialRefused(
                    " ".join(
                        _("Table %(n)s: choose its referee from the list.") % {"n": n}
                        for n in unread
                    )
                )
            changed = officials.stage_referees_assign(
                stage=stage, actor=request.user, referees=chosen
            )
        except DomainError as exc:
            messages.error(request, exc.message)
            status = 400
        else:
            messages.success(
                request,
                ngettext(
                    "Referees assigned: %(n)s table changed.",
                    "Referees assigned: %(n)s tables changed.",
                    changed,
                )
                % {"n": changed},
            )
            return _back(request, event, "officials")
    return render(
        request,
        "links/stage_referees.html",
        {"event": event, "stage": stage, "rows": rows, "referees": referees},
        status=status,
    )


@login_required
@require_POST
def signal_handle(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A chief referee marks a player's signal handled (tournaments.links)."""
    event = get_object_or_404(Event, slug=slug)
    if not access.may_handle_checks(request.user, event):
        raise PermissionDenied(_("Only chief referees and organizers handle the players' signals."))
    get_object_or_404(ResultCheck, pk=pk, game__board__event=event)
    try:
        checks.result_check_handle(
            check_id=pk, actor=request.user, note=request.POST.get("note", "")
        )
    except DomainError as exc:
        messages.error(request, exc.message)
    return redirect("referee:flagged", slug=event.slug)


def dashboard_context(event: Event) -> dict[str, Any]:
    """What the dashboard's links and officials sections show (organizer/_links.html,
    organizer/_officials.html)."""
    table_links_live, player_links_live = tokens.links_in_force(event=event)
    return {
        "links_live": table_links_live,
        "player_links_live": player_links_live,
        "officials": officials.officials_of(event=event),
        "official_roles": [(r, Role(r).label) for r in officials.ROLES],
        "link_hours": tokens.DEFAULT_TABLE_HOURS,
        "player_link_hours": tokens.DEFAULT_PLAYER_HOURS,
        "link_rounds": tokens.link_rounds(event),
        "link_stages": list(event.stages.order_by("number")),
    }
