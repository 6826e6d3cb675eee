"""The event's rules and the round's: the engine's RuleSet of an event (rules_of), what a round's
state refuses (round_refusal: no entry before the round starts or after it closes) and the
states of a finished round (FINISHED).
"""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import RuleSet
from games.engine.rules import BIDDING_SYSTEMS, OPTION_NAMES, SCORING_SYSTEMS
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


# What each of the engine's options does (games.engine.rules.OPTION_NAMES, typed name=value on
# the new event's form), its values and its rule in RULES.md, for the organizer choosing them.
OPTION_HELP = {
    "all_pass": gettext_lazy(
        "when all pass: zero (the board scores 0, the default) or redeal (R-PASSOUT)"
    ),
    "spring_multiplier": gettext_lazy(
        "a spring's or anti-spring's multiplier, 1 to 100 (R-SC-MULT, R-SC-ROB)"
    ),
    "solo_kickers_may_pair": gettext_lazy(
        "true (the default): solo kickers may share a rank; false: all differ (R-KICK 2)"
    ),
    "bomb_in_kickers": gettext_lazy(
        "true: four cards of a rank may be carried as kickers (default false; R-KICK 3)"
    ),
    "rocket_in_kickers": gettext_lazy(
        "true: both jokers may be carried as kickers (default false; R-KICK 3)"
    ),
    "space_shuttle": gettext_lazy(
        "true: consecutive fours (33334444) are a space shuttle (R-SHUTTLE)"
    ),
    "max_additions": gettext_lazy(
        "the most additions a competition score counts, 0 to 100 (default none; R-SC-ADD)"
    ),
    "base": gettext_lazy("the base score of rob scoring, 1 to 10000 (default 1; R-SC-ROB)"),
    "show_multiplier": gettext_lazy(
        "the multiplier of a shown hand, 1 to 100 (default 2; R-SC-ROB)"
    ),
    "bidding": gettext_lazy("the bidding system, one of %(choices)s (the preset's by default)"),
    "scoring": gettext_lazy("the scoring system, one of %(choices)s (the preset's by default)"),
}
_CHOICES = {"bidding": BIDDING_SYSTEMS, "scoring": SCORING_SYSTEMS}


def option_help() -> list[tuple[str, SafeString]]:
    """Every engine option with what it does, in the active language: (name, HTML text), a
    choice's values as code, as the organizer types them."""
    out = []
    for name in OPTION_NAMES:
        text = str(conditional_escape(str(OPTION_HELP[name])))
        if name in _CHOICES:
            codes = format_html_join(", ", "<code>{}</code>", ((c,) for c in _CHOICES[name]))
            text %= {"choices": codes}
        out.append((name, mark_safe(text)))  # noqa: S308 (escaped above, codes by format_html)
    return out
