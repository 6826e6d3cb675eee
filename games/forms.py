"""The referee's form of a game record (the door of games.services.game_submit)."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class GameRecordForm(forms.Form):
    record = forms.CharField(
        label=_("Game record (JSON)"),
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false", "autocapitalize": "off"}),
    )
    replace = forms.BooleanField(
        label=_("This corrects the game already entered for this table"), required=False
    )

    def clean_record(self) -> Any:
        text = self.cleaned_data["record"]
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("This is not JSON (line %(line)s, column %(column)s: %(error)s)."),
                params={"line": exc.lineno, "column": exc.colno, "error": exc.msg},
            ) from None
