"""The event's rules and the round's: the engine's RuleSet of an event (rules_of), what a round's
state refuses (round_refusal: no entry before the round starts or after it closes) and the
states of a finished round (FINISHED).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine import RuleSet
from tournaments.models import (
    Event,
    RoundState,
)


def round_refusal(state: str) -> str | None:
    """Why no game may be stored in a round in `state` (RoundState), None while it is in play.

    A draft or seated round has not started; a closed or published round is over: its results
    are final, so neither a new game nor a replacement is taken (tournaments.events.rounds).
    """
    if state == RoundState.IN_PLAY:
        return None
    if state in (RoundState.DRAFT, RoundState.SEATED):
        return _("This round has not started: games are entered once it is in play.")
    return _("This round is closed: its results are final and no game may be entered or replaced.")


FINISHED = (RoundState.CLOSED, RoundState.PUBLISHED)


def rules_of(event: Event) -> RuleSet:
    """The engine rules of `event` (classic when it has none, as an archive)."""
    return RuleSet.from_spec(event.rules or "classic")
