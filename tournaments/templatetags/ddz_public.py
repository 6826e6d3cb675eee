"""Template filters of the public pages: the names of tie-breaks, audit actions, rules presets
and adjusted scores, a game's calls and plays, and the stages of a game, in the reader's
language; a duration in whole minutes.

A *call* is one bidding call of a record (``pass``, ``1``…``3``, ``call``, ``rob``, ``double``,
``redouble``, ``show``, ``surrender``, ``reveal``; RECORDS.md §1): a pass in the bidding reads
"no bid" (不叫), a number stays a number, a word is games.messages.call_label's. A *play* is cards
or ``pass`` (不要). A *stage* is where the engine found a fault: deal, bidding, play, result.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.messages import call_label
from tournaments.core import labels

register = template.Library()


@register.filter
def whole_minutes(duration: object) -> int:
    """A timedelta in whole minutes, rounded up (a lock of 90 s reads 2 minutes); 0 for
    anything else."""
    if not isinstance(duration, timedelta):
        return 0
    return -(-int(duration.total_seconds()) // 60)


@register.filter
def tiebreak(name: object) -> str:
    """'best_board' → 'best single board' (translated; tournaments.core.labels); '' stays ''."""
    return labels.tiebreak_label(name)


@register.filter
def audit_action(action: object) -> str:
    """'game.edit' → 'game corrected' (translated; tournaments.core.labels)."""
    return labels.action_label(action)


@register.filter
def rules_preset(rules: object) -> str:
    """An event's rules ('classic' or {"preset": "classic", "options": {…}}) → the preset's
    name in the reader's language (tournaments.core.labels), with its options as typed
    (name=value) when it has some: they change the game."""
    label = labels.preset_label(rules)
    options = rules.get("options") if isinstance(rules, dict) else None
    if not isinstance(options, dict) or not options:
        return label
    typed = ", ".join(
        f"{name}={value if isinstance(value, str) else json.dumps(value)}"
        for name, value in sorted(options.items())
    )
    return _("%(preset)s; options: %(options)s") % {"preset": label, "options": typed}


@register.filter
def adjusted(notation: object) -> str:
    """An adjusted score (tournaments.models.Adjustment.notation) in the reader's language:
    'avg+' → 'average-plus', '61.8%' → 'artificial 61.8%', a weighted score '1/2:6 1/2:-3'
    (weight:score) → 'weighted: 6 (1/2), -3 (1/2)'."""
    text = str(notation or "")
    names = {"avg+": _("average-plus"), "avg": _("average"), "avg-": _("average-minus")}
    if text in names:
        return names[text]
    if text.endswith("%"):
        return _("artificial %(percentage)s") % {"percentage": text}
    if ":" in text:
        options = [part.partition(":") for part in text.split()]
        return _("weighted: %(results)s") % {
            "results": ", ".join(f"{score} ({weight})" for weight, _sep, score in options)
        }
    return text


def call_word(value: object) -> str:
    """One bidding call in the reader's language: 'pass' → 'no bid', '2' → '2',
    'rob' → 'rob the landlord'."""
    text = str(value or "")
    if text == "pass":
        return _("no bid")
    if text.isdigit():
        return text
    return call_label(text)


@register.filter
def calls(text: object) -> str:
    """'S:1 E:pass W:rob' with each call in the reader's language (see call_word)."""
    out = []
    for part in str(text or "").split(" "):
        seat, sep, call = part.partition(":")
        out.append(seat + sep + call_word(call) if sep else part)
    return " ".join(out)


@register.filter
def call(value: object) -> str:
    """One call (see call_word)."""
    return call_word(value)


@register.filter
def play(value: object) -> str:
    """A play: cards unchanged, 'pass' in the reader's language (不要)."""
    text = str(value or "")
    return pgettext("a play", "pass") if text == "pass" else text


@register.filter
def stage(value: object) -> str:
    """'play' → 'play' in the reader's language (deal, bidding, play, result)."""
    names = {
        "deal": pgettext("stage of a game", "deal"),
        "bidding": pgettext("stage of a game", "bidding"),
        "play": pgettext("stage of a game", "play"),
        "result": pgettext("stage of a game", "result"),
    }
    text = str(value or "")
    return names.get(text, text)
