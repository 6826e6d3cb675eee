"""Template tags of the league pages: a player's name linked to her profile unless hidden."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html

from tournaments.models import Player

register = template.Library()


@register.simple_tag
def person_link(player: Player, hidden: bool | None = None) -> str:
    """The player's name, linked to her person's profile; the bare name when the profile is
    hidden from the public (event and series pages keep the name). ``hidden`` when the caller
    knows it already."""
    if hidden is None:
        # Every record of a person carries her flag (tournaments.league.clubs): no query.
        hidden = player.profile_hidden
    if hidden:
        return format_html("{}", player.name)
    url = reverse("league:person", kwargs={"pk": player.same_as_id or player.pk})
    return format_html('<a class="person" href="{}">{}</a>', url, player.name)
