"""Prizes and the paper people keep (tournaments.results.prizes): the organizer's prize list (a
formset: one line per prize, overall or in a category), the public final results page (overall
standings and each category's ranking with their prizes, once the event is finished or its
last round published) and the certificates' print page (one A4 sheet per prize winner, or per
player with ``?all=1``).

Thin: a Django formset parses, one service stores; refusals are the form's errors (nothing
changed). The organizer's pages answer 403 to anyone else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import NotAllowed, NotOrganizer, is_organizer
from tournaments.models import Event, Standing
from tournaments.people import life
from tournaments.results import prizes
from tournaments.web.organizer import event_for_organizer, login_required


class PrizeForm(forms.Form):
    category = forms.ChoiceField(label=gettext_lazy("Ranking"), required=False)
    place = forms.IntegerField(
        label=gettext_lazy("Place"), min_value=1, max_value=prizes.MAX_PLACE, required=False
    )
    description = TypedTextField(label=gettext_lazy("Prize"), max_length=200, required=False)

    def __init__(self, *args: Any, categories: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = categories  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("description") and not data.get("place"):
            self.add_error("place", _("Give the place this prize is for."))
        if data.get("place") and not data.get("description"):
            self.add_error("description", _("Say what the prize for this place is."))
        return data


PrizeFormSet = forms.formset_factory(PrizeForm, extra=3, can_delete=True, max_num=200)


def _choices(event: Event) -> list[tuple[str, str]]:
    return [("", prizes.category_label(""))] + [
        (c, prizes.category_label(c)) for c in prizes.event_categories(event)
    ]


@login_required
def prizes_edit(request: HttpRequest, slug: str) -> HttpResponse:
    """The event's prizes: one line per prize (ranking, place, what it is); a line left empty
    or ticked for deletion is no prize."""
    event = event_for_organizer(request, slug)
    kwargs = {"categories": _choices(event)}
    initial = [
        {"category": p.category, "place": p.place, "description": p.description}
        for p in event.prizes.order_by("category", "place")
    ]
    if request.method != "POST":
        formset = PrizeFormSet(initial=initial, form_kwargs=kwargs)
        return render(request, "people/prizes.html", {"event": event, "formset": formset})
    formset = PrizeFormSet(request.POST, initial=initial, form_kwargs=kwargs)
    error = ""
    if formset.is_valid():
        lines = [
            prizes.PrizeLine(d.get("category") or "", d["place"], d["description"])
            for d in formset.cleaned_data
            if d and not d.get("DELETE") and d.get("place") and d.get("description")
        ]
        try:
            prizes.prizes_set(event=event, actor=request.user, lines=lines)
        except (NotAllowed, NotOrganizer) as exc:
            raise PermissionDenied(exc.message) from None
        except DomainError as exc:
            error = exc.message
        else:
            messages.success(request, _("The prizes are saved."))
            return redirect("prizes:prizes", slug=event.slug)
    return render(
        request,
        "people/prizes.html",
        {"event": event, "formset": formset, "error": error},
        status=400,
    )


def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The final results: the overall standings with the prize of each place, then each
    category's ranking with its prizes. Public once the event is finished or its last round
    published; its organizers see it before (marked as not final)."""
    event = get_object_or_404(Event, slug=slug)
    public = prizes.results_public(event)
    if not public and not is_organizer(request.user, event):
        raise Http404(_("The final results are shown once the event is finished."))
    return render(
        request,
        "people/prizes_results.html",
        {
            "event": event,
            "rankings": prizes.final_results(event),
            "public": public,
            "final": event.status == "finished",
        },
    )


@dataclass(frozen=True)
class Sheet:
    """One certificate: the player's standings row, her overall place, and her prize (its
    ranking and place there) if she won one."""

    standing: Standing
    overall: str
    award: prizes.Award | None


@login_required
def certificates(request: HttpRequest, slug: str) -> HttpResponse:
    """One A4 certificate per prize winner (``?all=1``: per ranked player of the overall
    standings, with her place, and her prize if she won one), for the browser's print."""
    event = event_for_organizer(request, slug)
    ranked = prizes.final_results(event)
    every = request.GET.get("all") == "1"
    won = {a.standing.player_id: a for a in prizes.awards(ranked)}
    overall = {row.standing.player_id: row.place for row in ranked[0].rows}
    if every:
        sheets = [
            Sheet(row.standing, row.place, won.get(row.standing.player_id))
            for row in ranked[0].rows
        ]
    else:
        sheets = [Sheet(a.standing, overall.get(a.standing.player_id, ""), a) for a in won.values()]
    return render(
        request,
        "print/certificates.html",
        {
            "event": event,
            "sheets": sheets,
            "every": every,
            "when": life.event_date(event),
            "where": life.event_where(event),
        },
    )
