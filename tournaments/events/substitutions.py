"""Substitutions: a player replaced for a round or part of one.

Vocabulary: a *substitution* (tournaments.models.Substitution) puts a *substitute* in one seat
of one table of a round, in place of the player seated there, for the whole round or for a
range of its boards (event board numbers, inclusive). The substitute is a player of the event:
an entrant not seated in that round, or a new *reserve* (an Entry with ``reserve``, not in the
field; ranked only at the organizer's choice). The *lineup* of a round says who played each
seat of each table on each board: the seated player, except on the boards of a substitution.

Credit (DESIGN.md, "Substitutions"): each board is credited to the person who played it. The
absent player has no result on the boards she did not play, the substitute has them; a
player's matchpoint percentage is over the boards she played (sum MP / sum top), her datum
total the sum over the boards she played.

Writes: `substitution_add` and `substitution_remove` (organizers and chief referees; one
transaction each under the round's row lock, like game submissions and the close; refused
once the round is closed; audited; a standings recomputation requested).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import blank, text_refusal
from games.models import Board, Game
from tournaments.core.access import is_chief_referee, tied_account
from tournaments.core.audit import audit_record
from tournaments.core.lineups import boards_text
from tournaments.core.rules import FINISHED
from tournaments.events.setup import player_get_or_create
from tournaments.models import (
    Entry,
    Event,
    Player,
    Round,
    Seat,
    Substitution,
    Table,
)
from tournaments.standings.requests import standings_request

REASON_MAX_CHARS = 500  # the form's bound on a substitution's reason


class SubstitutionRefused(DomainError):
    """A substitution that cannot be recorded or removed; nothing was written."""


def _refuse_unless_allowed(event: Event, actor: Any) -> None:
    if not is_chief_referee(actor, event):
        raise SubstitutionRefused(
            _("Only the organizers and chief referees of %(event)s may record substitutions.")
            % {"event": event}
        )


def _in_event(event: Event) -> Q:
    """The players of `event` as a filter of Player: its entrants and those seated in it."""
    return Q(entries__event=event) | Q(seats__table__round__event=event)


def substitute_choices(*, event: Event) -> list[tuple[Player, bool]]:
    """Who may be chosen as a substitute in `event`: its players (entrants and those seated),
    by name, each with whether she is a reserve."""
    # An online event's robots fill seats; they never stand in for anyone.
    players = Player.objects.filter(_in_event(event), robot=False).distinct().order_by("name")
    reserves = set(event.entries.filter(reserve=True).values_list("player_id", flat=True))
    return [(p, p.pk in reserves) for p in players]


def _lock_open_round(round_: Round) -> None:
    """Lock the round's row (games are stored and the round closed under it) and refuse a
    closed round."""
    state = Round.objects.select_for_update().filter(pk=round_.pk).values_list("state", flat=True)
    if state.first() in FINISHED:
        raise SubstitutionRefused(
            _("Round %(number)s is closed: who played its boards can no longer change.")
            % {"number": round_.number}
        )


def _overlaps(a: tuple[int | None, int | None], b: tuple[int | None, int | None]) -> bool:
    low_a, high_a = (a[0] or 0), (a[1] if a[1] is not None else 10**9)
    low_b, high_b = (b[0] or 0), (b[1] if b[1] is not None else 10**9)
    return low_a <= high_b and low_b <= high_a


def _reserve_name(reserve_name: str) -> str:
    """The reserve's name as typed, under the site's one rule for typed text
    (ddz_site.kernel.text): it shows on the public pages, so a name of only invisible
    characters is no name ("")."""
    name = reserve_name.strip()
    unfit = text_refusal(name, max_length=Player._meta.get_field("name").max_length)
    if unfit is not None:
        raise SubstitutionRefused(_("Reserve's name: %(reason)s") % {"reason": unfit[1]})
    return "" if blank(name) else name


def _refuse_unfit_request(
    *,
    substitute: Player | None,
    name: str,
    first_board: int | None,
    last_board: int | None,
    reason: str,
) -> None:
    """Refuse, before any database work, a reason the rule for typed text refuses, neither or
    both of a substitute and a reserve's name, half a range or a reversed one."""
    unfit = text_refusal(reason.strip(), lines=True, max_length=REASON_MAX_CHARS)
    if unfit is not None:
        raise SubstitutionRefused(_("Reason: %(reason)s") % {"reason": unfit[1]})
    if substitute is not None and name:
        raise SubstitutionRefused(
            _("Choose a player of the event or type a new reserve's name, not both.")
        )
    if substitute is None and not name:
        raise SubstitutionRefused(
            _("Choose the substitute among the players of the event, or give a new reserve's name.")
        )
    if (first_board is None) != (last_board is None):
        raise SubstitutionRefused(
            _(
                "Give the first and the last board played by the substitute, or neither for the "
                "whole round."
            )
        )
    if first_board is not None and last_board is not None and first_board > last_board:
        raise SubstitutionRefused(_("The first board comes after the last."))


