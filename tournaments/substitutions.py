"""Substitutions: a player replaced for a round or part of one (issue 12, item 10).

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

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from ddz_site.errors import DomainError
from games.models import Board
from tournaments.access import is_chief_referee
from tournaments.audit import audit_record
from tournaments.models import (
    Entry,
    Event,
    Player,
    Round,
    RoundState,
    Seat,
    Substitution,
    Table,
)
from tournaments.services import player_get_or_create

CLOSED = (RoundState.CLOSED, RoundState.PUBLISHED)


class SubstitutionRefused(DomainError):
    """A substitution that cannot be recorded or removed; nothing was written."""


@dataclass(frozen=True)
class Stint:
    """A substitute's boards at one seat: `first`..`last` (None: the whole round)."""

    first: int | None
    last: int | None
    substitute: Player

    def covers(self, number: int) -> bool:
        return self.first is None or self.last is None or self.first <= number <= self.last


class Lineup:
    """Who played each seat on each board, for the tables it was built for (`lineup_of`)."""

    def __init__(self, stints: dict[tuple[int, str], list[Stint]]) -> None:
        self._stints = stints

    def __bool__(self) -> bool:
        return bool(self._stints)

    def stint(self, table_id: int, seat: str, number: int) -> Stint | None:
        """The substitution covering board `number` at this seat, if any."""
        for stint in self._stints.get((table_id, seat), ()):
            if stint.covers(number):
                return stint
        return None

    def player_id(self, table_id: int, seat: str, number: int, seated: int) -> int:
        """The id of who played board `number` in `seat` of the table (`seated`: the id of
        the player seated there)."""
        stint = self.stint(table_id, seat, number)
        return seated if stint is None else stint.substitute.pk

    def player(self, table_id: int, seat: str, number: int, seated: Player) -> Player:
        """Who played board `number` in `seat` of the table (`seated`: the seated player)."""
        stint = self.stint(table_id, seat, number)
        return seated if stint is None else stint.substitute

    def players(self, table: Table, number: int, seated: dict[str, Player]) -> dict[str, Player]:
        """Seat → who played board `number` at `table`, from seat → the seated player."""
        return {s: self.player(table.pk, s, number, p) for s, p in seated.items()}

    def played(self, table_id: int, seat: str, number: int, player_id: int, *, own: bool) -> bool:
        """Whether `player_id` played board `number` in `seat` of the table: her `own` seat
        when no substitute played it for her, else a seat she substituted in on that board."""
        stint = self.stint(table_id, seat, number)
        if own:
            return stint is None
        return stint is not None and stint.substitute.pk == player_id

    def stints_of(self, player_id: int) -> list[tuple[int, str, Stint]]:
        """(table id, seat, stint) of every substitution `player_id` played."""
        return [
            (table_id, seat, stint)
            for (table_id, seat), stints in self._stints.items()
            for stint in stints
            if stint.substitute.pk == player_id
        ]


def lineup_of(*, event: Event | None = None, table_ids: Iterable[int] | None = None) -> Lineup:
    """The substitutions of `event` (or of the tables `table_ids`), in one query."""
    rows = Substitution.objects.select_related("substitute")
    if event is not None:
        rows = rows.filter(round__event=event)
    if table_ids is not None:
        rows = rows.filter(table_id__in=list(table_ids))
    stints: dict[tuple[int, str], list[Stint]] = defaultdict(list)
    for sub in rows:
        stints[(sub.table_id, sub.seat)].append(
            Stint(sub.first_board, sub.last_board, sub.substitute)
        )
    return Lineup(dict(stints))


def unranked_ids(event: Event) -> set[int]:
    """The players of `event` left out of its ranking (reserves the organizer did not rank);
    their boards still count for the others."""
    return set(Entry.objects.filter(event=event, ranked=False).values_list("player_id", flat=True))


def substitutes_of(event: Event) -> set[int]:
    """The ids of the players who substituted in `event`."""
    return set(
        Substitution.objects.filter(round__event=event).values_list("substitute_id", flat=True)
    )


def boards_text(first: int | None, last: int | None) -> str:
    """ "3-4", "5" or "" (the whole round)."""
    if first is None or last is None:
        return ""
    return str(first) if first == last else f"{first}-{last}"


def _refuse_unless_allowed(event: Event, actor: Any) -> None:
    if not is_chief_referee(actor, event):
        raise SubstitutionRefused(
            _("Only the organizers and chief referees of %(event)s may record substitutions.")
            % {"event": event}
        )


def _lock_open_round(round_: Round) -> None:
    """Lock the round's row (games are stored and the round closed under it) and refuse a
    closed round."""
    state = Round.objects.select_for_update().filter(pk=round_.pk).values_list("state", flat=True)
    if state.first() in CLOSED:
        raise SubstitutionRefused(
            _("Round %(number)s is closed: who played its boards can no longer change.")
            % {"number": round_.number}
        )


