"""Template filters of the public pages: the names of tie-breaks and adjusted scores, and a
game's calls, in the reader's language."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def tiebreak(name: object) -> str:
    """'best_board' → 'best single board' (translated); '' stays ''."""
    labels = {
        "datum_wins": _("boards won against the datum"),
        "best_board": _("best single board"),
        "head_to_head": _("head-to-head"),
        "lot": _("lot"),
    }
    return labels.get(str(name or ""), str(name or ""))


@register.filter
def adjusted(kind: object) -> str:
    """'avg+' → 'average-plus' (translated)."""
    labels = {"avg+": _("average-plus"), "avg": _("average"), "avg-": _("average-minus")}
    return labels.get(str(kind or ""), str(kind or ""))


@register.filter
def calls(text: object) -> str:
    """'S:1 E:pass' with 'pass' in the reader's language."""
    word = _("no bid")
    return " ".join(part.replace(":pass", ":" + word) for part in str(text or "").split(" "))
