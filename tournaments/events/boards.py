"""Boards of an event: a deal stored as the next board of the event, dealt by a round
(tournaments.events.rounds) or imported with recorded games (tournaments.archive.records)."""

from __future__ import annotations

from collections.abc import Mapping

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.engine import EngineError
from games.models import Board
from games.notation import deal_key
from tournaments.models import Event, Round


class BoardRejected(DomainError):
    """A deal that cannot be stored as a board."""


def board_create(
    *,
    event: Event,
    hands: Mapping[str, str],
    bottom: str,
    first_bidder: str = "",
    round: Round | None = None,
    number: int | None = None,
    aside: str = "",
    marked: str = "",
) -> Board:
    """Store a deal as the next board of `event` (or board `number`).

    `hands` maps each seat to its cards, by rank or with suits (games.notation); `aside` is the
    two-player cards set aside (R-2P), `marked` the five-player marked card (R-5P).

    Raises:
        BoardRejected: cards that are not notation, or the same deal or number already stored.
    """
    try:
        key = deal_key(hands=hands, bottom=bottom, first_bidder=first_bidder)
    except EngineError as exc:
        raise BoardRejected(
            _("The deal is not card notation: %(error)s") % {"error": exc}
        ) from None
    try:
        with transaction.atomic():
            if number is None:
                number = (event.boards.aggregate(n=Max("number"))["n"] or 0) + 1
            return Board.objects.create(
                event=event,
                round=round,
                number=number,
                hands=dict(hands),
                bottom=bottom,
                first_bidder=first_bidder or "",
                aside=aside or "",
                marked=marked or "",
                deal_key=key,
            )
    except IntegrityError:
        raise BoardRejected(
            _("Event %(event)s already has this deal or board number %(number)s.")
            % {"event": event, "number": number}
        ) from None
