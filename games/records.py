"""A record as the site stores it: what a JSON record may hold before it is stored
(refuse_unstorable: depth, numbers, text) and the rules a record names, as the engine reads
them; GameRejected, the refusal of a record at the door, whatever the door."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.engine import RuleSet

# How deep a record's JSON may nest: RECORDS.md §1 nests four levels (rules, options, a play).
RECORD_MAX_DEPTH = 32


def rules_spec(spec: object) -> Any:
    # Anything a record holds is tried; the engine raises EngineError for what is no spec.
    return RuleSet.from_spec(spec).to_spec()  # type: ignore[arg-type]


def unstorable(value: object) -> str | None:
    """Where a JSON value holds what the database cannot store, as a dotted path ("" for the
    top), or None. PostgreSQL's text and jsonb hold no NUL character, UTF-8 no lone surrogate
    (a JSON ``\\ud800``), and JSON no NaN or infinite number (a JSON ``1e400`` reads as one);
    nesting is bounded by RECORD_MAX_DEPTH."""
    stack: list[tuple[object, str, int]] = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > RECORD_MAX_DEPTH:
            return path
        if isinstance(item, str):
            if "\x00" in item or any("\ud800" <= c <= "\udfff" for c in item):
                return path
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                return path
        elif isinstance(item, dict):
            for key, inner in item.items():
                name = f"{path}.{key}" if path else str(key)
                if unstorable(key) is not None:
                    return path
                stack.append((inner, name, depth + 1))
        elif isinstance(item, list):
            stack.extend((inner, f"{path}.{i}", depth + 1) for i, inner in enumerate(item))
    return None


def refuse_unstorable(record: object) -> None:
    """Refuse a JSON value the database cannot store (see `unstorable`).

    Raises:
        GameRejected: naming the field (dotted path) that holds a NUL character, a lone
            surrogate, a number that is not finite, or nests deeper than RECORD_MAX_DEPTH.
    """
    where = unstorable(record)
    if where is not None:
        raise GameRejected(
            _(
                "The record cannot be stored: %(field)s holds a NUL character, a lone "
                "surrogate, a number that is not finite, or nests too deeply."
            )
            % {"field": where or _("the record")}
        )


class GameRejected(DomainError):
    """A submission refused at the door; nothing of it was stored."""
