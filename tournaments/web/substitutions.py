"""Substitutions on the organizer's dashboard and the chief referee's event page: the form that
records one (tournaments.events.substitutions.substitution_add) and the button that removes one.
Both
POST only; a refusal comes back as a message, nothing stored."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required as _login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from tournaments.core.access import is_chief_referee, is_organizer
from tournaments.core.rules import rules_of
from tournaments.events import substitutions
from tournaments.models import Event, Player, Round, RoundState, Substitution

login_required = _login_required(login_url="account_login")


# The largest number a PositiveIntegerField column holds on PostgreSQL (and the bound Django's
# model validators give it): a form's number past it would make the database raise.
COLUMN_MAX = 2_147_483_647


class SubstitutionForm(forms.Form):
    """One substitution: which table and seat of the round, who (a player of the event or a
    new reserve's name), which boards (none: the whole round). The labels name the fields in
    the form's errors (the page writes its own), so each reads as the subject of its error."""

    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, max_value=COLUMN_MAX)
    seat = TypedTextField(label=gettext_lazy("Seat"), max_length=2)
    substitute = forms.IntegerField(
        label=gettext_lazy("Substitute"), min_value=1, max_value=COLUMN_MAX, required=False
    )
    reserve_name = TypedTextField(
        label=gettext_lazy("Reserve's name"), max_length=120, required=False
    )
    ranked = forms.BooleanField(label=gettext_lazy("rank the reserve"), required=False)
    first_board = forms.IntegerField(
        label=gettext_lazy("First board"), min_value=1, max_value=COLUMN_MAX, required=False
    )
    last_board = forms.IntegerField(
        label=gettext_lazy("Last board"), min_value=1, max_value=COLUMN_MAX, required=False
    )
    reason = TypedTextField(
        lines=True,
        label=gettext_lazy("Reason"),
        max_length=substitutions.REASON_MAX_CHARS,
        required=False,
    )

    def refusal(self) -> str:
        """Every error of the bound form in one message, each after the name of its field."""
        said = []
        for name, errors in self.errors.items():
            error = " ".join(map(str, errors))
            field = self.fields.get(name)
            said.append(
                _("%(field)s: %(error)s") % {"field": field.label, "error": error}
                if field
                else error
            )
        return " ".join(said)


# The session's key for a refused substitution's form as typed, shown once on the page the
# refusal goes back to (`_keep_typed`, `context`).
TYPED_KEY = "substitution_typed"
TYPED_FIELDS = (
    "table",
    "seat",
    "substitute",
    "reserve_name",
    "ranked",
    "first_board",
    "last_board",
    "reason",
)


def _keep_typed(request: HttpRequest, round_: Round) -> None:
    """Keep the refused form's fields as typed, for the page the refusal goes back to: it
    was an empty form, everything typed again."""
    request.session[TYPED_KEY] = {
        "round": round_.pk,
        "fields": {name: request.POST.get(name, "")[:500] for name in TYPED_FIELDS},
    }


def context(event: Event, request: HttpRequest) -> dict[str, Any]:
    """What the substitutions part of a page needs: the substitutions per round id, the
    players who may substitute (the event's entrants and seated players, reserves marked),
    the seats of the event's rules, and a refused form's fields as typed by round id (once)."""
    per_round: dict[int, list[Substitution]] = defaultdict(list)
    for sub in Substitution.objects.filter(round__event=event).select_related(
        "table", "player", "substitute"
    ):
        per_round[sub.round_id].append(sub)
    return {
        "substitutions": dict(per_round),
        "substitute_choices": substitutions.substitute_choices(event=event),
        "seat_names": list(rules_of(event).seats),
        "substitution_typed": _typed(request),
    }


def _typed(request: HttpRequest) -> dict[int, dict[str, str]]:
    kept = request.session.pop(TYPED_KEY, None)
    if not isinstance(kept, dict) or not isinstance(kept.get("fields"), dict):
        return {}
    round_id = kept.get("round")
    return {round_id: kept["fields"]} if isinstance(round_id, int) else {}


