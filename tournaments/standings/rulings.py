"""The referees' rulings that move standings: adjusted scores on a board (adjustment_set for one
seat, adjusted_scores_set for several, weighted_score_set for a whole table; adjustment_remove)
(a penalty on a player's total is tournaments.standings.penalties'). Each is one transaction, asks
tournaments.core.access (may_rule), is audited, and requests a recomputation after commit.
RulingRejected is the refusal of a ruling, in the reader's words.

An *adjusted score* of a seat is written as the pure scoring writes it
(tournaments.scoring.methods): "avg+", "avg", "avg-" or an *artificial percentage* "61.8%"
(0 to 100, at most two decimals), each seat its own, so a director gives the landlord's side
and the farmers' side different ones (bridge's Law 12C2). A *weighted score* (Law 12C1(c)) is
the whole table's: its possible results, each a score for every seat of the table (summing to
0, as a table's scores do: RULES.md §4) with an exact weight above 0, the weights summing to 1;
each seat's row keeps its own score in each. It replaces the table's other adjusted scores on
that board, a seat of it is given no adjusted score of its own, and removing any of its rows
removes it. An artificial percentage and a weighted score name their reason.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.models import Board
from tournaments.core.access import Actor, require_ruling, signed_in
from tournaments.core.audit import audit_record
from tournaments.models import (
    Adjustment,
    AdjustmentKind,
    Round,
    RoundState,
    Table,
)
from tournaments.scoring.methods import ADJUSTMENTS, ScoringError, adjusted_share
from tournaments.standings.requests import recompute_enqueue

# The possible results a weighted score may name: a director weighs a few outcomes of the
# table, and each is a column of every seat's row.
MAX_POSSIBLE_RESULTS = 6
# A possible result's score, either way: far above any table score of the rules (RULES.md §4).
MAX_SCORE = 10**9
# A weight: a fraction (1/2), a decimal (0.25) or a percentage (25%), ASCII digits only.
_WEIGHT = re.compile(
    r"([0-9]{1,9})/([0-9]{1,9})|[0-9]{0,9}\.?[0-9]{1,9}|([0-9]{1,3}(?:\.[0-9]{1,2})?)%"
)


class RulingRejected(DomainError):
    """An adjustment or a penalty that cannot be stored."""


def adjusted_value(adjusted: str) -> tuple[str, Decimal | None]:
    """An adjusted score as stored: ("avg+", None) for "avg+", ("pct", Decimal("61.80")) for
    "61.8%" (tournaments.scoring.methods.adjusted_share's notation).

    Raises:
        RulingRejected: not avg+, avg, avg- or a percentage from 0 to 100 with at most two
        decimals.
    """
    if isinstance(adjusted, str) and adjusted in ADJUSTMENTS:
        return adjusted, None
    try:
        adjusted_share(adjusted)
    except ScoringError:
        raise RulingRejected(
            _(
                "An adjusted score is average-plus, average, average-minus or a percentage "
                "from 0 to 100 with at most two decimals."
            )
        ) from None
    return AdjustmentKind.PERCENTAGE, Decimal(adjusted[:-1]).quantize(Decimal("0.01"))


def adjusted_notation(kind: str, percentage: str | int | Decimal | None) -> str:
    """The adjusted score of `kind` (and `percentage` for an artificial one) in the pure
    scoring's notation.

    Raises:
        RulingRejected: an unknown kind, a weighted one (a whole table's), a percentage with
        another kind or none with an artificial one.
    """
    if kind == AdjustmentKind.WEIGHTED:
        raise RulingRejected(_("A weighted score is the whole table's: give its possible results."))
    if kind not in AdjustmentKind.values:
        raise RulingRejected(_("Unknown adjusted score %(kind)s.") % {"kind": kind})
    if kind != AdjustmentKind.PERCENTAGE:
        if percentage not in (None, ""):
            raise RulingRejected(_("Only an artificial percentage takes a percentage."))
        return kind
    if percentage is None or percentage == "" or isinstance(percentage, bool):
        raise RulingRejected(_("An artificial percentage needs its percentage, 0 to 100."))
    # A Decimal is written out in full ("1E+1" is 10); text is taken as it is written, so
    # adjusted_value refuses "1e1" or "NaN" as the command line does.
    text = format(percentage, "f") if isinstance(percentage, Decimal) else str(percentage)
    return f"{text}%"


def adjustment_check(
    *,
    table: Table,
    board: Board,
    seat: str,
    kind: str,
    percentage: str | int | Decimal | None = None,
    reason: str = "",
) -> None:
    """Refuse an adjusted score that cannot be stored (see adjustment_set).

    Raises:
        RulingRejected: an unknown kind, a weighted one, a percentage that is not 0 to 100
        with at most two decimals or not of its kind, an artificial percentage without a
        reason, a seat not at the table, a board of another round, or a round not started.
    """
    adjusted_kind, _percentage = adjusted_value(adjusted_notation(kind, percentage))
    if adjusted_kind == AdjustmentKind.PERCENTAGE and not reason.strip():
        raise RulingRejected(_("An artificial percentage or a weighted score needs its reason."))
    _table_check(table, board, [seat])


def _table_check(table: Table, board: Board, seats: Sequence[str]) -> None:
    """Refuse a board not played at `table` or a seat not at it.

    Raises:
        RulingRejected: as adjustment_check.
    """
    if board.event_id != table.round.event_id or (
        board.round_id is not None and board.round_id != table.round_id
    ):
        raise RulingRejected(
            _("Board %(board)s is not played at table %(table)s.")
            % {"board": board.number, "table": table.number}
        )
    # Read again under the round's lock when the ruling is written (_round_started); checked
    # here too, so that a form (the admin's) says it beside its fields.
    _refuse_not_started(table.round.state, table.round.number)
    at_table = set(table.seats.values_list("seat", flat=True))
    for seat in seats:
        if seat not in at_table:
            raise RulingRejected(
                _("Table %(table)s has no seat %(seat)s.") % {"table": table.number, "seat": seat}
            )


def adjustment_set(
    *,
    table: Table,
    board: Board,
    seat: str,
    kind: str,
    percentage: str | int | Decimal | None = None,
    reason: str = "",
    actor: Actor = None,
) -> Adjustment:
    """Give one seat of `table` an adjusted score on `board` (or change it).

    `kind` is "avg+", "avg" or "avg-" (average-plus, average, average-minus), or "pct" with
    its `percentage` (0 to 100, at most two decimals; an artificial percentage names its
    reason). See adjusted_scores_set.

    Raises:
        RulingRejected: as adjusted_scores_set, or a percentage with another kind.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    require_ruling(actor, table.round.event)
    scores = {seat: adjusted_notation(kind, percentage)}
    (adjustment,) = adjusted_scores_set(
        table=table, board=board, scores=scores, reason=reason, actor=actor
    )
    return adjustment


def adjusted_scores_set(
    *,
    table: Table,
    board: Board,
    scores: Mapping[str, str],
    reason: str = "",
    actor: Actor = None,
) -> list[Adjustment]:
    """Give seats of `table` their adjusted scores on `board` (or change them), all or none,
    in one transaction: `scores` maps a seat to "avg+", "avg", "avg-" or an artificial
    percentage "61.8%" (the landlord's side 61.8 %, the farmers' side 38.2 %: one per seat).
    Returns the adjustments, in the order of `scores`.

    Raises:
        RulingRejected: no seat, an adjusted score that is none of these, an artificial
            percentage without a reason, a seat not at the table or of a table given a
            weighted score on the board, a board of another round, or a round not started.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    require_ruling(actor, table.round.event)
    if not scores:
        raise RulingRejected(_("Give an adjusted score to at least one seat."))
    values = {seat: adjusted_value(adjusted) for seat, adjusted in scores.items()}
    if not reason.strip() and any(k == AdjustmentKind.PERCENTAGE for k, _p in values.values()):
        raise RulingRejected(_("An artificial percentage or a weighted score needs its reason."))
    _table_check(table, board, list(values))
    with transaction.atomic():
        _round_started(table.round_id)
        _lock(table)
        if Adjustment.objects.filter(
            table=table, board=board, kind=AdjustmentKind.WEIGHTED
        ).exists():
            raise RulingRejected(
                _(
                    "Table %(table)s has a weighted score on board %(board)s: remove it before "
                    "giving its seats adjusted scores of their own."
                )
                % {"table": table.number, "board": board.number}
            )
        made = []
        for seat, (kind, percentage) in values.items():
            adjustment, _created = Adjustment.objects.update_or_create(
                table=table,
                board=board,
                seat=seat,
                defaults={
                    "kind": kind,
                    "percentage": percentage,
                    "weighted": [],
                    "reason": reason.strip(),
                    "created_by": _user(actor),
                },
            )
            audit_record(
                event=board.event,
                actor=actor,
                action="adjustment.set",
                obj=adjustment,
                changes={
                    "board": board.number,
                    "round": table.round.number,
                    "table": table.number,
                    "seat": seat,
                    "kind": kind,
                    **({"percentage": str(percentage)} if percentage is not None else {}),
                },
            )
            made.append(adjustment)
        recompute_enqueue(board.event_id)
    return made


def weight_value(text: object) -> Fraction:
    """A weight of a weighted score, exact: "1/2", "0.25" or "25%".

    Raises:
        RulingRejected: none of these, or not above 0.
    """
    match = _WEIGHT.fullmatch(text) if isinstance(text, str) else None
    value: Fraction | None = None
    if isinstance(text, Fraction) or (isinstance(text, int) and not isinstance(text, bool)):
        value = Fraction(text)
    elif match is not None and (match[1] is None or int(match[2]) > 0):
        value = Fraction(match[3]) / 100 if match[3] is not None else Fraction(str(text))
    if value is None or value <= 0:
        raise RulingRejected(
            _("A weight is a number above 0, such as %(examples)s.")
            % {"examples": "1/2, 0.25, 25%"}
        )
    return value


def possible_results_check(*, kind: object, weighted: object) -> None:
    """Refuse stored possible results (Adjustment.weighted, as an archive carries them) that
    could not be scored: a weighted score's are a list of `{"score": a whole number, "weight":
    a weight (weight_value)}`, the weights summing to 1; any other adjustment has none.

    Raises:
        RulingRejected: possible results that are none of these.
    """
    if kind != AdjustmentKind.WEIGHTED:
        if weighted != []:
            raise RulingRejected(_("Only a weighted score has possible results."))
        return
    if not isinstance(weighted, list) or not weighted:
        raise RulingRejected(_("A weighted score needs at least one possible result."))
    total = Fraction(0)
    for option in weighted:
        if not isinstance(option, dict) or set(option) != {"score", "weight"}:
            raise RulingRejected(_("Each possible result has a score and a weight."))
        score = option["score"]
        if isinstance(score, bool) or not isinstance(score, int) or abs(score) > MAX_SCORE:
            raise RulingRejected(
                _("A score of a possible result is a whole number, not %(value)s.")
                % {"value": score}
            )
        total += weight_value(option["weight"])
    if total != 1:
        raise RulingRejected(
            _("The weights must sum to 1 (these sum to %(total)s).") % {"total": total}
        )


def _possible_results(
    table: Table, results: Sequence[tuple[object, Mapping[str, object]]]
) -> list[tuple[Fraction, dict[str, int]]]:
    """The possible results of a weighted score, checked: (weight, seat → score).

    Raises:
        RulingRejected: see weighted_score_set.
    """
    if not results:
        raise RulingRejected(_("A weighted score needs at least one possible result."))
    if len(results) > MAX_POSSIBLE_RESULTS:
        raise RulingRejected(
            _("A weighted score has at most %(count)d possible results.")
            % {"count": MAX_POSSIBLE_RESULTS}
        )
    seats = sorted(table.seats.values_list("seat", flat=True))
    out: list[tuple[Fraction, dict[str, int]]] = []
    for weight, scores in results:
        if sorted(scores) != seats:
            raise RulingRejected(
                _("Each possible result gives a score to every seat of table %(table)s: %(seats)s.")
                % {"table": table.number, "seats": " ".join(seats)}
            )
        checked: dict[str, int] = {}
        for seat, value in scores.items():
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_SCORE:
                raise RulingRejected(
                    _("A score of a possible result is a whole number, not %(value)s.")
                    % {"value": value}
                )
            checked[seat] = value
        if sum(checked.values()) != 0:
            raise RulingRejected(
                _(
                    "The scores of a possible result sum to 0, as a table's do (these sum to "
                    "%(total)s)."
                )
                % {"total": sum(checked.values())}
            )
        for number, (earlier, same) in enumerate(out, start=1):
            if same == checked:
                raise RulingRejected(
                    _(
                        "Possible results %(first)s and %(second)s give the same scores: give "
                        "that result once, with their weights added (%(weight)s)."
                    )
                    % {
                        "first": number,
                        "second": len(out) + 1,
                        "weight": earlier + weight_value(weight),
                    }
                )
        out.append((weight_value(weight), checked))
    total_weight = sum((w for w, _s in out), Fraction(0))
    if total_weight != 1:
        raise RulingRejected(
            _("The weights must sum to 1 (these sum to %(total)s).") % {"total": total_weight}
        )
    return out


def weighted_score_set(
    *,
    table: Table,
    board: Board,
    results: Sequence[tuple[object, Mapping[str, object]]],
    reason: str,
    actor: Actor = None,
) -> list[Adjustment]:
    """Give `table` a weighted score on `board` (bridge's Law 12C1(c)): its possible results,
    each (weight, seat → score) with the weight exact ("1/2", "0.25", "25%"; weight_value) and
    a whole-number score for every seat of the table; it replaces the table's adjusted scores
    on the board. Returns each seat's row, its `weighted` the seat's score in each possible
    result (`[{"score": 6, "weight": "1/2"}, …]`, in the order given).

    Raises:
        RulingRejected: no possible result or more than MAX_POSSIBLE_RESULTS, a weight not
            above 0, weights not summing to 1, the same possible result twice, one not
            scoring every seat of the table (and no other) in whole numbers summing to 0, no
            reason, a board of another round, or a round not started.
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    require_ruling(actor, table.round.event)
    possible = _possible_results(table, results)
    if not reason.strip():
        raise RulingRejected(_("An artificial percentage or a weighted score needs its reason."))
    _table_check(table, board, list(possible[0][1]))
    with transaction.atomic():
        _round_started(table.round_id)
        _lock(table)
        Adjustment.objects.filter(table=table, board=board).delete()
        made = [
            Adjustment.objects.create(
                table=table,
                board=board,
                seat=seat,
                kind=AdjustmentKind.WEIGHTED,
                weighted=[{"score": scores[seat], "weight": str(w)} for w, scores in possible],
                reason=reason.strip(),
                created_by=_user(actor),
            )
            for seat in sorted(possible[0][1])
        ]
        audit_record(
            event=board.event,
            actor=actor,
            action="adjustment.set",
            obj=made[0],
            changes={
                "board": board.number,
                "round": table.round.number,
                "table": table.number,
                "kind": AdjustmentKind.WEIGHTED,
                "results": [{"weight": str(w), "scores": scores} for w, scores in possible],
            },
        )
        recompute_enqueue(board.event_id)
    return made


def adjustment_remove(*, adjustment_id: int, actor: Actor = None) -> bool:
    """Remove an adjusted score (a weighted score: the whole table's); False when it no
    longer exists.

    Raises:
        NotAllowed: `actor` is not a chief referee or organizer (tournaments.core.access.may_rule).
    """
    with transaction.atomic():
        adjustment = (
            Adjustment.objects.select_related("board", "table__round")
            .filter(pk=adjustment_id)
            .first()
        )
        if adjustment is None:
            return False
        event = adjustment.board.event
        require_ruling(actor, event)
        audit_record(
            event=event,
            actor=actor,
            action="adjustment.remove",
            obj=adjustment,
            changes={
                "kind": [adjustment.kind, None],
                # What it was on, for the change log once it is gone (a weighted score is
                # the whole table's: no seat).
                "board": adjustment.board.number,
                "round": adjustment.table.round.number,
                "table": adjustment.table.number,
                **({"seat": adjustment.seat} if adjustment.kind != AdjustmentKind.WEIGHTED else {}),
            },
        )
        if adjustment.kind == AdjustmentKind.WEIGHTED:
            Adjustment.objects.filter(
                table_id=adjustment.table_id,
                board_id=adjustment.board_id,
                kind=AdjustmentKind.WEIGHTED,
            ).delete()
        else:
            adjustment.delete()
        recompute_enqueue(event.pk)
    return True


def _round_started(round_id: int) -> None:
    """Lock the round's row for the rest of the transaction (its transitions wait for the
    ruling, or the ruling sees them) and refuse a round not started: nobody has played its
    boards, and an adjusted score at every table would open one to the public
    (tournaments.core.embargo). A closed or published round, even of a finished event, takes
    them: they are the director's corrections of its results (the correction window; a late
    correction moves the ratings after it).

    Raises:
        RulingRejected: the round is a draft or seated, not started.
    """
    state, number = (
        Round.objects.select_for_update().values_list("state", "number").get(pk=round_id)
    )
    _refuse_not_started(state, number)


def _refuse_not_started(state: str, number: int) -> None:
    """Refuse a round in `state` that has not started (_round_started says why).

    Raises:
        RulingRejected: a draft or seated round.
    """
    if state in (RoundState.DRAFT, RoundState.SEATED):
        raise RulingRejected(
            _(
                "Round %(number)s has not started: its boards take adjusted scores once it "
                "is in play."
            )
            % {"number": number}
        )


def _lock(table: Table) -> None:
    """Take the table's row for the rest of the transaction: a weighted score and a seat's
    own adjusted score given at once on one table are written one after the other, so the
    check that they exclude each other holds."""
    Table.objects.select_for_update().filter(pk=table.pk).values_list("pk").first()


def _user(actor: Actor) -> Any:
    return signed_in(actor)
