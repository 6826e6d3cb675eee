"""The penalties page of an event (chief referees and organizers): its penalties, the form
that gives one to a player of the event (tournaments.standings.penalties.penalty_add) and a
button that withdraws one. Before it, a penalty was given in the admin only, which a chief
referee without staff status cannot open (a trial's finding)."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import NotAllowed
from tournaments.events.selectors import cut_through
from tournaments.models import Event, EventStatus, Penalty, Player, Stage
from tournaments.standings import penalties as service
from tournaments.web.adjustments import rulings_door


class PenaltyForm(forms.Form):
    """A penalty: the player, the points (in the event's unit), the stage (none: the whole
    event) and the reason."""

    player: forms.ModelChoiceField[Player] = forms.ModelChoiceField(
        queryset=Player.objects.none(), label=gettext_lazy("Player")
    )
    # Text: the service says what a penalty's points are (penalties.penalty_points), in
    # one message for every wrong number.
    points = forms.CharField(label=gettext_lazy("Points"), max_length=20)
    stage: forms.ModelChoiceField[Stage] = forms.ModelChoiceField(
        queryset=Stage.objects.none(),
        required=False,
        label=gettext_lazy("Stage"),
        empty_label=gettext_lazy("the whole event"),
        help_text=gettext_lazy(
            "A penalty of the whole event counts only in the standings of the whole event; "
            "one of a stage counts in that stage's standings (and in those of a stage that "
            "carries its scores over)."
        ),
    )
    reason = TypedTextField(
        label=gettext_lazy("Reason"),
        max_length=500,
        lines=True,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 40}),
    )
    # One per form shown: the same form sent twice gives one penalty (penalties.penalty_add).
    form_key = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player = self.fields["player"]
        stage = self.fields["stage"]
        assert isinstance(player, forms.ModelChoiceField)
        assert isinstance(stage, forms.ModelChoiceField)
        player.queryset = service.event_players(event)
        stage.queryset = event.stages.order_by("number")


def _event_for_rulings(request: HttpRequest, slug: str) -> Event | HttpResponse:
    """The event of the page, or the sign-in page for a visitor (adjustments.rulings_door:
    403 for a signed-in user who may not rule in it)."""
    event = get_object_or_404(Event, slug=slug)
    return rulings_door(request, event) or event


@require_http_methods(["GET", "POST"])
def penalties_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the event's penalties and the form; POST: give the penalty, back to the page (the
    form again with its errors, 400, when refused)."""
    event = _event_for_rulings(request, slug)
    if isinstance(event, HttpResponse):
        return event
    form = PenaltyForm(
        request.POST or None, event=event, initial={"form_key": secrets.token_urlsafe(18)}
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                penalty = service.penalty_add(
                    event=event,
                    player=data["player"],
                    points=data["points"],
                    reason=data["reason"],
                    stage=data["stage"],
                    actor=request.user,
                    form_key=data["form_key"],
                )
            except NotAllowed as exc:
                raise PermissionDenied(exc.message) from None
            except service.PenaltyGivenAlready as exc:
                messages.info(request, exc.message)
                return redirect("referee:penalties", slug=event.slug)
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(
                    request,
                    _("%(player)s is penalised %(points)s.")
                    % {
                        "player": penalty.player.name,
                        "points": service.points_text(penalty.points),
                    },
                )
                if penalty.stage is not None and cut_through(stage=penalty.stage):
                    messages.warning(
                        request,
                        _(
                            "The cut of %(stage)s is made: this penalty moves its standings "
                            "but does not change who went through."
                        )
                        % {"stage": penalty.stage.label()},
                    )
                return redirect("referee:penalties", slug=event.slug)
        status = 400
    return render(
        request,
        "referee/penalties.html",
        {
            "event": event,
            "form": form,
            "penalties": service.event_penalties(event),
            "finished": event.status == EventStatus.FINISHED,
            "cuts_made": [s for s in event.stages.order_by("number") if cut_through(stage=s)],
        },
        status=status,
    )


@require_POST
def penalty_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw one penalty of the event, back to the page."""
    event = _event_for_rulings(request, slug)
    if isinstance(event, HttpResponse):
        return event
    penalty = Penalty.objects.filter(event=event, pk=pk).select_related("player").first()
    if penalty is None and not service.penalty_withdrawn(event=event, penalty_id=pk):
        raise Http404("no such penalty in this event")  # another event's, or none ever
    try:
        removed = penalty is not None and service.penalty_remove(
            penalty_id=penalty.pk, actor=request.user
        )
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None
    if penalty is None or not removed:
        # Pressed again (a second tab, the back button): nothing left to withdraw.
        messages.info(request, _("This penalty was withdrawn already."))
    else:
        messages.success(
            request,
            _("The penalty of %(player)s is withdrawn.") % {"player": penalty.player.name},
        )
    return redirect("referee:penalties", slug=event.slug)
