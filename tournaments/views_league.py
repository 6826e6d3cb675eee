"""Public pages of clubs, series and player profiles, and their CSV exports (namespace
"league"). Thin: fetch through tournaments.profiles, render."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header

from tournaments import league_exports, profiles
from tournaments.models import Club, Player, Series


def club(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "league/club.html",
        {
            "club": found,
            "series_list": profiles.club_series(found),
            "events": found.events.order_by("-created_at", "name"),
        },
    )


def series(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Series.objects.select_related("club"), slug=slug)
    return render(request, "league/series.html", {"table": profiles.series_table(found)})


def series_csv(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Series, slug=slug)
    response = HttpResponse(
        league_exports.series_csv(series=found), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"{found.slug}-standings.csv"
    )
    return response


def _person(request: HttpRequest, pk: int) -> Player:
    player = get_object_or_404(Player, pk=pk)
    if not profiles.profile_visible(request.user, player):
        raise Http404("no such profile")
    return player


def person(request: HttpRequest, pk: int) -> HttpResponse:
    """A person's profile; a merged record's address leads to the kept record's."""
    player = _person(request, pk)
    if player.same_as_id is not None:
        return redirect("league:person", pk=player.same_as_id)
    profile = profiles.person_profile(player, user=request.user)
    return render(request, "league/person.html", {"profile": profile, "person": player})


def person_csv(request: HttpRequest, pk: int) -> HttpResponse:
    player = _person(request, pk)
    if player.same_as_id is not None:
        return redirect("league:person_csv", pk=player.same_as_id)
    response = HttpResponse(
        league_exports.person_csv(person=player), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"player-{player.pk}-history.csv"
    )
    return response