def _seated_at(table: Table, seat: str) -> Seat:
    """The seat being substituted; refused when the table has no such seat."""
    seated = Seat.objects.select_related("player").filter(table=table, seat=seat).first()
    if seated is None:
        raise SubstitutionRefused(
            _("Table %(table)s of round %(round)s has no seat %(seat)s.")
            % {"table": table.number, "round": table.round.number, "seat": seat}
        )
    return seated


def _refuse_boards_outside(round_: Round, first_board: int | None, last_board: int | None) -> None:
    """Refuse a range of boards that are not the round's (a round not dealt yet has none)."""
    if first_board is None or last_board is None:
        return  # the whole round
    numbers = list(Board.objects.filter(round=round_).values_list("number", flat=True))
    if not numbers:
        raise SubstitutionRefused(
            _("Round %(number)s has no boards yet: deal them before a substitution for part of it.")
            % {"number": round_.number}
        )
    low, high = min(numbers), max(numbers)
    if not low <= first_board <= last_board <= high:
        raise SubstitutionRefused(
            _("Boards %(first)s-%(last)s are not boards of round %(number)s (%(low)s-%(high)s).")
            % {
                "first": first_board,
                "last": last_board,
                "number": round_.number,
                "low": low,
                "high": high,
            }
        )


def _substitute_of_event(
    *, event: Event, substitute: Player | None, name: str, ranked: bool
) -> Player:
    """The substitute, once checked to be a player of the event; given a reserve's `name`,
    the player of that name (made if new), entered in the event as a reserve."""
    in_event = _in_event(event)
    if name:
        if Player.objects.filter(in_event, name=name).exists():
            raise SubstitutionRefused(
                _("%(name)s is already a player of the event: choose %(name)s in the list.")
                % {"name": name}
            )
        substitute = player_get_or_create(name=name)  # as the players import matches
        if tied_account(substitute) is not None:
            # Another person's profile, tied to her account: a name typed for a reserve
            # would put this event on her page and her results (a trial's finding).
            raise SubstitutionRefused(
                _(
                    "%(name)s is a person with an account on this site: enter her in the "
                    "event first and choose her in the list, or give the reserve another name."
                )
                % {"name": name}
            )
        Entry.objects.create(event=event, player=substitute, reserve=True, ranked=ranked)
    assert substitute is not None
    if not Player.objects.filter(in_event, pk=substitute.pk).exists():
        raise SubstitutionRefused(
            _("%(name)s is not a player of the event: enter %(name)s first, or add a new reserve.")
            % {"name": substitute.name}
        )
    return substitute


def _refuse_seated_in_round(round_: Round, seated: Seat, substitute: Player) -> None:
    """A substitute replaces someone not playing the round: refuse one seated in it."""
    if substitute.pk == seated.player_id:
        raise SubstitutionRefused(
            _("%(name)s holds this seat already.") % {"name": substitute.name}
        )
    elsewhere = (
        Seat.objects.filter(table__round=round_, player=substitute)
        .values_list("table__number", flat=True)
        .first()
    )
    if elsewhere is not None:
        raise SubstitutionRefused(
            _("%(name)s is already seated in round %(round)s (table %(table)s).")
            % {"name": substitute.name, "round": round_.number, "table": elsewhere}
        )


def _refuse_overlaps(
    *,
    table: Table,
    seat: str,
    substitute: Player,
    wanted: tuple[int | None, int | None],
) -> None:
    """Refuse when, on some of the `wanted` boards, the seat has another substitute or the
    substitute plays another seat of the round."""
    for other in Substitution.objects.filter(round=table.round).select_related(
        "table", "substitute"
    ):
        if not _overlaps(wanted, (other.first_board, other.last_board)):
            continue
        if other.table_id == table.pk and other.seat == seat:
            raise SubstitutionRefused(
                _("%(name)s already plays this seat on some of these boards (%(boards)s).")
                % {
                    "name": other.substitute.name,
                    "boards": boards_text(other.first_board, other.last_board)
                    or _("the whole round"),
                }
            )
        if other.substitute_id == substitute.pk:
            raise SubstitutionRefused(
                _("%(name)s already substitutes at table %(table)s on some of these boards.")
                % {"name": substitute.name, "table": other.table.number}
            )


