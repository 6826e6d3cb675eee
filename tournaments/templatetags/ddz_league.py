"""Template tags of the league and event pages: a player's name linked to her profile unless
hidden, or to her scorecard in an event; whether a standings row compared its player with
anyone. A robot (Player.robot) has neither profile nor scorecard: its name, in the reader's
language (Player.shown_name), is never a link."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

from tournaments.models import Event, Player
from tournaments.models.standings import compared_with_no_one

register = template.Library()


@register.simple_tag
def person_link(player: Player, hidden: bool | None = None) -> str:
    """The player's name, linked to her person's profile; the bare name when the profile is
    hidden from the public (event and series pages keep the name), and a robot's name in the
    reader's language, never linked. ``hidden`` when the caller knows it already."""
    if player.robot:
        return format_html("{}", player.shown_name)
    if hidden is None:
        # Every record of a person carries her flag (tournaments.league.clubs): no query.
        hidden = player.profile_hidden
    if hidden:
        return format_html("{}", player.name)
    url = reverse("league:person", kwargs={"pk": player.same_as_id or player.pk})
    return format_html('<a class="person" href="{}">{}</a>', url, player.name)


@register.simple_tag
def scorecard_link(event: Event, player: Player) -> str:
    """The player's name (Player.shown_name) linked to her scorecard of `event`; a robot's
    name alone (it has no scorecard)."""
    if player.robot:
        return format_html("{}", player.shown_name)
    url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk})
    return format_html('<a href="{}">{}</a>', url, player.shown_name)


@register.filter
def uncompared(row: object) -> bool:
    """Whether a standings row (tournaments.models.Standing, or anything with its ``top``
    text) compared its player with no one (tournaments.models.standings.compared_with_no_one):
    its stored percentage (0) then means nothing, and the pages show "—"."""
    return compared_with_no_one(getattr(row, "top", None))


@register.filter
def any_uncompared(rows: object) -> bool:
    """Whether some row of `rows` (standings rows) is `uncompared`: its page explains the "—"."""
    return isinstance(rows, list | tuple) and any(uncompared(row) for row in rows)
