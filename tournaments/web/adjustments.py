"""The page of one table's adjusted scores on one board, for the event's chief referees and
organizers (tournaments.core.access.may_rule): the adjusted scores given, each with its reason
and a button that removes it, and three forms, each a ruling of its own with its reason
(tournaments.standings.rulings):

- *sides*: the landlord's seat, the landlord's side's score and the farmers' side's (bridge
  gives each side of a table its own artificial score, Law 12C2);
- *seats*: each seat its own score, a seat left empty keeping its result;
- *weighted*: the table's possible results (Law 12C1(c)), each a weight and a score per seat.

A score is average-plus, average, average-minus or an artificial percentage (0 to 100, two
decimals at most). Every POST calls one service; a refusal is said on the page, under the
form it came from, and nothing is stored.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import TypedTextField
from games.models import Board
from tournaments.core import embargo
from tournaments.core.access import may_rule
from tournaments.core.lineups import table_players
from tournaments.core.rules import rules_of
from tournaments.events.selectors import cut_through
from tournaments.models import Adjustment, AdjustmentKind, Event, Table
from tournaments.standings.rulings import (
    MAX_POSSIBLE_RESULTS,
    MAX_SCORE,
    RulingRejected,
    adjusted_notation,
    adjusted_scores_set,
    adjusted_value,
    adjustment_remove,
    weight_value,
    weighted_score_set,
)
from tournaments.tables import selectors

REASON_MAX_CHARS = 2000
_REASON_ERRORS = {"required": gettext_lazy("Give the reason of this ruling.")}


# The adjusted scores a seat's field offers: the three averages and an artificial percentage
# (a weighted score is the whole table's, in a form of its own).
SCORE_CHOICES = [
    (AdjustmentKind.AVERAGE_PLUS.value, format_lazy("{} (60%)", gettext_lazy("average-plus"))),
    (AdjustmentKind.AVERAGE.value, format_lazy("{} (50%)", gettext_lazy("average"))),
    (AdjustmentKind.AVERAGE_MINUS.value, format_lazy("{} (40%)", gettext_lazy("average-minus"))),
    (AdjustmentKind.PERCENTAGE.value, gettext_lazy("artificial percentage:")),
]


class AdjustedScoreWidget(forms.MultiWidget):
    """A choice of adjusted score and the percentage of an artificial one, side by side."""

    def __init__(self, choices: list[tuple[str, Any]]) -> None:
        super().__init__(
            widgets=[
                forms.Select(choices=choices),
                forms.NumberInput(
                    attrs={"step": "0.01", "min": "0", "max": "100", "inputmode": "decimal"}
                ),
            ]
        )

    def decompress(self, value: Any) -> list[Any]:
        if value and str(value).endswith("%"):
            return [AdjustmentKind.PERCENTAGE.value, str(value)[:-1]]
        return [value or "", None]


class AdjustedScoreField(forms.MultiValueField):
    """An adjusted score: its kind and, for an artificial one, its percentage; cleaned to the
    pure scoring's notation ("avg+", "61.8%"), "" when left empty (not `required`)."""

    def __init__(self, *, required: bool = True, **kwargs: Any) -> None:
        choices = SCORE_CHOICES if required else [("", "—"), *SCORE_CHOICES]
        fields = (
            forms.ChoiceField(choices=choices, required=False),
            forms.DecimalField(
                min_value=0, max_value=100, max_digits=5, decimal_places=2, required=False
            ),
        )
        super().__init__(
            fields=fields,
            widget=AdjustedScoreWidget(choices),
            require_all_fields=False,
            required=required,
            **kwargs,
        )

    def compress(self, data_list: list[Any]) -> str:
        kind, percentage = data_list if data_list else ("", None)
        if not kind:
            if percentage is not None:
                raise forms.ValidationError(_("Only an artificial percentage takes a percentage."))
            return ""
        try:
            notation = adjusted_notation(kind, percentage)
            adjusted_value(notation)
        except RulingRejected as exc:
            raise forms.ValidationError(exc.message) from None
        return notation


