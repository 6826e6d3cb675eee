"""Lineups: who played each seat of each table on each board, substitutions counted (the read
side of tournaments.events.substitutions).

Vocabulary: the *lineup* of a round says who played each seat of each table on each board: the
seated player, except on the boards of a substitution (tournaments.models.Substitution), where
the substitute played. A *stint* is one player's boards in one seat. Each board is credited to
the person who played it (DESIGN.md, "Substitutions"). Selectors only: the standings, results,
links and pages read lineups here; the writes are tournaments.events.substitutions's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tournaments.models import (
    Entry,
    Event,
    Player,
    Round,
    Seat,
    Substitution,
    Table,
)


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

    def signature(self) -> tuple[Any, ...]:
        """Every stint as plain values, in a fixed order: equal for equal lineups."""
        return tuple(
            (table_id, seat, tuple((s.first, s.last, s.substitute.pk) for s in stints))
            for (table_id, seat), stints in sorted(self._stints.items())
        )

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


def round_substitutions(round_: Round) -> list[Substitution]:
    """The substitutions of a round, by table and seat, with their players."""
    return list(
        Substitution.objects.filter(round=round_).select_related("table", "player", "substitute")
    )


# R-SEAT's turn order for every table size at once: each size's seats are a subsequence of it
# (S N; S E W; S E N W; P1…P5), so one key orders any table's seats as its rules name them.
_TURN_ORDER = {seat: i for i, seat in enumerate(("S", "E", "N", "W", "P1", "P2", "P3", "P4", "P5"))}


def table_players(table: Table, number: int) -> dict[str, Player]:
    """Seat → who plays board `number` at `table` (the seated player, or her substitute on
    the boards of a substitution), in turn order (R-SEAT); two queries."""
    return tables_players([(table.pk, number)])[(table.pk, number)]


def tables_players(pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], dict[str, Player]]:
    """(table id, board number) → seat → who plays that board at that table, as
    `table_players` for each pair (seats in turn order, R-SEAT), in two queries whatever their
    number (lists of games)."""
    pairs = list(pairs)
    table_ids = {t for t, _n in pairs}
    seated: dict[int, dict[str, Player]] = defaultdict(dict)
    seats = Seat.objects.filter(table_id__in=table_ids).select_related("player")
    for s in sorted(seats, key=lambda s: _TURN_ORDER.get(s.seat, len(_TURN_ORDER))):
        seated[s.table_id][s.seat] = s.player
    lineup = lineup_of(table_ids=table_ids)
    return {(t, n): {s: lineup.player(t, s, n, p) for s, p in seated[t].items()} for t, n in pairs}


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


def with_substitutes(
    event: Event, team_of: Mapping[Hashable, Hashable]
) -> dict[Hashable, Hashable]:
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
