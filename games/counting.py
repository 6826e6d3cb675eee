"""Which games count: the one rule of the standings, the confirmation and a round's close.

Vocabulary (tournaments.tables.review tells the whole story): a *flagged* game is one whose
verification
found a fault (``illegal``, ``mismatch``, ``incomplete``, or ``flagged``: an unproven claim,
R-CLAIM); a *counted* game is a current game whose score the standings count: verified and not
ruled to be entered again, or ``mismatch``/``flagged`` and accepted by a chief referee's ruling.
Current-ness (``replaced_at`` null) is the caller's filter. Reads only: no write, no task.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext_lazy

from games.models import Game, Resolution, Status

FLAGGED_STATUSES = (Status.ILLEGAL, Status.MISMATCH, Status.INCOMPLETE, Status.FLAGGED)
# The flagged statuses a chief referee may accept: those with a result to stand.
ACCEPTABLE_STATUSES = (Status.MISMATCH, Status.FLAGGED)


def counted_q(prefix: str = "") -> Q:
    """The games whose score counts (see *counted* in the module docstring), as a filter on
    Game, or on a relation to it with `prefix` (``"games__"``). Current-ness is the caller's
    filter (``replaced_at__isnull=True``)."""
    return Q(**{f"{prefix}status": Status.VERIFIED}) & ~Q(
        **{f"{prefix}resolution": Resolution.REJECT}
    ) | Q(
        **{
            f"{prefix}status__in": ACCEPTABLE_STATUSES,
            f"{prefix}resolution": Resolution.ACCEPT,
        }
    )


def counts(game: Game | None) -> bool:
    """Whether `game`'s stored score counts (the Python twin of `counted_q`; current-ness is
    the caller's, as there)."""
    if game is None:
        return False
    if game.status == Status.VERIFIED:
        return game.resolution != Resolution.REJECT
    return game.status in ACCEPTABLE_STATUSES and game.resolution == Resolution.ACCEPT


def not_counted_reason(game: Game) -> str:
    """Why `game` does not count: "" when it counts (`counts`), else "rejected" (ruled to be
    entered again), "pending" (not verified yet), "illegal" (``illegal`` or ``incomplete``: no
    result can stand) or "flagged" (a ``mismatch`` or an unproven claim waiting for a chief
    referee's ruling)."""
    if counts(game):
        return ""
    if game.resolution == Resolution.REJECT:
        return "rejected"
    if game.status == Status.PENDING:
        return "pending"
    if game.status in (Status.ILLEGAL, Status.INCOMPLETE):
        return "illegal"
    return "flagged"


# One status per game for every page (game page, versions, traveller, scorecard, dashboard):
# what counts and why, beside the engine's verdict only when that verdict stands.
RESULT_STATUS_LABELS = {
    "confirmed": gettext_lazy("confirmed"),
    "accepted": gettext_lazy("accepted by ruling"),
    "verified": gettext_lazy("verified"),
    "rejected": gettext_lazy("to be entered again"),
}


def result_status(game: Game) -> tuple[str, str]:
    """The one status a page shows for `game`, as (code, label in the reader's language).

    Codes: ``confirmed`` (counts and a second person confirmed it), ``accepted`` (counts
    because a chief referee ruled that its result stands), ``verified`` (counts as the engine
    verified it), ``rejected`` (ruled to be entered again), else the engine's status
    (``pending``, ``illegal``, ``incomplete``, ``mismatch``, ``flagged``): the same rule as
    `counts`, so no page shows "verified" beside "flagged"."""
    if counts(game):
        if game.confirmed_at is not None:
            code = "confirmed"
        elif game.status != Status.VERIFIED:
            code = "accepted"
        else:
            code = "verified"
    elif game.resolution == Resolution.REJECT:
        code = "rejected"
    else:
        return game.status, str(game.get_status_display())
    return code, str(RESULT_STATUS_LABELS[code])
