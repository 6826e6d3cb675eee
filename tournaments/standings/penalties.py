"""Penalties on a player's total (a director's procedural penalty): kept apart from his boards
and taken off for the rank (tournaments.scoring.ranking), in the event's unit (MP or datum
points), for the whole event or one of its stages. Each is one transaction, asks
tournaments.core.access (may_rule), is audited, and requests a recomputation after commit;
a refusal is tournaments.standings.rulings.RulingRejected, in the reader's words.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from ddz_site.kernel.text import FORM_KEY
from tournaments.core.access import Actor, require_ruling, signed_in
from tournaments.core.audit import audit_record
from tournaments.models import AuditEntry, Entry, Event, Penalty, Player, Seat, Stage, StageEntry
from tournaments.standings.requests import recompute_enqueue
from tournaments.standings.rulings import RulingRejected

# The largest penalty: far above any event's total (MP or datum points), so that a typing
# slip (99999999) is refused, not shown as a percentage of millions.
MAX_POINTS = Decimal(10_000)


def penalty_points(points: str | int | Decimal) -> Decimal:
    """`points` of a penalty as the Decimal stored: a positive number of at most 4 decimals,
    at most MAX_POINTS.

    Raises:
        RulingRejected: anything else.
    """
    try:
        value = Decimal(str(points))
    except InvalidOperation:
        raise RulingRejected(_("A penalty is a positive number of points.")) from None
    if not value.is_finite() or value <= 0:
        raise RulingRejected(_("A penalty is a positive number of points."))
    # The bound first: quantizing 1e27 to four decimals exceeds Decimal's precision.
    if value > MAX_POINTS:
        raise RulingRejected(
            _("A penalty is at most %(max)s points.") % {"max": points_text(MAX_POINTS)}
        )
    if value != value.quantize(Decimal("0.0001")):
        raise RulingRejected(_("A penalty has at most 4 decimals."))
    return value


def points_text(points: Decimal) -> str:
    """A penalty's points as a reader writes them: "10", "1.5" (never "1E+1")."""
    return format(points.normalize(), "f")


def event_players(event: Event) -> QuerySet[Player]:
    """The players of `event` a penalty may name (penalty_refusal): entered in it or seated
    at one of its tables, robots aside, by name."""
    return (
        Player.objects.filter(Q(entries__event=event) | Q(seats__table__round__event=event))
        .filter(robot=False)
        .distinct()
        .order_by("name", "pk")
    )


def event_penalties(event: Event) -> QuerySet[Penalty]:
    """The penalties of `event`, newest first, with their player, stage and who gave them."""
    return (
        Penalty.objects.filter(event=event)
        .select_related("player", "stage", "created_by")
        .order_by("-created_at", "-pk")
    )


def penalty_refusal(*, event: Event, player: Player, stage: Stage | None) -> str | None:
    """Why `player` cannot be penalised in `event` (or its `stage`), or None: the stage is
    another event's, or the player is neither entered in the event nor seated at one of its
    tables (a penalty on anyone else would put him in its standings), a robot, or a stage he
    does not play (seated in none of its rounds, not through its cut). Four queries at most."""
    if stage is not None and stage.event_id != event.pk:
        return _("The stage belongs to another event.")
    if player.robot:
        return _("%(player)s is a robot: robots are not penalised.") % {"player": player.name}
    if (
        stage is not None
        and not Seat.objects.filter(table__round__stage=stage, player=player).exists()
        and not StageEntry.objects.filter(stage=stage, player=player).exists()
    ):
        # A penalty in a stage he does not play would move only the whole event's row.
        return _("%(player)s does not play %(stage)s: penalise him in the whole event.") % {
            "player": player.name,
            "stage": stage.label(),
        }
    entered = Entry.objects.filter(event=event, player=player).exists()
    if not entered and not Seat.objects.filter(table__round__event=event, player=player).exists():
        return _("%(player)s is not a player of %(event)s: only its players are penalised.") % {
            "player": player.name,
            "event": event.name,
        }
    return None


def penalty_add(
    *,
    event: Event,
    player: Player,
    points: str | int | Decimal,
    reason: str,
    stage: Stage | None = None,
    actor: Actor = None,
    form_key: str = "",
) -> Penalty:
    """Penalise `player` by `points` (in the event's unit: MP or datum points), kept apart
    from his boards. `form_key`: the key of the form that asks it
    (ddz_site.kernel.text.FORM_KEY); the same key again gives no second penalty.

    Raises:
        RulingRejected: points not a positive number (at most 4 decimals), no reason, a
            stage of another event or a player who is not the event's (penalty_refusal).
        PenaltyGivenAlready: the form of `form_key` gave its penalty already.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    require_ruling(actor, event)
    if form_key and not FORM_KEY.fullmatch(form_key):
        raise RulingRejected(_("This form is out of date: reload the page and give it again."))
    _given_already(event, form_key)
    value = penalty_points(points)
    if not reason.strip():
        raise RulingRejected(_("A penalty needs a reason."))
    refusal = penalty_refusal(event=event, player=player, stage=stage)
    if refusal is not None:
        raise RulingRejected(refusal)
    try:
        with transaction.atomic():
            penalty = Penalty.objects.create(
                event=event,
                stage=stage,
                player=player,
                points=value,
                reason=reason.strip(),
                created_by=_user(actor),
                form_key=form_key,
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
        _given_already(event, form_key)  # the same form, sent at the same moment
        raise RulingRejected(_("A penalty is a positive number of points.")) from None
    return penalty


class PenaltyGivenAlready(RulingRejected):
    """The form of a key gave its penalty already (`penalty`): nothing more is given."""

    def __init__(self, penalty: Penalty) -> None:
        super().__init__(_("This penalty was given already: the form was sent twice."))
        self.penalty = penalty


def _given_already(event: Event, form_key: str) -> None:
    """Raise PenaltyGivenAlready when the form of `form_key` gave a penalty in `event`."""
    if form_key:
        given = Penalty.objects.filter(event=event, form_key=form_key).first()
        if given is not None:
            raise PenaltyGivenAlready(given)


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


def penalty_withdrawn(*, event: Event, penalty_id: int) -> bool:
    """Whether the penalty `penalty_id` of `event` was withdrawn (its ``penalty.remove``
    audit entry): a withdrawal sent again is told so, a number no penalty had is no page."""
    return AuditEntry.objects.filter(
        event=event, action="penalty.remove", object_id=str(penalty_id)
    ).exists()
