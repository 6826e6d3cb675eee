"""Series standings: points per event by finishing place, best k of n events.

Pure and exact: plain values in, plain values out, no Django, `fractions.Fraction` throughout.

Vocabulary (README, "Clubs, series and player profiles"):
- a *series* groups the events of a club's season; its standings rank the players over them;
- a *scale* is the points for places 1, 2, 3, … of one event (the organizer's table, or
  DEFAULT_SCALE); a place beyond the scale scores 0;
- a *finishing place* is a player's competition place in an event's standings (1, 2=, 2=, 4
  gives places 1, 2, 2, 4); players tied at place p in a group of k *cover* places
  p … p + k − 1 and share their points equally: (scale[p] + … + scale[p + k − 1]) / k;
- *best k of n*: a player's series total is the sum of her k best event points (every event
  when k is None); the events dropped are marked not counted;
- *master points* are awarded by a finished series on the organizer's table for the places of
  its final standings, players tied sharing the places they cover as above (master_points);
  a person's master points add up over the series, and her *title* is the highest threshold
  of the site's ladder she reaches (title_of);
- *tie-breaks* (SERIES_TIEBREAKS, in the organizer's order, the same machinery as an event's
  tie-breaks in tournaments.scoring): `best_event` (the most points in one event),
  `head_to_head` (among the tied players only: for each event two of them played, 2 to the
  better place, 1 each for the same place), `lot` (SHA-256 of the series' published seed and
  the player, tournaments.scoring.ranking.lot_value); players still equal share the rank (1, 2=, 2=,
  4).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from tournaments.scoring import ranking
from tournaments.scoring.methods import format_fraction
from tournaments.scoring.ranking import lot_value

__all__ = [
    "DEFAULT_SCALE",
    "SERIES_TIEBREAKS",
    "EventPlaces",
    "SeriesError",
    "SeriesRow",
    "check_tiebreaks",
    "format_scale",
    "lot_value",
    "master_points",
    "parse_scale",
    "place_points",
    "series_standings",
    "title_of",
]

# Points for places 1…10 when the organizer sets none.
DEFAULT_SCALE: tuple[Fraction, ...] = tuple(
    Fraction(v) for v in (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
)
SERIES_TIEBREAKS = ("best_event", "head_to_head", "lot")


class SeriesError(ValueError):
    """Input the series standings cannot take (a place below 1, a bad scale, k below 1, an
    unknown or repeated tie-break, a lot without a seed). `code` names what is wrong with a
    scale (``scale.empty``, ``scale.not_a_number``, ``scale.out_of_range``; ``invalid`` for the
    rest) and `params` its values (``word``: the word refused), so that a door says it in its
    reader's language."""

    def __init__(
        self, message: str, *, code: str = "invalid", params: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params = params or {}


@dataclass(frozen=True)
class EventPlaces:
    """One event of a series: `event` (any hashable key) and each player's finishing place."""

    event: Hashable
    places: Mapping[Hashable, int]


@dataclass(frozen=True)
class SeriesRow:
    """A ranked row: `points` holds one entry per event of the series, in the order given
    (None where the player did not play), `counted` whether that event is in her best k;
    `total` the sum of the counted points; `decided_by` the tie-break that separated her from
    the rows of equal total ("" when none was needed, or none decided)."""

    rank: str
    position: int
    player: Hashable
    total: Fraction
    points: tuple[Fraction | None, ...]
    counted: tuple[bool, ...]
    played: int
    decided_by: str = ""


def parse_scale(text: str) -> tuple[Fraction, ...]:
    """The scale written as numbers separated by commas or spaces ("25, 18, 15", "5.5", "1/3").

    Raises:
        SeriesError: an empty scale, a word that is not a number, a negative number.

    >>> parse_scale("10, 8 6.5")
    (Fraction(10, 1), Fraction(8, 1), Fraction(13, 2))
    """
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w]
    if not words:
        raise SeriesError("a scale needs at least one number of points", code="scale.empty")
    out = []
    for word in words:
        try:
            value = Fraction(word) if "/" in word else Fraction(Decimal(word))
        except (ValueError, ZeroDivisionError, InvalidOperation):
            raise SeriesError(
                f"{word!r} is not a number of points",
                code="scale.not_a_number",
                params={"word": word},
            ) from None
        if value < 0 or not value.denominator or abs(value) > 10**9:
            raise SeriesError(
                f"{word!r}: points are a number from 0 to 10^9",
                code="scale.out_of_range",
                params={"word": word},
            )
        out.append(value)
    return tuple(out)


def format_scale(scale: Sequence[Fraction]) -> str:
    """The scale as parse_scale reads it: exact values (reduced fractions) separated by ", "."""
    return ", ".join(format_fraction(Fraction(v)) for v in scale)


def place_points(
    places: Mapping[Hashable, int], scale: Sequence[Fraction]
) -> dict[Hashable, Fraction]:
    """Each player's points for her finishing place; tied players share the places they cover.

    A group of k players at place p covers places p … p + k − 1 and each gets the mean of
    their points (a place beyond the scale is worth 0).

    Raises:
        SeriesError: a place below 1.

    >>> place_points({"a": 1, "b": 2, "c": 2}, (Fraction(10), Fraction(8), Fraction(5)))
    {'a': Fraction(10, 1), 'b': Fraction(13, 2), 'c': Fraction(13, 2)}
    """
    groups: dict[int, list[Hashable]] = {}
    for player, place in places.items():
        if not isinstance(place, int) or place < 1:
            raise SeriesError(f"place {place!r} of {player!r}: places start at 1")
        groups.setdefault(place, []).append(player)

    def worth(place: int) -> Fraction:
        return Fraction(scale[place - 1]) if place <= len(scale) else Fraction(0)

    out: dict[Hashable, Fraction] = {}
    for place, group in groups.items():
        share = sum((worth(p) for p in range(place, place + len(group))), Fraction(0)) / len(group)
        for player in group:
            out[player] = share
    return {player: out[player] for player in places}