def _reason() -> TypedTextField:
    return TypedTextField(
        lines=True,
        label=gettext_lazy("Reason"),
        max_length=REASON_MAX_CHARS,
        error_messages=_REASON_ERRORS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class SidesForm(forms.Form):
    """The landlord's side and the farmers' side: the landlord's seat scores the first, every
    other seat of the table the second."""

    landlord = forms.ChoiceField(label=gettext_lazy("Landlord"))
    landlord_score = AdjustedScoreField(label=gettext_lazy("Landlord's side"))
    farmers_score = AdjustedScoreField(label=gettext_lazy("Farmers' side"))

    def __init__(self, *args: Any, seats: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        cast(forms.ChoiceField, self.fields["landlord"]).choices = [(s, s) for s in seats]
        self.fields["reason"] = _reason()

    def scores(self) -> dict[str, str]:
        """Seat → adjusted score, every seat of the table (call on a valid form)."""
        data = self.cleaned_data
        return {
            s: data["landlord_score"] if s == data["landlord"] else data["farmers_score"]
            for s in self.seats
        }


class SeatsForm(forms.Form):
    """Each seat its own adjusted score; a seat left empty keeps its result."""

    def __init__(self, *args: Any, seats: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in seats:
            self.fields[seat] = AdjustedScoreField(required=False, label=seat)
        self.fields["reason"] = _reason()
        self.seats = seats

    def scores(self) -> dict[str, str]:
        """Seat → adjusted score, the seats given one (call on a valid form)."""
        return {s: self.cleaned_data[s] for s in self.seats if self.cleaned_data[s]}


class PossibleResultForm(forms.Form):
    """One possible result of the table: its weight ("1/2", "0.25", "25%") and every seat's
    whole-number score."""

    weight = forms.CharField(label=gettext_lazy("Weight"), max_length=24)

    def __init__(self, *args: Any, seats: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in seats:
            self.fields[seat] = forms.IntegerField(
                label=seat, min_value=-MAX_SCORE, max_value=MAX_SCORE
            )
        self.seats = seats

    def clean_weight(self) -> str:
        weight = self.cleaned_data["weight"]
        try:
            weight_value(weight)
        except RulingRejected as exc:
            raise forms.ValidationError(exc.message) from None
        return str(weight)


PossibleResults = forms.formset_factory(
    PossibleResultForm,
    extra=3,
    max_num=MAX_POSSIBLE_RESULTS,
    absolute_max=MAX_POSSIBLE_RESULTS,
    validate_max=True,
)


class WeightedForm(forms.Form):
    """The reason of a weighted score (its possible results are the formset's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"] = _reason()


def rulings_door(request: HttpRequest, event: Event) -> HttpResponse | None:
    """None when the signed-in user may rule in `event` (a chief referee or an organizer:
    adjusted scores and penalties); else the sign-in page for a visitor.

    Raises:
        PermissionDenied: a signed-in user who may not rule there.
    """
    if may_rule(request.user, event):
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied(
        _("Only a chief referee or an organizer gives adjusted scores and penalties.")
    )


def _table_and_board(
    request: HttpRequest, slug: str, table_id: int, number: int
) -> tuple[Table, Board] | HttpResponse:
    """(table, board) of the page, or the refusal to answer: the sign-in page for a visitor,
    a 403 for a signed-in user who may not rule or a board not played at the table."""
    table, board = selectors.table_and_board(slug=slug, table_id=table_id, number=number)
    refused = rulings_door(request, table.round.event)
    if refused is not None:
        return refused
    if not board.is_played_at(table):
        raise PermissionDenied(_("This board is not played at this table."))
    return table, board


@require_http_methods(["GET", "POST"])
def adjusted_scores(request: HttpRequest, slug: str, table_id: int, number: int) -> HttpResponse:
    """The page (see the module docstring): GET shows it, POST carries out its ``action``
    (``sides``, ``seats``, ``weighted``, ``remove``) and comes back to it."""
    found = _table_and_board(request, slug, table_id, number)
    if isinstance(found, HttpResponse):
        return found
    table, board = found
    seats = list(rules_of(table.round.event).seats)
    current = selectors.current_game(table=table, board=board)
    bound = request.POST if request.method == "POST" else None
    action = request.POST.get("action") if bound is not None else None
    forms_of = {
        "sides": SidesForm(
            bound if action == "sides" else None,
            seats=seats,
            initial={"landlord": current.landlord if current else None},
        ),
        "seats": SeatsForm(bound if action == "seats" else None, seats=seats),
        "weighted": WeightedForm(bound if action == "weighted" else None),
        "results": PossibleResults(
            bound if action == "weighted" else None,
            prefix="result",
            form_kwargs={"seats": seats},
        ),
    }
    error = None
    if bound is not None:
        error = _carry_out(request, action, table, board, forms_of)
        if error is None:
            return redirect(request.path)
    context = _context(table, board, seats, current, forms_of, action, error)
    return render(
        request, "referee/adjusted_scores.html", context, status=200 if bound is None else 400
    )


def _carry_out(
    request: HttpRequest, action: str | None, table: Table, board: Board, forms_of: dict[str, Any]
) -> str | None:
    """Carry out the POSTed `action`: None when done (a message says so), else the refusal
    (the bound form shows its own errors beside it).

    Raises:
        Http404: ``remove`` of an adjusted score not of this table's board.
    """
    try:
        if action == "remove":
            _remove(request, table, board)
            return None
        if action in ("sides", "seats"):
            form = forms_of[action]
            if not form.is_valid():
                return _("Correct the adjusted scores below.")
            adjusted_scores_set(
                table=table,
                board=board,
                scores=form.scores(),
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        elif action == "weighted":
            form, results = forms_of["weighted"], forms_of["results"]
            if not (form.is_valid() and results.is_valid()):
                return _("Correct the possible results below.")
            weighted_score_set(
                table=table,
                board=board,
                results=[
                    (f.cleaned_data["weight"], {s: f.cleaned_data[s] for s in f.seats})
                    for f in results
                    if f.has_changed()
                ],
                reason=form.cleaned_data["reason"],
                actor=request.user,
            )
        else:
            return _("Unknown action.")
    except DomainError as exc:
        return exc.message
    messages.success(
        request,
        _("Table %(table)s, board %(board)s: adjusted scores saved.")
        % {"table": table.number, "board": board.number},
    )
    return None


def _remove(request: HttpRequest, table: Table, board: Board) -> None:
    """Remove the POSTed adjusted score of this table's board (a weighted score: the table's).

    An adjusted score no longer there (removed by the same button pressed twice, or by
    someone else meanwhile) is said to be removed already.

    Raises:
        Http404: not an id, or an adjusted score of another table or board.
        DomainError: as adjustment_remove.
    """
    # An id: ASCII digits, at most 9 of them (a number past the column is no row).
    text = request.POST.get("adjustment", "")
    if not (text.isascii() and text.isdigit() and len(text) < 10):
        raise Http404
    if not Adjustment.objects.filter(pk=int(text), table=table, board=board).exists():
        if Adjustment.objects.filter(pk=int(text)).exists():
            raise Http404
        messages.info(request, _("This adjusted score was removed already."))
        return
    adjustment_remove(adjustment_id=int(text), actor=request.user)
    messages.success(
        request,
        _("Table %(table)s, board %(board)s: adjusted score removed.")
        % {"table": table.number, "board": board.number},
    )


def _context(
    table: Table,
    board: Board,
    seats: list[str],
    current: Any,
    forms_of: dict[str, Any],
    action: str | None,
    error: str | None,
) -> dict[str, Any]:
    players = table_players(table, board.number)
    given = {
        a.seat: a
        for a in Adjustment.objects.filter(table=table, board=board).select_related("created_by")
    }
    return {
        "event": table.round.event,
        "table": table,
        "board": board,
        "current": current,
        "rows": [{"seat": s, "player": players.get(s), "adjustment": given.get(s)} for s in seats],
        # Removing an adjusted score of a table with no game hides an open board again
        # (tournaments.core.embargo): the page says so before the button is pressed.
        "rehides": current is None and bool(given) and embargo.board_is_open(board),
        # Its stage's cut made: a correction moves the standings, not who went through.
        "cut_made": table.round.stage is not None and bool(cut_through(stage=table.round.stage)),
        "error": error,
        "action": action,
        **forms_of,
    }
