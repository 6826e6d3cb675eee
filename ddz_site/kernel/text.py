"""Text a person typed or pasted into the site: the one rule every door applies.

Readable UTF-8 (no U+FFFD: Django decodes the bytes of a form that are not UTF-8 as U+FFFD,
ddz_site.web.middleware.utf8_forms included), no control characters (categories Cc and Cs: NUL,
which PostgreSQL's text cannot hold, escape codes, lone surrogates; a text of `lines` keeps
tab, line feed and carriage return) and, with `max_length`, at most that many characters,
never cut silently. `text_refusal` says what is wrong (translated), or None. A name that must
name something is also not `blank`: only spaces and invisible characters (format characters,
category Cf: U+200B zero width space, U+202E right-to-left override, U+FEFF...) name nothing.
A form's text field is a `TypedTextField`: the same rule, said before Django's own checks.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

REPLACEMENT = "\ufffd"
LINE_CHARACTERS = frozenset("\t\n\r")


def unreadable(text: str) -> bool:
    """`text` holds U+FFFD: bytes that were not UTF-8, as Django decodes them."""
    return REPLACEMENT in text


# Characters that show nothing yet make two texts differ or read in another order: the zero-width
# space, the direction marks, embeddings, overrides and isolates, the word joiner and invisible
# operators, the byte-order mark. The joiners of written text (U+200C, U+200D: emoji, scripts)
# are text.
INVISIBLE = frozenset(
    "\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)


def has_invisible(text: str) -> bool:
    """`text` holds a character of INVISIBLE."""
    return not INVISIBLE.isdisjoint(text)


def has_control(text: str, *, lines: bool = False) -> bool:
    """`text` holds a control character (Cc) or a lone surrogate (Cs); with `lines`, tab, line
    feed and carriage return are text."""
    allowed = LINE_CHARACTERS if lines else frozenset()
    return any(
        unicodedata.category(ch) in ("Cc", "Cs") and ch not in allowed
        for ch in text
        if ch < "\xa0" or "\ud800" <= ch <= "\udfff"
    )


def blank(text: str) -> bool:
    """`text` shows nothing: it is only white space and invisible characters (category Cf)."""
    return all(ch.isspace() or unicodedata.category(ch) == "Cf" for ch in text)


def text_refusal(
    text: str, *, lines: bool = False, max_length: int | None = None
) -> tuple[str, str] | None:
    """(code, message) of what makes `text` unfit to store, or None: ``unreadable`` (U+FFFD:
    not UTF-8), ``control`` (a control character; with `lines`, tab and line ends are text),
    ``invisible`` (a character of INVISIBLE), ``max_length`` (more than `max_length`
    characters)."""
    if unreadable(text):
        return (
            "unreadable",
            _("This is not readable text (bytes that are not UTF-8): type or paste it again."),
        )
    if has_control(text, lines=lines):
        return (
            "control",
            _("This text holds control characters (such as NUL): remove them and send it again."),
        )
    if has_invisible(text):
        return (
            "invisible",
            _(
                "This text holds invisible characters (such as a zero-width space or a "
                "direction mark): remove them and send it again."
            ),
        )
    if max_length is not None and len(text) > max_length:
        return (
            "max_length",
            ngettext(
                "This text is at most %(max)s character long (it has %(count)s).",
                "This text is at most %(max)s characters long (it has %(count)s).",
                max_length,
            )
            % {"max": max_length, "count": len(text)},
        )
    return None


class TypedTextField(forms.CharField):
    """A form's text under the site's one rule (`text_refusal`; `lines`: a text of lines), each
    refusal with its code (``unreadable``, ``control``, ``max_length``) and the site's message.

    The rule is checked before the field's validators run, so that a NUL is refused as a
    control character in the reader's language and never by Django's ProhibitNullCharacters
    (whose Chinese says "empty strings"), and a text too long says how long it is allowed to be.
    """

    def __init__(self, *, lines: bool = False, **kwargs: Any) -> None:
        self.lines = lines
        super().__init__(**kwargs)

    def validate(self, value: Any) -> None:
        super().validate(value)
        if value in self.empty_values:
            return
        unfit = text_refusal(str(value), lines=self.lines, max_length=self.max_length)
        if unfit is not None:
            code, message = unfit
            raise forms.ValidationError(message, code=code)


# The key a form carries, one per form shown (a penalty's, a stage's): the same form sent
# twice (a double click, the back button) does its work once. URL-safe, 16 to 64 characters.
FORM_KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")