def referee_context(event: Event, request: HttpRequest) -> dict[str, Any]:
    """The substitutions part of the chief referee's event page (nothing for a referee): the
    rounds seated or in play, and `context`."""
    if not is_chief_referee(request.user, event):
        return {}
    open_rounds = event.rounds.filter(
        state__in=[RoundState.SEATED, RoundState.IN_PLAY], tables__isnull=False
    ).distinct()
    return {
        **context(event, request),
        "sub_rounds": list(open_rounds.order_by("number")),
        "back": "referee",
    }


def _back(request: HttpRequest, event: Event) -> HttpResponse:
    if request.POST.get("back") == "referee" or not is_organizer(request.user, event):
        return redirect("referee:event", slug=event.slug)
    return redirect("organizer:dashboard", slug=event.slug)


def _chief_event(request: HttpRequest, slug: str) -> Event:
    """The event of `slug` when the signed-in user is one of its organizers or chief referees
    (404 for no such event, 403 for anyone else)."""
    event = get_object_or_404(Event, slug=slug)
    if not is_chief_referee(request.user, event):
        raise PermissionDenied(_("Only the organizers and chief referees may do this."))
    return event


def _player(pk: int | None) -> Player | None:
    return None if pk is None else Player.objects.filter(pk=pk).first()


@login_required
@require_POST
def substitution_add(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    event = _chief_event(request, slug)
    round_ = get_object_or_404(Round.objects.select_related("event"), event=event, number=number)
    form = SubstitutionForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.refusal())
        _keep_typed(request, round_)
        return _back(request, event)
    data = form.cleaned_data
    table = round_.tables.filter(number=data["table"]).first()
    if table is None:
        messages.error(
            request,
            _("Round %(round)s has no table %(table)s.")
            % {"round": round_.number, "table": data["table"]},
        )
        _keep_typed(request, round_)
        return _back(request, event)
    substitute = _player(data["substitute"])
    try:
        sub = substitutions.substitution_add(
            table=table,
            seat=data["seat"],
            substitute=substitute,
            reserve_name=data["reserve_name"],
            ranked=data["ranked"],
            first_board=data["first_board"],
            last_board=data["last_board"],
            reason=data["reason"],
            actor=request.user,
        )
    except DomainError as exc:
        messages.error(request, exc.message)
        _keep_typed(request, round_)
    else:
        messages.success(
            request,
            _("%(substitute)s plays %(seat)s at table %(table)s for %(player)s: %(boards)s.")
            % {
                "substitute": sub.substitute.name,
                "seat": sub.seat,
                "table": table.number,
                "player": sub.player.name,
                "boards": sub.boards_label,
            },
        )
        _warn_entered(request, sub)
    return _back(request, event)


def _warn_entered(request: HttpRequest, sub: Substitution) -> None:
    """Say which of the substitution's boards the table had already entered: their results now
    count for the substitute, not for the player seated (right when the paperwork comes after
    the play; else the substitution is removed)."""
    numbers = substitutions.boards_entered(sub)
    if numbers:
        messages.warning(
            request,
            ngettext(
                "Already entered at table %(table)s: board %(boards)s. Its result at %(seat)s "
                "now counts for %(substitute)s, not %(player)s; if %(player)s played it, "
                "remove this substitution or give it the boards %(substitute)s played.",
                "Already entered at table %(table)s: boards %(boards)s. Their results at "
                "%(seat)s now count for %(substitute)s, not %(player)s; if %(player)s played "
                "them, remove this substitution or give it the boards %(substitute)s played.",
                len(numbers),
            )
            % {
                "table": sub.table.number,
                "boards": ", ".join(map(str, numbers)),
                "seat": sub.seat,
                "substitute": sub.substitute.name,
                "player": sub.player.name,
            },
        )


@login_required
@require_POST
def substitution_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    event = _chief_event(request, slug)
    if not Substitution.objects.filter(pk=pk).exists():
        # The button pressed twice, or someone else removed it meanwhile.
        messages.info(request, _("This substitution was removed already."))
        return _back(request, event)
    get_object_or_404(Substitution, pk=pk, round__event=event)
    try:
        substitutions.substitution_remove(substitution_id=pk, actor=request.user)
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Substitution removed."))
    return _back(request, event)