def check_tiebreaks(tiebreaks: Sequence[str], seed: str) -> list[str]:
    """The tie-breaks as a list, checked (tournaments.scoring.ranking.check_tiebreaks with the
    series'
    SERIES_TIEBREAKS).

    Raises:
        SeriesError: an unknown or repeated tie-break, a lot without a seed.
    """
    return ranking.check_tiebreaks(
        tiebreaks, seed, known=SERIES_TIEBREAKS, error=SeriesError, holder="series"
    )


def series_standings(
    events: Sequence[EventPlaces],
    *,
    scale: Sequence[Fraction] = DEFAULT_SCALE,
    best_of: int | None = None,
    tiebreaks: Sequence[str] = (),
    seed: str = "",
) -> list[SeriesRow]:
    """Rank the players of a series by the sum of their best `best_of` event points.

    `events` in the series' order (the order of each row's `points`); `scale` the points of
    places 1, 2, …; `best_of` k (None: every event counts). Players of equal total are
    separated by `tiebreaks` in the organizer's order (SERIES_TIEBREAKS; `seed` for the lot);
    players still equal share the rank and are listed in str order.

    Raises:
        SeriesError: k below 1, a place below 1, an unknown or repeated tie-break, a lot
        without a seed.
    """
    if best_of is not None and best_of < 1:
        raise SeriesError("best k of n needs k of at least 1")
    order = check_tiebreaks(tiebreaks, seed)
    per_event = [place_points(e.places, scale) for e in events]
    players: list[Hashable] = []
    seen: set[Hashable] = set()
    for e in events:
        for player in e.places:
            if player not in seen:
                seen.add(player)
                players.append(player)
    points: dict[Hashable, tuple[Fraction | None, ...]] = {
        pl: tuple(pts.get(pl) for pts in per_event) for pl in players
    }
    counted: dict[Hashable, tuple[bool, ...]] = {}
    totals: dict[Hashable, Fraction] = {}
    for pl, row in points.items():
        played = sorted(
            (i for i, v in enumerate(row) if v is not None),
            key=lambda i: (-(row[i] or 0), i),
        )
        keep = set(played if best_of is None else played[:best_of])
        counted[pl] = tuple(i in keep for i in range(len(row)))
        totals[pl] = sum((row[i] or Fraction(0) for i in keep), Fraction(0))

    def values_of(name: str, group: Sequence[Hashable]) -> dict[Hashable, Fraction | int | str]:
        return _tiebreak_values(name, group, events, points, seed)

    ranked = sorted(players, key=lambda pl: (-totals[pl], str(pl)))
    out: list[SeriesRow] = []
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and totals[ranked[j]] == totals[ranked[i]]:
            j += 1
        for block, decided_by in ranking.split_ties(ranked[i:j], order, values_of):
            label = f"{len(out) + 1}{'=' if len(block) > 1 else ''}"
            for pl in block:
                out.append(
                    SeriesRow(
                        rank=label,
                        position=len(out) + 1,
                        player=pl,
                        total=totals[pl],
                        points=points[pl],
                        counted=counted[pl],
                        played=sum(1 for v in points[pl] if v is not None),
                        decided_by=decided_by,
                    )
                )
        i = j
    return out


def _tiebreak_values(
    name: str,
    group: Sequence[Hashable],
    events: Sequence[EventPlaces],
    points: Mapping[Hashable, tuple[Fraction | None, ...]],
    seed: str,
) -> dict[Hashable, Fraction | int | str]:
    """Each tied player's value under tie-break `name`: larger ranks better, except the lot
    (the smaller hash ranks better)."""
    if name == "best_event":
        return {
            pl: max((v for v in points[pl] if v is not None), default=Fraction(0)) for pl in group
        }
    if name == "head_to_head":
        wins: dict[Hashable, Fraction | int | str] = {pl: 0 for pl in group}
        for e in events:
            met = [pl for pl in group if pl in e.places]
            for a in met:
                for b in met:
                    if a != b:
                        pa, pb = e.places[a], e.places[b]
                        wins[a] = int(wins[a]) + (2 if pa < pb else 1 if pa == pb else 0)
        return wins
    return {pl: lot_value(seed, pl) for pl in group}


def master_points(rows: Sequence[SeriesRow], scale: Sequence[Fraction]) -> dict[Hashable, Fraction]:
    """Each player's master points for her place in a series' final standings `rows`, on the
    table `scale` (places 1, 2, …): tied players share the places they cover (place_points).

    >>> rows = series_standings([EventPlaces("e", {"a": 1, "b": 2, "c": 2})])
    >>> master_points(rows, (Fraction(5), Fraction(3), Fraction(1)))
    {'a': Fraction(5, 1), 'b': Fraction(2, 1), 'c': Fraction(2, 1)}
    """
    return place_points({r.player: int(r.rank.rstrip("=")) for r in rows}, scale)


def title_of(points: Fraction, ladder: Sequence[tuple[Fraction, str]]) -> str | None:
    """The title of `points` master points: the name of the highest threshold of `ladder`
    ((threshold, name) pairs, in any order) they reach; None below every threshold.

    >>> title_of(Fraction(12), [(Fraction(10), "Five-Star Player"), (Fraction(50), "Master")])
    'Five-Star Player'
    """
    reached = [(threshold, name) for threshold, name in ladder if points >= threshold]
    return max(reached, key=lambda item: item[0])[1] if reached else None
