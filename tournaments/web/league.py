"""Public pages of clubs, series and player profiles, and their CSV exports (namespace
"league"). Thin: fetch through tournaments.league.profiles, render."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.core.access import tied_account
from tournaments.league import clubs, profiles
from tournaments.league import exports as league_exports
from tournaments.models import Club, Player, Series
from tournaments.people import accounts as people_accounts


def club(request: HttpRequest, slug: str) -> HttpResponse:
    found = get_object_or_404(Club, slug=slug)
    return render(
        request,
        "league/club.html",
        {
            "club": found,
            "series_list": profiles.club_series(found),
            "events": profiles.club_events(found),
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
    """The person of record ``pk`` (the kept record of a merge); 404 when hidden."""
    person = profiles.visible_person(request.user, pk)
    if person is None:
        raise Http404("no such profile")
    return person


def person(request: HttpRequest, pk: int) -> HttpResponse:
    """A person's profile; a merged record's address leads to the kept record's."""
    player = _person(request, pk)
    if player.pk != pk:
        return redirect("league:person", pk=player.pk)
    profile = profiles.person_profile(player, user=request.user)
    ids = [r.pk for r in profile.records]
    return render(
        request,
        "league/person.html",
        {
            "profile": profile,
            "master": profiles.person_master_points(player, profile.records),
            "person": player,
            "may_manage": clubs.may_manage_people(request.user, ids),
            "herself": clubs.is_the_person(request.user, ids),
            # "This is me" (templates/people/account_claim.html): the account's player and
            # its latest claim to this person.
            "account_player": people_accounts.account_player(request.user),
            # The account this person is (Player.user, or an event's player role), if any.
            "person_tied": (tied_account(player) if request.user.is_authenticated else None),
            "account_claim": people_accounts.claim_of(user=request.user, player=player),
        },
    )


def _act(request: HttpRequest, pk: int, call: object, success: str) -> HttpResponse:
    """Run one service for the profile's forms: a refusal is shown as a message (403 when the
    user may not act at all), a success too; back to the profile."""
    try:
        call()  # type: ignore[operator]
    except clubs.NotClubOrganizer as exc:
        raise PermissionDenied(exc.message) from None
    except clubs.ClubRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    player = get_object_or_404(Player, pk=pk)
    return redirect("league:person", pk=player.same_as_id or player.pk)


def _int(value: str | None) -> int | None:
    text = (value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


@login_required
@require_POST
def person_hide(request: HttpRequest, pk: int) -> HttpResponse:
    """Hide the profile from the public, or show it again (the person herself or an organizer)."""
    player = get_object_or_404(Player, pk=pk)
    hidden = request.POST.get("hidden") == "1"
    return _act(
        request,
        pk,
        lambda: clubs.profile_hide(player=player, hidden=hidden, actor=request.user),
        _("The profile is hidden from the public.") if hidden else _("The profile is public."),
    )


@login_required
@require_POST
def person_merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Merge another player record (by its id) into this person (an organizer)."""
    keep = get_object_or_404(Player, pk=pk)
    other_id = _int(request.POST.get("other"))
    other = Player.objects.filter(pk=other_id).first() if other_id is not None else None
    if other is None:
        messages.error(request, _("No such player."))
        return redirect("league:person", pk=keep.same_as_id or keep.pk)
    return _act(
        request,
        pk,
        lambda: clubs.person_merge(keep=keep, merge=other, actor=request.user),
        _("%(name)s is now the same person.") % {"name": other.name},
    )


@login_required
@require_POST
def person_unmerge(request: HttpRequest, pk: int, record: int) -> HttpResponse:
    """Undo the merge of one record of this person (an organizer)."""
    player = get_object_or_404(Player, pk=record)
    return _act(
        request,
        pk,
        lambda: clubs.person_unmerge(player=player, actor=request.user),
        _("%(name)s is a person of her own again.") % {"name": player.name},
    )


def person_csv(request: HttpRequest, pk: int) -> HttpResponse:
    player = _person(request, pk)
    if player.pk != pk:
        return redirect("league:person_csv", pk=player.pk)
    response = HttpResponse(
        league_exports.person_csv(person=player), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"player-{player.pk}-history.csv"
    )
    return response
