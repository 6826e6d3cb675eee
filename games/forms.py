"""The referee's forms: a game record in JSON and a quick result (doors of
tournaments.tables.submission.game_submit), and a chief referee's ruling
(tournaments.tables.review.game_resolve)."""

from __future__ import annotations

import json
import uuid
from typing import Any, cast

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ddz_site.kernel.text import TypedTextField
from games.quick_result import QuickResult, quick_problems
from games.steps import EntryDeal

# What Python's JSON reader says is wrong (json.JSONDecodeError.msg, its C reader's and its
# Python reader's words, a detail such as the character may follow), in the reader's language.
JSON_PROBLEMS: tuple[tuple[str, Promise], ...] = (
    ("Expecting value", _("a value was expected")),
    ("Expecting property name", _("a field name in double quotes was expected")),
    ("Expecting ':'", _("a colon (:) was expected")),
    ("Expecting ','", _("a comma (,) was expected")),
    ("Unterminated string", _("a text in quotes is not closed")),
    ("Invalid control character", _("a text in quotes holds a control character")),
    ("Invalid \\uXXXX", _("a backslash escape of a character needs four hex digits")),
    ("Invalid \\escape", _("a backslash is followed by no escape JSON knows")),
    ("Extra data", _("more follows the end of the JSON value")),
    ("Illegal trailing comma", _("a comma before the end of an object or a list")),
)


def json_problem(msg: str) -> str | None:
    """`msg` of a json.JSONDecodeError in the reader's language; None for words this site does
    not know (a newer Python's), which are then left out rather than shown in English."""
    for start, said in JSON_PROBLEMS:
        if msg.startswith(start):
            return str(said)
    return None


class GameRecordForm(forms.Form):
    record = TypedTextField(
        lines=True,
        label=_("Game record (JSON)"),
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "autocapitalize": "off"}),
    )

    def clean_record(self) -> Any:
        text = self.cleaned_data["record"]
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            where = {"line": exc.lineno, "column": exc.colno}
            problem = json_problem(exc.msg)
            if problem is None:
                raise forms.ValidationError(
                    _("This is not JSON (line %(line)s, column %(column)s)."), params=where
                ) from None
            raise forms.ValidationError(
                _("This is not JSON (line %(line)s, column %(column)s: %(error)s)."),
                params={**where, "error": problem},
            ) from None
        except (RecursionError, ValueError):
            # JSON nested deeper than the recursion limit, or a number of more digits than
            # int() converts (sys.get_int_max_str_digits()).
            raise forms.ValidationError(
                _("This JSON nests too deeply or holds a number too long to read.")
            ) from None


class QuickResultForm(forms.Form):
    """The quick result (games.quick_result.QuickResult): what the table says happened, without the
    plays; checked against the deal and scored by the engine."""

    landlord = forms.ChoiceField(label=_("Landlord"))
    # The bounds of the rules (the bids of the bidding system, the rockets the deck holds) are
    # the quick result's checks against the deal (`clean`), which name every field at fault;
    # the form's own bounds only keep numbers to a sane size.
    bid = forms.IntegerField(label=_("Bid (contract value)"), max_value=10_000)
    doubles = forms.MultipleChoiceField(
        label=_("Farmers who doubled"), required=False, widget=forms.CheckboxSelectMultiple
    )
    bombs = TypedTextField(
        label=_("Bombs played (their ranks, e.g. 7 2)"),
        required=False,
        max_length=60,
        widget=forms.TextInput(attrs={"autocapitalize": "off", "spellcheck": "false"}),
    )
    rockets = forms.IntegerField(
        label=_("Rockets played"), min_value=0, max_value=10_000, initial=0
    )
    spring = forms.ChoiceField(
        label=_("Spring"),
        choices=[
            ("", _("neither")),
            ("spring", _("spring")),
            ("anti_spring", _("anti-spring")),
        ],
        required=False,
    )
    winner = forms.ChoiceField(
        label=_("Winner"), choices=[("landlord", _("landlord")), ("farmers", _("farmers"))]
    )
    idempotency_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=100)

    def clean(self) -> dict[str, Any] | None:
        """A damaged hidden key (too long) is said above the form, where it shows, and the form
        comes back with a fresh key rather than the value sent (never echoed)."""
        if "idempotency_key" in self.errors:
            del self.errors["idempotency_key"]
            data = cast(Any, self.data).copy()  # a QueryDict (its lists kept), or a dict
            data["idempotency_key"] = uuid.uuid4().hex
            self.data = data
            self.add_error(
                None,
                _(
                    "The form's hidden key was damaged (at most 100 characters): nothing is "
                    "stored; check the result and send the form again."
                ),
            )
        cleaned = super().clean()
        if self.deal is not None:
            self._check_claims()
        return cleaned

    def _check_claims(self) -> None:
        """The claims checked against the deal (games.quick_result.quick_problems), each
        refusal under its field, next to the fields the form itself refused: one answer names
        every field at fault. For a field the form refused, only the form's error is shown."""
        data = self.cleaned_data
        refused = set(self.errors)

        def given(name: str, value: Any) -> Any:
            # A refused field is absent from cleaned_data: None stands in, which the checks
            # refuse as well (that refusal is not shown: the form's own is).
            return None if name in refused else value

        claims: dict[str, Any] = {
            "landlord": given("landlord", data.get("landlord")),
            "bid": given("bid", data.get("bid")),
            "winner": given("winner", data.get("winner")),
            "bombs": given("bombs", self._bombs(data.get("bombs") or "")),
            "rockets": given("rockets", data.get("rockets") or 0),
            "doubles": given("doubles", tuple(data.get("doubles") or ())),
            "spring": data.get("spring") == "spring",
            "anti_spring": data.get("spring") == "anti_spring",
        }
        quick = QuickResult(**claims)
        assert self.deal is not None
        for problem in quick_problems(self.deal, quick):
            where = problem.field if problem.field in self.fields else None
            if where not in refused:
                self.add_error(where, problem.message)

    @staticmethod
    def _bombs(text: str) -> tuple[str, ...]:
        return tuple(t for t in text.replace(",", " ").split() if t)

    def __init__(
        self,
        *args: Any,
        seats: tuple[str, ...],
        has_doubles: bool = True,
        deal: EntryDeal | None = None,
        **kwargs: Any,
    ) -> None:
        """`deal`: the board's, to check the claims against it in `clean` (without it, only
        the form's own checks are made)."""
        super().__init__(*args, **kwargs)
        self.deal = deal
        choices = [(s, s) for s in seats]
        for name in ("landlord", "doubles"):
            cast(forms.ChoiceField, self.fields[name]).choices = choices
        if not has_doubles:  # rules whose bidding has no double do not offer one
            del self.fields["doubles"]

    def quick(self) -> Any:
        data = self.cleaned_data
        bombs = self._bombs(data["bombs"])
        return QuickResult(
            landlord=data["landlord"],
            bid=data["bid"],
            winner=data["winner"],
            bombs=bombs,
            rockets=data["rockets"] or 0,
            doubles=tuple(data.get("doubles") or ()),
            spring=data["spring"] == "spring",
            anti_spring=data["spring"] == "anti_spring",
        )


class ResolveForm(forms.Form):
    """A chief referee's ruling on a flagged game (tournaments.tables.review.game_resolve)."""

    decision = forms.ChoiceField(
        label=_("Ruling"),
        choices=[("accept", _("result stands")), ("reject", _("to be entered again"))],
    )
    note = TypedTextField(
        lines=True,
        label=_("Reason"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
