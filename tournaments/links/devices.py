"""Which board of which table a live device's link opens, and as which seat.

Vocabulary:

- *device* (Device): a link opened on a board of its table: a *seat device* (a seat link
  ``/s/TOKEN/``, or a player's own link ``/p/TOKEN/`` at the seat she holds in a round) shows
  that seat only; the *referee device* (the table link ``/t/TOKEN/``, printed on the referee's
  sheet) acts for the seat to move and shows that seat's hand. The same resolution serves the
  HTTP doors and the WebSocket consumer (tournaments.web.live_socket), so both refuse alike.
- *signed-in device*: the same referee device opened by a signed-in user who enters at the
  table (its referee, a chief referee, an organizer: tournaments.core.access.can_enter_table);
  it acts as him.
- *refusal* (DeviceRefused): an unknown token (404) or a link that opens nothing now (403: revoked,
  expired, its round closed, another table's board), with the reason for the person holding it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.models import Board
from tournaments.core import access
from tournaments.core.access import Actor
from tournaments.core.rules import FINISHED
from tournaments.links import entry, tokens
from tournaments.links.tokens import LinkBearer
from tournaments.models import PlayerLink, Seat, SeatLink, Table, TableLink


class DeviceRefused(DomainError):
    """A link that opens no live board here: ``status`` 404 (no such link or board) or 403 (the
    link is revoked, expired, or its round closed)."""

    code = "forbidden"

    def __init__(self, message: str, *, status: int = 403, heading: str = "") -> None:
        super().__init__(message)
        self.status = status
        # The refusal page's heading: "No such link" only for a token that is no link.
        self.heading = heading
        if status == 404:
            self.code = "not_found"


@dataclass(frozen=True)
class Device:
    """A link (or a signed-in referee) on a board: its ``table`` and ``board``, the ``seat``
    it plays (None: the referee device), the ``bearer`` its steps are audited as (the link's
    bearer, or the user), and the ``link`` itself (None for a signed-in user)."""

    link: SeatLink | TableLink | PlayerLink | None
    table: Table
    board: Board
    seat: str | None
    bearer: Actor


def _unknown() -> DeviceRefused:
    return DeviceRefused(str(tokens.UNKNOWN_LINK), status=404, heading=_("No such link"))


def _board(event_id: int, number: int) -> Board:
    board = (
        Board.objects.select_related("event")
        .filter(event_id=event_id, number=number)
        .order_by()
        .first()
    )
    if board is None:
        raise DeviceRefused(
            _("This link does not open board %(board)s.") % {"board": number}, status=404
        )
    return board


def _table_of(link: TableLink, board: Board) -> Table:
    table = entry.link_table_of(link, board)
    if table is None:
        raise DeviceRefused(
            _("This link does not open board %(board)s.") % {"board": board.number}, status=404
        )
    return table


def seat_device(token: str, number: int, *, device: str = "") -> Device:
    """The seat link `token` on board `number` of its table.

    Raises:
        DeviceRefused: no such link or board (404); revoked, expired, round closed (403).
    """
    link = tokens.seat_link_find(token)
    if link is None:
        raise _unknown()
    board = _board(link.table_link.event_id, number)
    table = _table_of(link.table_link, board)
    refusal = access.seat_refusal(link, table)
    if refusal is not None:
        raise DeviceRefused(refusal)
    return Device(link, table, board, link.seat, LinkBearer.of(link, device=device))


def seat_start(token: str) -> tuple[Table, Board]:
    """The table the seat link `token` opens now (its round's, or the first round of its stage
    not closed) and that table's first board.

    Raises:
        DeviceRefused: no such link (404); revoked or expired (403); no board to play yet (404).
    """
    link = tokens.seat_link_find(token)
    if link is None:
        raise _unknown()
    for table in entry.link_tables(link.table_link):
        if access.seat_refusal(link, table) is None:
            first = Board.objects.filter(round_id=table.round_id).order_by("number").first()
            if first is not None:
                return table, first
    refusal = access.link_refusal(link.table_link)
    if link.revoked_at is not None or refusal is not None:
        raise DeviceRefused(refusal or _("This link was revoked by the organizer."))
    raise DeviceRefused(_("No board is to be played at this table now."), status=404)


def referee_device(token: str, number: int, *, device: str = "") -> Device:
    """The table link `token` (the referee device) on board `number` of its table.

    Raises:
        DeviceRefused: as `seat_device`.
    """
    link = tokens.table_link_find(token)
    if link is None:
        raise _unknown()
    board = _board(link.event_id, number)
    table = _table_of(link, board)
    refusal = access.table_refusal(link, table)
    if refusal is not None:
        raise DeviceRefused(refusal)
    return Device(link, table, board, None, LinkBearer.of(link, device=device))


def player_device(token: str, round_number: int, number: int, *, device: str = "") -> Device:
    """The player link `token` on board `number` of round `round_number`, at the seat she holds
    in that round.

    Raises:
        DeviceRefused: as `seat_device`; she is not seated in that round, or the board is not
            one of its boards (404).
    """
    link = tokens.player_link_find(token)
    if link is None:
        raise _unknown()
    refusal = access.link_refusal(link)
    if refusal is not None:
        raise DeviceRefused(refusal)
    seat = (
        Seat.objects.select_related("table__round__event")
        .filter(
            table__round__event_id=link.event_id,
            table__round__number=round_number,
            player_id=link.player_id,
        )
        .first()
    )
    board = _board(link.event_id, number)
    if seat is None or board.round_id != seat.table.round_id:
        raise DeviceRefused(
            _("You have no seat for board %(board)s in round %(round)s.")
            % {"board": number, "round": round_number},
            status=404,
        )
    if seat.table.round.state in FINISHED:
        raise DeviceRefused(
            _("Round %(round)s is closed: its tables take no more entries.")
            % {"round": round_number}
        )
    base = LinkBearer.of(link, device=device)
    bearer = LinkBearer(
        via={**base.via, "table_id": seat.table_id, "seat": seat.seat}, device=base.device
    )
    return Device(link, seat.table, board, seat.seat, bearer)


def signed_in_device(user: Actor, slug: str, table_id: int, number: int) -> Device:
    """The referee device of table `table_id` of event `slug` on board `number`, for a
    signed-in `user` who enters at that table.

    Raises:
        DeviceRefused: no such table or board (404); `user` may not enter there, or the round
            is closed (403).
    """
    table = (
        Table.objects.select_related("round__event")
        .filter(pk=table_id, round__event__slug=slug)
        .first()
    )
    if table is None:
        raise DeviceRefused(_("There is no such table."), status=404)
    board = _board(table.round.event_id, number)
    if board.round_id != table.round_id:
        raise DeviceRefused(
            _("This link does not open board %(board)s.") % {"board": number}, status=404
        )
    if not access.can_enter_table(user, table):
        raise DeviceRefused(_("You are not a referee of this table."))
    if table.round.state in FINISHED:
        raise DeviceRefused(
            _("Round %(round)s is closed: its tables take no more entries.")
            % {"round": table.round.number}
        )
    return Device(None, table, board, None, user)
