"""Template filters for exact values and cards.

`frac` shows an exact value (a Fraction or its text "37/2") to two decimals for people; the
exact value stays in the database and in the command-line output. `cards` shows suited cards
with suit symbols.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django import template
from django.utils.html import format_html

from games.counting import result_status
from games.models import Game
from tournaments.core.labels import entered_by_label

register = template.Library()

_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@register.filter
def frac(value: object) -> str:
    """'37/2' → '18.5', '12' → '12', '-3/5' → '-0.6'; '' and None → ''."""
    if value is None or value == "":
        return ""
    try:
        number = Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return str(value)
    if number.denominator == 1:
        return str(number.numerator)
    text = (Decimal(number.numerator) / Decimal(number.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    return str(text).rstrip("0").rstrip(".")


_SUITED = re.compile(r"[SHDC](?:10|[3-9TJQKA2])[ab]?")


@register.filter
def points(value: object) -> str:
    """A stored decimal as a reader writes it: Decimal("2.5000") → '2.5', Decimal("10.0000")
    → '10' (never '1E+1'); anything else as it is."""
    try:
        return format(Decimal(str(value)).normalize(), "f")
    except (ArithmeticError, ValueError):
        return "" if value is None else str(value)


@register.filter
def cards(value: object) -> str:
    """Suited tokens get suit symbols ('S3 H3 BJ' → '♠3 ♥3 BJ'); rank text is unchanged."""
    text = "" if value is None else str(value)
    out = []
    for token in text.split(" "):
        if _SUITED.fullmatch(token):  # every suited card, the jacks SJ HJ DJ CJ included
            out.append(_SUITS[token[0]] + token[1:])
        else:
            out.append(token)
    return " ".join(out)


@register.filter
def get(mapping: object, key: object) -> object:
    """mapping[key] in a template, or None."""
    if isinstance(mapping, dict):
        return mapping.get(key)
    return None


@register.filter
def status_badge(game: Game) -> str:
    """A game's one status (tournaments.tables.review.result_status) as a badge:
    ``<span class="status status-CODE">label</span>``."""
    code, label = result_status(game)
    return format_html('<span class="status status-{}">{}</span>', code, label)


@register.filter
def result_label(game: Game) -> str:
    """A game's one status (tournaments.tables.review.result_status): its label alone."""
    return result_status(game)[1]


@register.filter
def entered_by(game: Game) -> str:
    """Who entered `game` (tournaments.core.labels.entered_by_label)."""
    return entered_by_label(game)
