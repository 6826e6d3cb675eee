"""The public pages' URLs come first in ddz_site.urls (the busiest page, the standings, is
then matched at once): none of them may fit an address that a later pattern serves, or that
page would answer in its place. Each later pattern is tried with a sample address (a number for
each <int:…>, a word for each other converter) against every public pattern."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.urls import URLResolver, get_resolver
from django.urls.resolvers import URLPattern


def _patterns(resolver: URLResolver, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(the whole route, the view's dotted path) of every pattern, in the resolver's order."""
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern.lookup_str


def _sample(route: str) -> str:
    route = re.sub(r"<int:\w+>", "7", route)
    return re.sub(r"<(?:\w+:)?\w+>", "word", route).lstrip("^").rstrip("$")


def _regex(route: str) -> re.Pattern[str]:
    pattern = re.sub(r"<int:\w+>", "[0-9]+", route.lstrip("^").rstrip("$"))
    pattern = re.sub(r"<path:\w+>", ".+", pattern)
    pattern = re.sub(r"<(?:\w+:)?\w+>", "[^/]+", pattern)
    return re.compile(f"^{pattern}$")


def test_no_public_url_fits_an_address_served_further_down() -> None:
    routes = list(_patterns(get_resolver()))
    public = [
        (i, route)
        for i, (route, view) in enumerate(routes)
        if view.startswith(("tournaments.web.public.", "tournaments.web.screen."))
    ]
    assert public, "the public pages' patterns were not found"
    first = public[0][0]
    shadowed = [
        (route, view, public_route)
        for route, view in routes[first:]
        if not view.startswith(("tournaments.web.public.", "tournaments.web.screen."))
        for _i, public_route in public
        if _regex(public_route).match(_sample(route))
    ]
    assert shadowed == []
    # And the standings page is resolved by its own view.
    assert get_resolver().resolve("/events/word/standings/").func.__name__ == "standings"