def _overlaps(a: tuple[int | None, int | None], b: tuple[int | None, int | None]) -> bool:
    low_a, high_a = (a[0] or 0), (a[1] if a[1] is not None else 10**9)
    low_b, high_b = (b[0] or 0), (b[1] if b[1] is not None else 10**9)
    return low_a <= high_b and low_b <= high_a


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
            half a range, a reversed range or boards outside the round's; another
            substitution of the seat on some of these boards.
    """
    round_ = table.round
    event = round_.event
    _refuse_unless_allowed(event, actor)
    name = reserve_name.strip()
    if (substitute is None) == (not name):
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
    with transaction.atomic():
        _lock_open_round(round_)
        seated = Seat.objects.select_related("player").filter(table=table, seat=seat).first()
        if seated is None:
            raise SubstitutionRefused(
                _("Table %(table)s of round %(round)s has no seat %(seat)s.")
                % {"table": table.number, "round": round_.number, "seat": seat}
            )
        if first_board is not None and last_board is not None:
            numbers = list(Board.objects.filter(round=round_).values_list("number", flat=True))
            if not numbers:
                raise SubstitutionRefused(
                    _(
                        "Round %(number)s has no boards yet: deal them before a substitution for "
                        "part of it."
                    )
                    % {"number": round_.number}
                )
            low, high = min(numbers), max(numbers)
            if not low <= first_board <= last_board <= high:
                raise SubstitutionRefused(
                    _(
                        "Boards %(first)s-%(last)s are not boards of round %(number)s "
                        "(%(low)s-%(high)s)."
                    )
                    % {
                        "first": first_board,
                        "last": last_board,
                        "number": round_.number,
                        "low": low,
                        "high": high,
                    }
                )
        in_event = Q(entries__event=event) | Q(seats__table__round__event=event)
        if name:
            if Player.objects.filter(in_event, name=name).exists():
                raise SubstitutionRefused(
                    _("%(name)s is already a player of the event: choose her in the list.")
                    % {"name": name}
                )
            substitute = player_get_or_create(name=name)  # as the players import matches
            Entry.objects.create(event=event, player=substitute, reserve=True, ranked=ranked)
        assert substitute is not None
        if not Player.objects.filter(in_event, pk=substitute.pk).exists():
            raise SubstitutionRefused(
                _("%(name)s is not a player of the event: enter her first, or add a new reserve.")
                % {"name": substitute.name}
            )
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
        wanted = (first_board, last_board)
        for other in Substitution.objects.filter(round=round_).select_related(
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
            },
        )
        found.delete()
        _request_standings(event)
    return True


def _request_standings(event: Event) -> None:
    from tournaments.standings import standings_request

    standings_request(event_id=event.pk)


def round_substitutions(round_: Round) -> list[Substitution]:
    """The substitutions of a round, by table and seat, with their players."""
    return list(
        Substitution.objects.filter(round=round_).select_related("table", "player", "substitute")
    )


def table_players(table: Table, number: int) -> dict[str, Player]:
    """Seat → who plays board `number` at `table` (the seated player, or her substitute on
    the boards of a substitution); two queries."""
    seated = {s.seat: s.player for s in table.seats.select_related("player")}
    return lineup_of(table_ids=[table.pk]).players(table, number, seated)


def by_table(table_ids: Iterable[int]) -> dict[int, list[Substitution]]:
    """Table id → its substitutions (with their players), for the seat cards and pages."""
    out: dict[int, list[Substitution]] = defaultdict(list)
    for sub in Substitution.objects.filter(table_id__in=list(table_ids)).select_related(
        "player", "substitute"
    ):
        out[sub.table_id].append(sub)
    return dict(out)


def seat_played(*, table_id: int, board_number: int, player_id: int) -> str | None:
    """The seat in which `player_id` played board `board_number` at the table (her own
    seat, unless a substitute played it for her; or the seat she substituted in), else
    None. Two queries."""
    lineup = lineup_of(table_ids=[table_id])
    for seat, seated in Seat.objects.filter(table_id=table_id).values_list("seat", "player_id"):
        if lineup.player_id(table_id, seat, board_number, seated) == player_id:
            return seat
    return None


def with_substitutes(event: Event, team_of: dict[int, int]) -> dict[int, int]:
    """`team_of` (player id → team id) with each substitute of `event` who is in no team
    playing for the team of the player she replaced (her first substitution's, should she
    replace players of two teams)."""
    out = dict(team_of)
    for player_id, substitute_id in (
        Substitution.objects.filter(round__event=event)
        .order_by("round__number", "pk")
        .values_list("player_id", "substitute_id")
    ):
        if substitute_id not in out and player_id in team_of:
            out[substitute_id] = team_of[player_id]
    return out
