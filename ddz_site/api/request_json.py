"""The one reader of a JSON request body.

The API's parser (ddz_site.api.parsers) and the JSON doors of the private links
(tournaments.web.links) read a body through `read_json`, the engine's strict reader
(games.engine.record.parse_json: nesting past the recursion limit, numbers of thousands of
digits and NaN refused, never a server error), and refuse what they cannot read with the same
plain, translated message, never Python's words: not UTF-8 text, a number too long or out of
range, nested too deeply, not valid JSON (told apart by the engine error's code).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.engine import RecordError
from games.engine.record import parse_json


class BodyNotJSON(DomainError):
    """A request body that is not JSON this site reads; `message` says why, in plain words."""

    code = "parse_error"


def not_json_message() -> str:
    return _("The request body is not valid JSON.")


def read_json(raw: bytes) -> Any:
    """`raw` (a request's body) as Python values.

    Raises:
        BodyNotJSON: not UTF-8 text, a number too long or out of range, nested too deeply, or
            not valid JSON.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyNotJSON(_("The request body is not UTF-8 text.")) from None
    try:
        return parse_json(text)
    except RecordError as exc:
        raise BodyNotJSON(_body_message(exc.code)) from None


def _body_message(code: str) -> str:
    """What is wrong with a body the engine's reader refuses with `code`."""
    if code == "record.nested_too_deeply":
        return nested_message()
    if code == "record.number_too_large":
        return _("A number in the request body is out of range.")
    if code == "record.number_too_long":
        return _("A number in the request body is too long.")
    return not_json_message()


def nested_message() -> str:
    return _("The request body is nested too deeply.")
