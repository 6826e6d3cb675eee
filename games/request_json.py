"""The one reader of a JSON request body.

The API's parser (games.api.parsers) and the JSON doors of the private links
(tournaments.views_links) read a body through `read_json`, the engine's strict reader
(games.engine.record.parse_json: nesting past the recursion limit, numbers of thousands of
digits and NaN refused, never a server error), and refuse what they cannot read with the same
plain, translated message, never Python's words: not UTF-8 text, a number too long, not valid
JSON.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ddz_site.errors import DomainError
from games.engine import NumberTooLargeError, RecordError
from games.engine.record import parse_json


class BodyNotJSON(DomainError):
    """A request body that is not JSON this site reads; `message` says why, in plain words."""

    code = "parse_error"


def not_json_message() -> str:
    return _("The request body is not valid JSON.")


def read_json(raw: bytes) -> Any:
    """`raw` (a request's body) as Python values.

    Raises:
        BodyNotJSON: not UTF-8 text, a number too long (or too large), or not valid JSON.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyNotJSON(_("The request body is not UTF-8 text.")) from None
    try:
        return parse_json(text)
    except NumberTooLargeError:
        raise BodyNotJSON(_("A number in the request body is too long.")) from None
    except RecordError:
        raise BodyNotJSON(not_json_message()) from None
