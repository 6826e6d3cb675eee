"""A club organizer's page (namespace "clubs", mounted at /organizer/clubs/): the club's
series (make one; mark one finished or current again) and the way to open an event for the
club. Thin: parse, call one service of tournaments.league.clubs, render."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required as _login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from tournaments.league import clubs, profiles
from tournaments.league.series import SERIES_TIEBREAKS
from tournaments.models import Club, Series

login_required = partial(_login_required, login_url="account_login")


def _club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    if not clubs.is_club_organizer(request.user, club):
        raise PermissionDenied(
            _("Only organizers of %(club)s may do this for it.") % {"club": club.name}
        )
    return club


@login_required
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's series and the form of a new one (POST makes it)."""
    club = _club(request, slug)
    values = {
        "name": "",
        "season": "",
        "scale": "",
        "best_of": "",
        "lot_seed": "",
        "master_scale": "",
    }
    chosen: list[str] = []
    error, status = "", 200
    if request.method == "POST":
        values = {k: request.POST.get(k, "").strip() for k in values}
        chosen = [t for t in request.POST.getlist("tiebreaks") if t in SERIES_TIEBREAKS]
        best = values["best_of"]
        try:
            if best and not (best.isascii() and best.isdigit() and len(best) < 6):
                raise clubs.ClubRefused(_("Best k of n events needs k of at least 1."))
            made = clubs.series_create(
                club=club,
                actor=request.user,
                name=values["name"],
                season=values["season"],
                scale=values["scale"] or None,
                best_of=int(best) if best else None,
                tiebreaks=chosen,
                lot_seed=values["lot_seed"],
                master_scale=values["master_scale"],
            )
        except DomainError as exc:
            error, status = exc.message, 400
        else:
            messages.success(request, _("Series %(name)s made.") % {"name": made.name})
            return redirect("clubs:club", slug=club.slug)
    return _page(request, club, values=values, chosen=chosen, error=error, status=status)


def _page(
    request: HttpRequest,
    club: Club,
    *,
    values: dict[str, str] | None = None,
    chosen: list[str] | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    """The club's page: its series, the new-series form (``values``, ``chosen`` tie-breaks)
    and the refusal ``error`` of what was asked (answered with ``status``)."""
    return render(
        request,
        "league/club_organizer.html",
        {
            "club": club,
            "series_list": profiles.club_series(club),
            "values": values or {},
            "chosen": chosen or [],
            "tiebreaks": SERIES_TIEBREAKS,
            "error": error,
        },
        status=status,
    )


@login_required
@require_POST
def series_finish(request: HttpRequest, slug: str, series_slug: str) -> HttpResponse:
    """Mark a series finished (POST finished=1) or current again (finished=0); a refusal
    (an event of it still running) shows on the club's page, 400."""
    club = _club(request, slug)
    found = get_object_or_404(Series, club=club, slug=series_slug)
    try:
        clubs.series_finish(
            series=found, actor=request.user, finished=request.POST.get("finished") == "1"
        )
    except DomainError as exc:
        return _page(request, club, error=exc.message, status=400)
    return redirect("clubs:club", slug=club.slug)