def substitution_add(
    *,
    table: Table,
    seat: str,
    actor: Any,
    substitute: Player | None = None,
    reserve_name: str = "",
    ranked: bool = False,
    first_board: int | None = None,
    last_board: int | None = None,
    reason: str = "",
) -> Substitution:
    """Record that `substitute` (a player of the event), or a new reserve named
    `reserve_name` (entered as a reserve, ranked only if `ranked`), plays `seat` of `table`
    in place of the player seated there, on boards `first_board`..`last_board` (event board
    numbers of the table's round, inclusive) or, both None, the whole round.

    Raises:
        SubstitutionRefused: the actor is not an organizer or chief referee; the round is
            closed; no such seat; neither or both of a substitute and a reserve's name; a
            substitute not of the event, or seated in the round, or substituting elsewhere
            in the round on some of these boards; a reserve's name already in the event;
            a reserve's name or a reason the site's rule for typed text refuses;
            half a range, a reversed range or boards outside the round's; another
            substitution of the seat on some of these boards.
    """
    round_ = table.round
    event = round_.event
    _refuse_unless_allowed(event, actor)
    name = _reserve_name(reserve_name)
    _refuse_unfit_request(
        substitute=substitute,
        name=name,
        first_board=first_board,
        last_board=last_board,
        reason=reason,
    )
    with transaction.atomic():
        _lock_open_round(round_)
        seated = _seated_at(table, seat)
        _refuse_boards_outside(round_, first_board, last_board)
        substitute = _substitute_of_event(
            event=event, substitute=substitute, name=name, ranked=ranked
        )
        _refuse_seated_in_round(round_, seated, substitute)
        _refuse_overlaps(
            table=table, seat=seat, substitute=substitute, wanted=(first_board, last_board)
        )
        sub = Substitution.objects.create(
            round=round_,
            table=table,
            seat=seat,
            player=seated.player,
            substitute=substitute,
            first_board=first_board,
            last_board=last_board,
            reason=reason.strip(),
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        audit_record(
            event=event,
            actor=actor,
            action="substitution.add",
            obj=sub,
            changes={
                "round": round_.number,
                "table": table.number,
                "seat": seat,
                "player": seated.player.name,
                "substitute": substitute.name,
                "boards": boards_text(first_board, last_board) or "all",
                **({"reserve": True} if name else {}),
            },
        )
        _request_standings(event)
    return sub


def substitution_remove(*, substitution_id: int, actor: Any) -> bool:
    """Remove a substitution (the seated player is credited with those boards again); False
    when it no longer exists.

    A reserve entered for it alone (no other substitution, no seat in the event) leaves the
    event with it.

    Raises:
        SubstitutionRefused: the actor is not an organizer or chief referee, or the round is
            closed.
    """
    sub = Substitution.objects.select_related("round__event", "table", "player", "substitute")
    found = sub.filter(pk=substitution_id).first()
    if found is None:
        return False
    event = found.round.event
    _refuse_unless_allowed(event, actor)
    with transaction.atomic():
        _lock_open_round(found.round)
        if not Substitution.objects.filter(pk=found.pk).exists():
            return False
        reserve = _reserve_only_for(found)
        audit_record(
            event=event,
            actor=actor,
            action="substitution.remove",
            obj=found,
            changes={
                "round": found.round.number,
                "table": found.table.number,
                "seat": found.seat,
                "player": found.player.name,
                "substitute": [found.substitute.name, None],
                "boards": boards_text(found.first_board, found.last_board) or "all",
                **({"reserve": [found.substitute.name, None]} if reserve is not None else {}),
            },
        )
        found.delete()
        if reserve is not None:
            reserve.delete()
        _request_standings(event)
    return True


def _reserve_only_for(sub: Substitution) -> Entry | None:
    """The reserve's entry of `sub`'s substitute when `sub` is all she is in the event for (no
    other substitution, no seat): a reserve is entered only to play a substitution
    (substitution_add), so its removal takes her out of the event too, and her name can be
    typed again. None for a player of the field, or a reserve with more to play."""
    event_id = sub.round.event_id
    entry = Entry.objects.filter(event_id=event_id, player=sub.substitute_id, reserve=True).first()
    if entry is None:
        return None
    others = Substitution.objects.filter(round__event_id=event_id, substitute=sub.substitute_id)
    seated = Seat.objects.filter(table__round__event_id=event_id, player=sub.substitute_id)
    return None if others.exclude(pk=sub.pk).exists() or seated.exists() else entry


def _request_standings(event: Event) -> None:

    standings_request(event_id=event.pk)


def boards_entered(sub: Substitution) -> list[int]:
    """The numbers of the boards of `sub` (its range, or every board of its round) its table
    has a current game of, in order: results entered before the substitution was recorded,
    which now count for the substitute. One query."""
    games = Game.objects.filter(table_id=sub.table_id, replaced_at__isnull=True)
    if sub.first_board is not None and sub.last_board is not None:
        games = games.filter(board__number__range=(sub.first_board, sub.last_board))
    return sorted(games.values_list("board__number", flat=True))
