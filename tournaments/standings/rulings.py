"""The referees' rulings that move standings: a seat's adjusted score on a board (adjustment_set,
adjustment_remove) and a penalty on a player's total (penalty_add, penalty_remove). Each is one
transaction, asks tournaments.core.access (may_rule), is audited, and requests a recomputation
after commit. RulingRejected is the refusal of a ruling, in the reader's words.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.models import Board
from tournaments.core.access import Actor, require_ruling, signed_in
from tournaments.core.audit import audit_record
from tournaments.models import (
    Adjustment,
    AdjustmentKind,
    Event,
    Penalty,
    Player,
    Stage,
    Table,
)
from tournaments.standings.requests import recompute_enqueue


class RulingRejected(DomainError):
    """An adjustment or a penalty that cannot be stored."""


def adjustment_check(*, table: Table, board: Board, seat: str, kind: str) -> None:
    """Refuse an adjusted score that cannot be stored (see adjustment_set).

    Raises:
        RulingRejected: an unknown kind, a seat not at the table, or a board of another round.
    """
    if kind not in AdjustmentKind.values:
        raise RulingRejected(_("Unknown adjusted score %(kind)s.") % {"kind": kind})
    if board.event_id != table.round.event_id or (
        board.round_id is not None and board.round_id != table.round_id
    ):
        raise RulingRejected(
            _("Board %(board)s is not played at table %(table)s.")
            % {"board": board.number, "table": table.number}
        )
    if not table.seats.filter(seat=seat).exists():
        raise RulingRejected(
            _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": seat}
        )


def adjustment_set(
    *, table: Table, board: Board, seat: str, kind: str, reason: str = "", actor: Actor = None
) -> Adjustment:
    """Give one seat of `table` an adjusted score on `board` (or change it).

    `kind` is "avg+", "avg" or "avg-" (average-plus, average, average-minus). The seat must be
    a seat of the table and the board one of the table's round.

    Raises:
        RulingRejected: an unknown kind, a seat not at the table, or a board of another round.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    require_ruling(actor, table.round.event)
    adjustment_check(table=table, board=board, seat=seat, kind=kind)
    with transaction.atomic():
        adjustment, created = Adjustment.objects.update_or_create(
            table=table,
            board=board,
            seat=seat,
            defaults={"kind": kind, "reason": reason.strip(), "created_by": _user(actor)},
        )
        audit_record(
            event=board.event,
            actor=actor,
            action="adjustment.set",
            obj=adjustment,
            changes={"board": board.number, "table": table.number, "seat": seat, "kind": kind},
        )
        recompute_enqueue(board.event_id)
    return adjustment


def adjustment_remove(*, adjustment_id: int, actor: Actor = None) -> bool:
    """Remove an adjusted score; False when it no longer exists.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    with transaction.atomic():
        adjustment = Adjustment.objects.select_related("board").filter(pk=adjustment_id).first()
        if adjustment is None:
            return False
        event = adjustment.board.event
        require_ruling(actor, event)
        audit_record(
            event=event,
            actor=actor,
            action="adjustment.remove",
            obj=adjustment,
            changes={"kind": [adjustment.kind, None]},
        )
        adjustment.delete()
        recompute_enqueue(event.pk)
    return True


def penalty_add(
    *,
    event: Event,
    player: Player,
    points: str | int | Decimal,
    reason: str,
    stage: Stage | None = None,
    actor: Actor = None,
) -> Penalty:
    """Penalise `player` by `points` (in the event's unit: MP or datum points), kept apart
    from his boards.

    Raises:
        RulingRejected: points not a positive number (at most 4 decimals), no reason, or a
            stage of another event.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    require_ruling(actor, event)
    try:
        value = Decimal(str(points))
    except InvalidOperation:
        raise RulingRejected(_("A penalty is a positive number of points.")) from None
    if not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.0001")):
        raise RulingRejected(_("A penalty is a positive number of points."))
    if not reason.strip():
        raise RulingRejected(_("A penalty needs a reason."))
    if stage is not None and stage.event_id != event.pk:
        raise RulingRejected(_("The stage belongs to another event."))
    try:
        with transaction.atomic():
            penalty = Penalty.objects.create(
                event=event,
                stage=stage,
                player=player,
                points=value,
                reason=reason.strip(),
                created_by=_user(actor),
            )
            audit_record(
                event=event,
                actor=actor,
                action="penalty.add",
                obj=penalty,
                changes={"player": player.name, "points": str(value), "reason": reason.strip()},
            )
            recompute_enqueue(event.pk)
    except IntegrityError:
        raise RulingRejected(_("A penalty is a positive number of points.")) from None
    return penalty


def penalty_remove(*, penalty_id: int, actor: Actor = None) -> bool:
    """Withdraw a penalty; False when it no longer exists.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    with transaction.atomic():
        penalty = Penalty.objects.select_related("event", "player").filter(pk=penalty_id).first()
        if penalty is None:
            return False
        require_ruling(actor, penalty.event)
        audit_record(
            event=penalty.event,
            actor=actor,
            action="penalty.remove",
            obj=penalty,
            changes={"player": penalty.player.name, "points": [str(penalty.points), None]},
        )
        event_id = penalty.event_id
        penalty.delete()
        recompute_enqueue(event_id)
    return True


def _user(actor: Actor) -> Any:
    return signed_in(actor)
