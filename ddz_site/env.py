"""Strict parsers for settings read from the environment.

Every setting of the site comes from an environment variable (see `.env.example`). A variable
that is absent takes its documented default; a variable that is present but malformed stops
start-up with `ImproperlyConfigured` naming the variable, the value and what was expected,
because a typo in production must never silently fall back to a default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """The variable's text, or `default` when it is absent or empty."""
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """A boolean: 1/true/yes/on or 0/false/no/off (any case).

    Raises:
        ImproperlyConfigured: any other value.
    """
    value = _raw(name, environ)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean; use one of 1, true, yes, on, 0, false, no, off"
    )


def env_int(
    name: str, default: int, *, minimum: int = 0, environ: Mapping[str, str] | None = None
) -> int:
    """A whole number not below `minimum`.

    Raises:
        ImproperlyConfigured: not an integer, or below `minimum`.
    """
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name}={value!r} must be at least {minimum}")
    return number


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list of non-empty items.

    Raises:
        ImproperlyConfigured: an empty item (two commas in a row, a trailing comma).
    """
    value = _raw(name, environ)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item; separate items by commas")
    return items


def env_choice(
    name: str, default: str, choices: tuple[str, ...], *, environ: Mapping[str, str] | None = None
) -> str:
    """One of `choices` (exact spelling).

    Raises:
        ImproperlyConfigured: any other value.
    """
    value = _raw(name, environ)
    if value is None:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(choices)}")
    return value


def env_url(
    name: str, schemes: tuple[str, ...], *, environ: Mapping[str, str] | None = None
) -> str | None:
    """A URL whose scheme is one of `schemes`, or None when the variable is absent.

    Raises:
        ImproperlyConfigured: no `scheme://`, or a scheme not in `schemes`.
    """
    value = _raw(name, environ)
    if value is None:
        return None
    scheme, sep, rest = value.partition("://")
    if not sep or scheme not in schemes or not rest:
        raise ImproperlyConfigured(
            f"{name} must be a URL starting with {' or '.join(s + '://' for s in schemes)}; "
            f"got {value.split('@')[-1]!r}"
        )
    return value
