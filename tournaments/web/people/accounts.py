"""Pages of accounts tied to players (namespace "accounts"; tournaments.people.accounts): the
account page ("My account": the e-mail choice, the public name), the organizer's invitation of
a player and the invitee's page, the claim "this is me" on a public profile and the
organizer's decision on it.

Thin: each POST calls one service; a refusal is shown as a message (403 when the user may not
act at all), or beside its field on the account page's name form (400), and changed nothing.
"""

from __future__ import annotations

from typing import cast

from allauth.account.models import EmailAddress
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import NotAllowed, NotOrganizer
from tournaments.models import Event, Player, ProfileClaim
from tournaments.online.entry import NAME_MAX, public_name_set
from tournaments.people import accounts


class PublicNameForm(forms.Form):
    """The public name of the player tied to the account (tournaments.online.entry
    .public_name_set holds the rules; the form says the typed text's own first)."""

    name = TypedTextField(
        label=gettext_lazy("Public name"),
        max_length=NAME_MAX,
        error_messages={"required": gettext_lazy("Give your public name.")},
    )


def _name_change(request: HttpRequest, form: PublicNameForm) -> bool:
    """Change the public name to the bound ``form``'s; whether it was. A refusal is put on
    the form (the page shows it beside the field)."""
    if not form.is_valid():
        return False
    try:
        player = public_name_set(user=request.user, name=form.cleaned_data["name"])
    except accounts.AccountRefused as exc:
        form.add_error("name", exc.message)
        return False
    messages.success(request, _("Your public name is now %(name)s.") % {"name": player.name})
    return True


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in user's account: the player tied to it, his e-mail addresses, his claims.
    POST ``mail`` (a checkbox) turns the site's e-mail about his events on or off; POST
    ``change=name`` with ``name`` changes his public name (PublicNameForm), the page shown
    again with the reason (400) when it is refused."""
    player = accounts.account_player(request.user)
    name_form = PublicNameForm(initial={"name": player.name if player else ""})
    status = 200
    if request.method == "POST" and request.POST.get("change") == "name":
        name_form = PublicNameForm(request.POST)
        if _name_change(request, name_form):
            return redirect("accounts:me")
        if player is None:  # no form on his page to show the reason on
            for error in name_form["name"].errors:
                messages.error(request, str(error))
            return redirect("accounts:me")
        status = 400
    elif request.method == "POST":
        try:
            accounts.account_mail_set(user=request.user, mail_on=bool(request.POST.get("mail")))
        except accounts.AccountRefused as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your choice is saved."))
        return redirect("accounts:me")
    user = cast(User, request.user)  # login_required
    return render(
        request,
        "people/account.html",
        {
            "player": player,
            "name_form": name_form,
            "addresses": EmailAddress.objects.filter(user=user).order_by("-primary", "email"),
            "claims": ProfileClaim.objects.filter(user=user).select_related("player"),
        },
        status=status,
    )


@login_required
@require_POST
def invite(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The organizer mails a player of the event an invitation (POST ``email``)."""
    event = get_object_or_404(Event, slug=slug)
    player = get_object_or_404(Player, pk=pk)

    def link(token: str) -> str:
        return request.build_absolute_uri(reverse("accounts:invitation", args=[token]))

    try:
        accounts.invitation_send(
            event=event,
            player=player,
            email=request.POST.get("email", ""),
            actor=request.user,
            link=link,
        )
    except NotOrganizer as exc:
        raise PermissionDenied(exc.message) from None
    except accounts.AccountRefused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("The invitation to %(name)s is on its way.") % {"name": player.name}
        )
    return redirect("organizer:players", slug=event.slug)


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The invitee's page: sign in or sign up first (the page is their ``next``), then POST
    to tie the account to the player."""
    try:
        found = accounts.invitation_read(token)
    except accounts.AccountRefused as exc:
        return render(
            request, "people/account_invitation.html", {"refusal": exc.message}, status=400
        )
    if request.method == "POST" and request.user.is_authenticated:
        try:
            accounts.invitation_accept(token=token, user=request.user)
        except accounts.AccountRefused as exc:
            return render(
                request,
                "people/account_invitation.html",
                {"refusal": exc.message, "invitation": found, "here": request.get_full_path()},
                status=400,
            )
        messages.success(
            request,
            _("Your account is now tied to %(name)s.") % {"name": found.player.name},
        )
        return redirect("accounts:me")
    refusal = accounts.invitation_refusal(token=token, user=request.user)
    if refusal is not None:
        # Said before the button, which would only be refused: 400 for a link no one can use
        # (replaced), 200 for one another account of the invitee's can.
        unusable = accounts.invitation_refusal(token=token, user=None) is not None
        return render(
            request,
            "people/account_invitation.html",
            {"refusal": refusal, "invitation": found, "here": request.get_full_path()},
            status=400 if unusable else 200,
        )
    return render(
        request,
        "people/account_invitation.html",
        {"invitation": found, "here": request.get_full_path()},
    )


@login_required
@require_POST
def claim(request: HttpRequest, pk: int) -> HttpResponse:
    """The signed-in user claims to be the person of the profile ``pk`` (POST ``message``)."""
    player = get_object_or_404(Player, pk=pk)
    try:
        made = accounts.claim_make(
            user=request.user, player=player, message=request.POST.get("message", "")
        )
    except accounts.AccountRefused as exc:
        messages.error(request, exc.message)
        return redirect("league:person", pk=player.same_as_id or player.pk)
    messages.success(
        request,
        _("Asked: an organizer of %(name)s's events will decide.") % {"name": made.player.name},
    )
    return redirect("league:person", pk=made.player.pk)


@login_required
@require_POST
def claim_decide(request: HttpRequest, pk: int, decision: str) -> HttpResponse:
    """An organizer approves or declines a pending claim; back to ``next`` (his dashboard)."""
    if decision not in ("approve", "decline"):
        raise Http404("no such decision")
    found = get_object_or_404(ProfileClaim, pk=pk)
    try:
        accounts.claim_decide(claim=found, actor=request.user, approve=decision == "approve")
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None
    except accounts.AccountRefused as exc:
        messages.error(request, exc.message)
    else:
        done = (
            _("%(user)s is now tied to %(name)s.")
            if decision == "approve"
            else _("The claim of %(user)s to be %(name)s is declined.")
        )
        who = found.user.email or found.user.get_username()
        messages.success(request, done % {"user": who, "name": found.player.name})
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = reverse("organizer:home")
    return redirect(back)
