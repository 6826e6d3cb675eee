"""The pages of the site's e-mail (namespace "mail"; tournaments.core.mail): the page an
unsubscribe link opens (a button turns the address's e-mail off, or on again; opening it changes
nothing), the switch on a player's private link page, and the organizer's message to every
player of an event (a preview of how many it reaches; sent once per form shown).

Thin: each POST calls one service of tournaments.core.mail; a refusal is shown and changed
nothing.
"""

from __future__ import annotations

import secrets

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from tournaments.core import mail
from tournaments.core.access import NotOrganizer, link_refusal
from tournaments.links import tokens
from tournaments.models import MailState, OutgoingMail, Player
from tournaments.web.organizer import event_for_organizer, login_required


@require_http_methods(["GET", "HEAD", "POST"])
def mail_off(request: HttpRequest, token: str) -> HttpResponse:
    """The page of an unsubscribe link: the address and whether the site writes to it; POST
    ``off`` (1 or 0) turns its e-mail off or on again. A token that is not one answers 404."""
    address = mail.unsubscribe_address(token)
    if address is None:
        raise Http404(_("This link is not valid: copy it whole from the e-mail."))
    if request.method == "POST":
        off = request.POST.get("off", "1") != "0"
        mail.mail_set(address=address, off=off, actor=request.user)
        if off:
            messages.success(request, _("Done: the site sends no more e-mail to this address."))
        else:
            messages.success(request, _("Done: the site writes to this address again."))
        return redirect("mail:off", token=token)
    known = Player.objects.filter(email__iexact=address).exists()
    return render(
        request,
        "people/mail_off.html",
        {"address": address, "known": known, "off": mail.mail_is_off(address)},
    )


@require_POST
def link_mail(request: HttpRequest, token: str) -> HttpResponse:
    """POST from a player's private link page: ``mail`` 1 (send me e-mail about this event's
    rounds) or 0 (none), for the player's address; back to her page."""
    link = tokens.player_link_find(token)
    if link is None or link_refusal(link) is not None:
        raise Http404(tokens.UNKNOWN_LINK)
    player = link.player
    if player.email:
        bearer = tokens.LinkBearer.of(link, device=request.headers.get("User-Agent", ""))
        wanted = request.POST.get("mail") == "1"
        mail.mail_set(address=player.email, off=not wanted, actor=bearer, event=link.event)
    return redirect("links:player", token=token)


class BroadcastForm(forms.Form):
    subject = TypedTextField(label=gettext_lazy("Subject"), max_length=mail.SUBJECT_CHARS)
    body = TypedTextField(
        label=gettext_lazy("Message"),
        max_length=mail.BODY_CHARS,
        lines=True,
        widget=forms.Textarea(attrs={"rows": 10}),
    )
    nonce = forms.RegexField(regex=mail.NONCE, widget=forms.HiddenInput)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def broadcast(request: HttpRequest, slug: str) -> HttpResponse:
    """The organizer's message to every player of the event: the form, how many it reaches,
    and the event's mails that failed. POST sends it (once per form shown: its nonce); 403 for
    anyone who is not an organizer of the event."""
    event = event_for_organizer(request, slug)
    status = 200
    if request.method == "POST":
        form = BroadcastForm(request.POST)
        if form.is_valid():
            try:
                sent = mail.event_broadcast(
                    event=event,
                    actor=request.user,
                    subject=form.cleaned_data["subject"],
                    body=form.cleaned_data["body"],
                    nonce=form.cleaned_data["nonce"],
                )
            except NotOrganizer as exc:
                raise PermissionDenied(exc.message) from None
            except DomainError as exc:
                messages.error(request, exc.message)
                status = 400
            else:
                if sent:
                    messages.success(
                        request,
                        ngettext(
                            "Your message is on its way to %(n)s player.",
                            "Your message is on its way to %(n)s players.",
                            sent,
                        )
                        % {"n": sent},
                    )
                else:
                    messages.info(request, _("This message was sent already: nothing more sent."))
                return redirect("mail:broadcast", slug=event.slug)
        else:
            status = 400
    else:
        form = BroadcastForm(initial={"nonce": secrets.token_urlsafe(18)})
    failed = OutgoingMail.objects.filter(event=event, state=MailState.FAILED).order_by(
        "-created_at"
    )[:50]
    return render(
        request,
        "people/mail_broadcast.html",
        {
            "event": event,
            "form": form,
            "audience": len(mail.broadcast_audience(event)),
            "failed": failed,
        },
        status=status,
    )
