"""Round states (tournaments.models.RoundState): draft → seated → in play → closed → published,
and what each state allows.

Vocabulary: a round *in play* takes games; a *draft* or *seated* round has not started; a
*closed* or *published* round is over and its results are final.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import RoundState


def round_refusal(state: str) -> str | None:
    """Why no game may be stored in a round in `state` (RoundState), None while it is in play.

    A draft or seated round has not started; a closed or published round is over: its results
    are final, so neither a new game nor a replacement is taken (tournaments.rounds).
    """
    if state == RoundState.IN_PLAY:
        return None
    if state in (RoundState.DRAFT, RoundState.SEATED):
        return _("This round has not started: games are entered once it is in play.")
    return _("This round is closed: its results are final and no game may be entered or replaced.")
