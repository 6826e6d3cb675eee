"""Duplicate scoring: compare the players who held the same cards, board by board.

Pure and exact: plain values in, plain values out, no Django, `fractions.Fraction` throughout
(floating-point noise must never decide a rank).

Vocabulary (DESIGN.md, "Scoring methods"):
- a *seat result* is one seat's raw table score on one board at one table
  (`SeatResult(board, table, seat, player, score)`); `seat` is the seat of the deal (the hand
  held: S, E, W), never the role, because the same cards may make a landlord at one table and a
  farmer at another;
- *matchpoints* (MP, the default method): on one board, for one seat, 2 for each other table
  beaten and 1 for each tie; top = 2(n − 1) for n results. A board with fewer results than the
  N expected is scaled by Neuberg: MP' = (MP + 1)·N/n − 1, top 2(N − 1);
- *datum difference*: D = r − datum, the datum being the mean of the seat's raw scores over the
  tables, trimmed (highest and lowest dropped) from 5 tables on;
- *adjusted* results (`"avg+"`, `"avg"`, `"avg-"`) take part in no comparison: in matchpoints
  they score 60/50/40 % of the top, in datum +u/0/−u for the organizer's unit u;
- passed-out boards (R-PASSOUT) score 0 for every seat and are compared like any other;
- a *standing* is a player's total over the boards, ranked by competition ranking
  (1, 2=, 2=, 4): matchpoints by percentage of the tops, datum by total.

- *penalties* are kept apart from the board points and taken off the total for the ranking;
- *tie-breaks* (TIEBREAKS, in the organizer's order) separate equal keys: `datum_wins` (boards
  scored above the datum), `best_board` (the best single board, as a fraction of its top in
  matchpoints), `head_to_head` (between the tied players where they met at a table), `lot`
  (SHA-256 of the published seed and the player); players still equal share the rank;
- *team of three*: a team's board score is the sum of its members' raw scores
  (team_board_scores); *3 v 3 two-table*: X's net = r(s, table 1) − r(s, table 2)
  (two_table_net).

Seats are whatever the rules deal (S E W for three players; S N, S E N W, P1…P5 for two, four,
five): results are grouped by the seat string, so every function works for any table size.

Command line: `python -m tournaments.scoring FILE [--method matchpoints|datum] [--unit U]
[--tables N] [--tiebreak NAME …] [--seed SEED]`
reads JSON lines `{"board", "table", "seat", "player", "score"[, "adjusted"]}` and prints
`{"rows": [{"rank": "2=", "player": …, "total": "37/2", "percentage": "185/4", …}]}`, every
exact value a reduced fraction in a string. In matchpoints every board is expected at N
tables, N being the most tables that met any board of the file (`--tables N` sets it): a board
met by fewer is Neuberg-scaled (expected_tables). Bad input exits 2 with one line on stderr: a
line that is not a seat result, a seat not of R-SEAT, a seat or a player twice at one table of
a board, `--unit` not a number, negative, or given with matchpoints, `--tables` not a whole
number above 0, fewer than the tables that met a board, or given with datum, an adjusted result
under datum scoring without `--unit`, a file that cannot be read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal

Method = Literal["matchpoints", "datum"]
METHODS: tuple[Method, ...] = ("matchpoints", "datum")
ADJUSTMENTS = {"avg+": Fraction(3, 5), "avg": Fraction(1, 2), "avg-": Fraction(2, 5)}
_DATUM_ADJUSTMENTS = {"avg+": 1, "avg": 0, "avg-": -1}
# Every seat of every table size (R-SEAT): S E W for three players, S N / S E N W, P1…P5.
ALL_SEATS = ("S", "E", "W", "N", "P1", "P2", "P3", "P4", "P5")
# Trimmed datum from this many results on (DESIGN.md).
TRIM_FROM = 5


class ScoringError(ValueError):
    """Input that cannot be scored: a malformed seat result, a seat met twice at one table."""


@dataclass(frozen=True)
class SeatResult:
    """One seat's raw score on one board at one table; `adjusted` replaces the score."""

    board: Hashable
    table: Hashable
    seat: str
    player: Hashable
    score: Fraction
    adjusted: str | None = None


@dataclass(frozen=True)
class SeatPoints:
    """The points one seat result earns: MP (with the board's top) or the datum difference."""

    board: Hashable
    table: Hashable
    seat: str
    player: Hashable
    points: Fraction
    top: Fraction | None


@dataclass(frozen=True)
class Standing:
    """A ranked row: `rank` like "1" or "2="; `percentage` only for matchpoints.

    `total` is the sum of the board points; `penalty` (kept apart, never inside a board) is
    taken off it for the ranking key; `decided_by` names the tie-break that separated this row
    from the rows of equal key ("" when no tie-break was needed, or none decided).
    """

    rank: str
    position: int
    player: Hashable
    total: Fraction
    top: Fraction | None
    percentage: Fraction | None
    boards: int
    penalty: Fraction = Fraction(0)
    decided_by: str = ""


def _check(results: Sequence[SeatResult]) -> None:
    seen: set[tuple[Hashable, Hashable, str]] = set()
    held: dict[tuple[Hashable, Hashable, Hashable], str] = {}
    for r in results:
        key = (r.board, r.table, r.seat)
        if key in seen:
            raise ScoringError(f"board {r.board}, table {r.table}, seat {r.seat} appears twice")
        seen.add(key)
        other = held.setdefault((r.board, r.table, r.player), r.seat)
        if other != r.seat:
            raise ScoringError(
                f"board {r.board}, table {r.table}: player {r.player} holds two seats "
                f"({other} and {r.seat}); a player holds one seat at a table"
            )
        if r.adjusted is not None and r.adjusted not in ADJUSTMENTS:
            raise ScoringError(f"unknown adjustment {r.adjusted!r}; use avg+, avg or avg-")


def _groups(
    results: Sequence[SeatResult],
) -> dict[tuple[Hashable, str], list[SeatResult]]:
    groups: dict[tuple[Hashable, str], list[SeatResult]] = defaultdict(list)
    for r in results:
        groups[(r.board, r.seat)].append(r)
    return groups


def matchpoints(
    results: Iterable[SeatResult], *, expected: Mapping[Hashable, int] | None = None
) -> list[SeatPoints]:
    """Matchpoints of every seat result, in input order.

    `expected` maps a board to the number N of tables that should have a result; a board with
    fewer (n < N) is Neuberg-scaled. By default N is the number of tables that met the board.
    Adjusted results count among the N tables but not in the comparison.

    >>> rs = [SeatResult("1", t, "S", p, Fraction(s)) for t, p, s in
    ...       [(1, "a", 12), (2, "b", -4), (3, "c", -4), (4, "d", 15)]]
    >>> [str(p.points) for p in matchpoints(rs)]
    ['4', '1', '1', '6']

    Raises:
        ScoringError: a seat met twice at one table, or an unknown adjustment.
    """
    rows = list(results)
    _check(rows)
    points: dict[int, tuple[Fraction, Fraction]] = {}
    index = {id(r): i for i, r in enumerate(rows)}
    for (board, _seat), group in _groups(rows).items():
        # Compared as integers over the group's common denominator: exact, and many times
        # faster than comparing Fractions (the standings of a large event sort 40,000 scores).
        den = lcm(1, *(r.score.denominator for r in group if r.adjusted is None))
        real = sorted(_scaled(r.score, den) for r in group if r.adjusted is None)
        tables = len({r.table for r in group})
        big_n = max(tables, (expected or {}).get(board, tables))
        n = len(real)
        top = Fraction(2 * (big_n - 1))
        # The points of one raw score, made a Fraction once per group (a board at 200 tables
        # has a few dozen distinct ones): Neuberg's (raw + 1) * N / n - 1 in one division.
        made: dict[int, Fraction] = {}
        for r in group:
            if r.adjusted is not None:
                points[index[id(r)]] = (top * ADJUSTMENTS[r.adjusted], top)
                continue
            # Sorted once per group, so a board at T tables costs T log T, not T squared.
            # 2 per score below, 1 per other equal score: below + (below + equal) - 1.
            key = _scaled(r.score, den)
            raw = bisect_left(real, key) + bisect_right(real, key) - 1
            value = made.get(raw)
            if value is None:
                value = made[raw] = (
                    Fraction(raw) if n == big_n else Fraction((raw + 1) * big_n - n, n)
                )
            points[index[id(r)]] = (value, top)
    return [SeatPoints(r.board, r.table, r.seat, r.player, *points[i]) for i, r in enumerate(rows)]


def _scaled(value: Fraction, den: int) -> int:
    return value.numerator * (den // value.denominator)


def _exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum, added as integers over the common denominator of the values (a few
    distinct ones: halves and Neuberg's N) and reduced once at the end, instead of one
    Fraction addition (a gcd each) per value."""
    items = list(values)
    den = lcm(*{v.denominator for v in items}) if items else 1
    if den == 1:
        return Fraction(sum(v.numerator for v in items))
    return Fraction(sum(v.numerator * (den // v.denominator) for v in items), den)


def datum(scores: Sequence[Fraction]) -> Fraction:
    """The datum of one seat on one board: the mean, trimmed from TRIM_FROM scores on.

    >>> str(datum([Fraction(s) for s in (12, -4, -4, 15)]))
    '19/4'
    >>> str(datum([Fraction(s) for s in (100, 1, 2, 3, -50)]))
    '2'

    Raises:
        ScoringError: no scores.
    """
    if not scores:
        raise ScoringError("a datum needs at least one score")
    ordered = sorted(scores)
    if len(ordered) >= TRIM_FROM:
        ordered = ordered[1:-1]
    return Fraction(sum(ordered)) / len(ordered)


def datum_differences(
    results: Iterable[SeatResult], *, unit: Fraction = Fraction(0)
) -> list[SeatPoints]:
    """Datum difference D = r − datum of every seat result, in input order.

    Adjusted results score +unit, 0 or −unit and are left out of the datum.

    Raises:
        ScoringError: a seat met twice at one table, or an unknown adjustment.
    """
    rows = list(results)
    _check(rows)
    data: dict[tuple[Hashable, str], Fraction] = {}
    for key, group in _groups(rows).items():
        real = [r.score for r in group if r.adjusted is None]
        if real:
            data[key] = datum(real)
    out = []
    for r in rows:
        if r.adjusted is not None:
            points = unit * _DATUM_ADJUSTMENTS[r.adjusted]
        else:
            points = r.score - data[(r.board, r.seat)]
        out.append(SeatPoints(r.board, r.table, r.seat, r.player, points, None))
    return out


def board_points(
    results: Iterable[SeatResult],
    *,
    method: Method = "matchpoints",
    expected: Mapping[Hashable, int] | None = None,
    unit: Fraction = Fraction(0),
) -> list[SeatPoints]:
    """The points of every seat result under `method` (see matchpoints, datum_differences)."""
    if method == "matchpoints":
        return matchpoints(results, expected=expected)
    if method == "datum":
        return datum_differences(results, unit=unit)
    raise ScoringError(f"unknown scoring method {method!r}; use matchpoints or datum")


def rank_labels(keys: Sequence[Fraction]) -> list[str]:
    """Competition ranking of keys sorted best first: equal keys share a rank marked "=".

    >>> rank_labels([Fraction(9), Fraction(5), Fraction(5), Fraction(1)])
    ['1', '2=', '2=', '4']
    """
    labels = []
    for i, key in enumerate(keys):
        first = i
        while first > 0 and keys[first - 1] == key:
            first -= 1
        tied = (i > 0 and keys[i - 1] == key) or (i + 1 < len(keys) and keys[i + 1] == key)
        labels.append(f"{first + 1}{'=' if tied else ''}")
    return labels


def standings(
    points: Iterable[SeatPoints],
    *,
    method: Method = "matchpoints",
    results: Iterable[SeatResult] = (),
    penalties: Mapping[Hashable, Fraction] | None = None,
    tiebreaks: Sequence[str] = (),
    seed: str = "",
) -> list[Standing]:
    """Sum each player's points over the boards and rank them, best first.

    The key: matchpoints rank by percentage = 100 · (sum MP − penalty) / sum top (0 while no
    top), datum by sum D − penalty. `penalties` maps a player to his penalty in the method's
    unit (MP or datum points), kept apart from the board points. Players of equal key are
    separated by `tiebreaks` in the organizer's order (see TIEBREAKS; `results`, the raw seat
    results behind `points`, feed datum_wins and head_to_head; `seed` the lot); players still
    equal share the rank (1, 2=, 2=, 4) and are listed in player order (str of the player).

    Raises:
        ScoringError: an unknown or repeated tie-break, or a lot without a seed.
    """
    order = check_tiebreaks(tiebreaks, seed)
    per_player: dict[Hashable, list[SeatPoints]] = defaultdict(list)
    for p in points:
        per_player[p.player].append(p)
    totals: dict[Hashable, Fraction] = {
        pl: _exact_sum(p.points for p in ps) for pl, ps in per_player.items()
    }
    tops: dict[Hashable, Fraction] = {
        pl: _exact_sum(p.top or Fraction(0) for p in ps) for pl, ps in per_player.items()
    }
    boards: dict[Hashable, int] = {pl: len(ps) for pl, ps in per_player.items()}
    penalty = {pl: Fraction((penalties or {}).get(pl, 0)) for pl in totals}
    for pl, value in (penalties or {}).items():
        if pl not in totals:
            totals[pl], tops[pl], boards[pl] = Fraction(0), Fraction(0), 0
            penalty[pl] = Fraction(value)

    def key_of(player: Hashable) -> Fraction:
        net = totals[player] - penalty[player]
        if method == "matchpoints":
            return 100 * net / tops[player] if tops[player] else Fraction(0)
        return net

    # Each player's key once (the sort and the blocks below read it again and again).
    key = {pl: key_of(pl) for pl in totals}
    raw = list(results)
    context = _TieContext(method, per_player, raw, seed)
    players = sorted(totals, key=lambda pl: (-key[pl], str(pl)))
    blocks: list[tuple[list[Hashable], str]] = []
    i = 0
    while i < len(players):
        j = i
        while j < len(players) and key[players[j]] == key[players[i]]:
            j += 1
        blocks.extend(
            split_ties(players[i:j], order, lambda name, g: _tiebreak_values(name, g, context))
        )
        i = j
    out: list[Standing] = []
    for block, decided_by in blocks:
        first = len(out) + 1
        label = f"{first}{'=' if len(block) > 1 else ''}"
        for player in block:
            out.append(
                Standing(
                    rank=label,
                    position=len(out) + 1,
                    player=player,
                    total=totals[player],
                    top=tops[player] if method == "matchpoints" else None,
                    percentage=key[player] if method == "matchpoints" else None,
                    boards=boards[player],
                    penalty=penalty[player],
                    decided_by=decided_by,
                )
            )
    return out


# Tie-breaks the organizer orders (DESIGN.md): boards won against the datum, best single
# board, head-to-head, then a lot drawn from a seed published with the event.
TIEBREAKS = ("datum_wins", "best_board", "head_to_head", "lot")


def check_tiebreaks(
    tiebreaks: Sequence[str],
    seed: str,
    *,
    known: Sequence[str] = TIEBREAKS,
    error: type[ValueError] = ScoringError,
    holder: str = "event",
) -> list[str]:
    """The tie-breaks as a list, checked against `known` (an event's TIEBREAKS by default; a
    series passes its own); `holder` names what publishes the lot's seed in the message.

    Raises:
        `error` (ScoringError by default): an unknown or repeated tie-break, a lot without a
        seed.
    """
    order = list(tiebreaks)
    unknown = [t for t in order if t not in known]
    if unknown:
        raise error(f"unknown tie-break {unknown[0]!r}; use {', '.join(known)}")
    if len(set(order)) != len(order):
        raise error("a tie-break is listed twice")
    if "lot" in order and not seed:
        raise error(f"the lot needs the seed published with the {holder}")
    return order


def lot_value(seed: str, player: Hashable) -> str:
    """The lot of `player`: SHA-256 of "seed:player" in hex; the smaller draws the better place.

    Anyone holding the published seed can recompute it.

    >>> lot_value("s", 1)[:12]
    '1b25f38c1aa8'
    """
    return hashlib.sha256(f"{seed}:{player}".encode()).hexdigest()


@dataclass
class _TieContext:
    method: Method
    per_player: Mapping[Hashable, list[SeatPoints]]
    results: list[SeatResult]
    seed: str
    _data: dict[tuple[Hashable, str], Fraction] | None = None

    def datum_of(self) -> dict[tuple[Hashable, str], Fraction]:
        if self._data is None:
            scores: dict[tuple[Hashable, str], list[Fraction]] = defaultdict(list)
            for r in self.results:
                if r.adjusted is None:
                    scores[(r.board, r.seat)].append(r.score)
            self._data = {k: datum(v) for k, v in scores.items()}
        return self._data


def _tiebreak_values(
    name: str, group: Sequence[Hashable], ctx: _TieContext
) -> dict[Hashable, Fraction | int | str]:
    """Each player's value under tie-break `name`; a larger value ranks better, except the lot
    (the smaller hash ranks better, returned negated by the caller's sort)."""
    members = set(group)
    if name == "datum_wins":
        data = ctx.datum_of()
        wins: dict[Hashable, Fraction | int | str] = {pl: 0 for pl in group}
        for r in ctx.results:
            if r.player in members and r.adjusted is None and r.score > data[(r.board, r.seat)]:
                wins[r.player] = int(wins[r.player]) + 1
        return wins
    if name == "best_board":
        best: dict[Hashable, Fraction | int | str] = {}
        for pl in group:
            values = [
                (p.points / p.top if p.top else Fraction(0))
                if ctx.method == "matchpoints"
                else p.points
                for p in ctx.per_player.get(pl, [])
            ]
            best[pl] = max(values, default=Fraction(0))
        return best
    if name == "head_to_head":
        # Among the tied players only: at every table where two of them met on a board, 2 to
        # the one who scored more and 1 each for equal scores (matchpoint-style, so a group of
        # any size is ordered by one number each).
        at_table: dict[tuple[Hashable, Hashable], list[SeatResult]] = defaultdict(list)
        for r in ctx.results:
            if r.player in members and r.adjusted is None:
                at_table[(r.board, r.table)].append(r)
        h2h: dict[Hashable, Fraction | int | str] = {pl: 0 for pl in group}
        for met in at_table.values():
            for a in met:
                for b in met:
                    if a is not b:
                        gain = 2 if a.score > b.score else 1 if a.score == b.score else 0
                        h2h[a.player] = int(h2h[a.player]) + gain
        return h2h
    return {pl: lot_value(ctx.seed, pl) for pl in group}


TieValues = Callable[[str, Sequence[Hashable]], Mapping[Hashable, Fraction | int | str]]


def split_ties(
    group: list[Hashable], order: Sequence[str], values_of: TieValues, decided_by: str = ""
) -> list[tuple[list[Hashable], str]]:
    """Blocks of `group` (equal so far) in rank order, each with the tie-break that made it.

    `values_of(name, players)` gives each player's value under tie-break `name`: a larger
    value ranks better, except the lot (the smaller hash ranks better). Players still equal
    after `order` form one block, in str order. Shared by an event's standings and a series'
    (tournaments.series)."""
    if len(group) == 1 or not order:
        return [(sorted(group, key=str), decided_by)]
    name, rest = order[0], order[1:]
    values = values_of(name, group)
    distinct = sorted(set(values.values()), reverse=name != "lot")
    if len(distinct) == 1:
        return split_ties(group, rest, values_of, decided_by)
    blocks: list[tuple[list[Hashable], str]] = []
    for value in distinct:
        sub = [pl for pl in group if values[pl] == value]
        blocks.extend(split_ties(sub, rest, values_of, name))
    return blocks


def team_board_scores(
    results: Iterable[SeatResult], team_of: Mapping[Hashable, Hashable]
) -> dict[tuple[Hashable, Hashable], Fraction]:
    """Team of three: a team's score on a board is the sum of its members' raw scores.

    With three teams at three tables, each team holding each seat once per board, the luck of
    the cards cancels across the three hands. Returns (board, team) → the sum; players of no
    team are left out.

    >>> rs = [SeatResult(1, 1, "S", "a", Fraction(4)), SeatResult(1, 2, "E", "b", Fraction(-2)),
    ...       SeatResult(1, 3, "W", "c", Fraction(1))]
    >>> team_board_scores(rs, {"a": "X", "b": "X", "c": "X"})
    {(1, 'X'): Fraction(3, 1)}
    """
    out: dict[tuple[Hashable, Hashable], Fraction] = defaultdict(Fraction)
    for r in results:
        team = team_of.get(r.player)
        if team is not None:
            out[(r.board, team)] += r.score
    return dict(out)


def two_table_net(
    results: Iterable[SeatResult], team_of: Mapping[Hashable, Hashable]
) -> dict[tuple[Hashable, Hashable], Fraction]:
    """3 v 3 two-table match: each team's net on each board.

    Team X has one player, in seat s, at one table and two players in the other seats at the
    other table; every table being zero-sum, X's net = r(s, X's single table) − r(s, other
    table), and the other team's net is its negation. Returns (board, team) → net.

    Raises:
        ScoringError: a board not at exactly two tables, or a team not seated one-and-rest.
    """
    by_board: dict[Hashable, list[SeatResult]] = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    out: dict[tuple[Hashable, Hashable], Fraction] = {}
    for board, rows in by_board.items():
        tables: dict[Hashable, dict[str, SeatResult]] = defaultdict(dict)
        for r in rows:
            tables[r.table][r.seat] = r
        if len(tables) != 2:
            raise ScoringError(f"board {board}: a two-table match needs exactly two tables")
        (t1, seats1), (t2, seats2) = tables.items()
        if set(seats1) != set(seats2):
            raise ScoringError(f"board {board}: the two tables have different seats")
        teams = {team_of.get(r.player) for r in rows}
        if None in teams or len(teams) != 2:
            raise ScoringError(f"board {board}: every player must be in one of two teams")
        for team in teams:
            lone = [
                (t, s)
                for t, seats in ((t1, seats1), (t2, seats2))
                for s, r in seats.items()
                if team_of.get(r.player) == team
                and sum(team_of.get(o.player) == team for o in seats.values()) == 1
            ]
            if len(lone) != 1:
                raise ScoringError(
                    f"board {board}: team {team} must hold one seat at one table and the "
                    "other seats at the other"
                )
            table, seat = lone[0]
            other = seats2 if table == t1 else seats1
            own = seats1 if table == t1 else seats2
            out[(board, team)] = own[seat].score - other[seat].score
    return out


def format_fraction(value: Fraction) -> str:
    """A reduced fraction as text: "12", "-3/5"."""
    return str(Fraction(value))


def _parse_score(value: object, line: int) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ScoringError(f"line {line}: score must be a number or a fraction string")
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ScoringError(f"line {line}: score {value!r} is not a number") from None


def read_seat_results(lines: Iterable[str]) -> list[SeatResult]:
    """Parse JSON lines of seat results (blank lines skipped).

    Raises:
        ScoringError: a line that is not such an object, naming the line (counted from 1).
    """
    out = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScoringError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise ScoringError(f"line {number}: expected a JSON object")
        missing = [k for k in ("board", "table", "seat", "player") if k not in obj]
        adjusted = obj.get("adjusted")
        if "score" not in obj and adjusted is None:
            missing.append("score")
        if missing:
            raise ScoringError(f"line {number}: missing {', '.join(missing)}")
        for k in ("board", "table", "player"):
            if not isinstance(obj[k], str | int) or isinstance(obj[k], bool):
                raise ScoringError(f"line {number}: {k} must be a string or an integer")
        if obj["seat"] not in ALL_SEATS:
            raise ScoringError(
                f"line {number}: seat {obj['seat']!r} is not a seat (R-SEAT: {' '.join(ALL_SEATS)})"
            )
        if adjusted is not None and adjusted not in ADJUSTMENTS:
            raise ScoringError(f"line {number}: adjusted must be avg+, avg or avg-")
        score = _parse_score(obj["score"], number) if "score" in obj else Fraction(0)
        out.append(
            SeatResult(obj["board"], obj["table"], obj["seat"], obj["player"], score, adjusted)
        )
    return out


def _unit(text: str | None, method: str) -> Fraction | None:
    """The --unit option: None when not given (matchpoints never take one).

    Raises:
        ScoringError: not a number, negative, or given with matchpoints.
    """
    if text is None:
        return None
    if method != "datum":
        raise ScoringError("--unit applies to datum scoring only (--method datum)")
    try:
        unit = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ScoringError(f"--unit {text!r} is not a number") from None
    if unit < 0:
        raise ScoringError(f"--unit {text} is negative; the unit u must be 0 or more")
    return unit


def expected_tables(
    results: Iterable[SeatResult], tables: int | None = None
) -> dict[Hashable, int]:
    """Neuberg's N of every board of `results`: `tables`, or by default the most tables that met
    any board (a table meets a board when it has a result of it, adjusted ones included).

    >>> rs = [SeatResult(b, t, "S", f"{b}{t}", Fraction(0)) for b, t in
    ...       [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]]
    >>> expected_tables(rs), expected_tables(rs, 4)
    ({1: 3, 2: 3}, {1: 4, 2: 4})

    Raises:
        ScoringError: `tables` below 1, or fewer than the tables that met a board.
    """
    met: dict[Hashable, set[Hashable]] = defaultdict(set)
    for r in results:
        met[r.board].add(r.table)
    most = max((len(t) for t in met.values()), default=0)
    if tables is None:
        tables = most
    elif tables < 1:
        raise ScoringError(f"--tables {tables} is not a number of tables")
    elif tables < most:
        board = next(b for b, t in met.items() if len(t) == most)
        raise ScoringError(
            f"--tables {tables} is fewer than the {most} tables that met board {board}"
        )
    return {board: tables for board in met}


def _tables(text: str | None, method: str) -> int | None:
    """The --tables option: None when not given (datum scoring never takes one).

    Raises:
        ScoringError: not a whole number above 0, or given with datum scoring.
    """
    if text is None:
        return None
    if method != "matchpoints":
        raise ScoringError("--tables applies to matchpoints only (Neuberg's N)")
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise ScoringError(f"--tables {text!r} is not a number of tables")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.scoring", description="Duplicate scoring of seat results."
    )
    parser.add_argument("file", help="JSON-lines file of seat results, - for stdin")
    parser.add_argument("--method", choices=METHODS, default="matchpoints")
    parser.add_argument(
        "--unit", default=None, help="datum unit u (≥ 0) for adjusted results; datum only"
    )
    parser.add_argument(
        "--tables",
        default=None,
        help="tables expected at every board (Neuberg's N); default the most that met a board",
    )
    parser.add_argument(
        "--tiebreak",
        action="append",
        default=[],
        choices=TIEBREAKS,
        help="tie-breaks in order of precedence (repeat the option)",
    )
    parser.add_argument("--seed", default="", help="the published seed of the lot")
    args = parser.parse_args(argv)
    try:
        unit = _unit(args.unit, args.method)
        tables = _tables(args.tables, args.method)
        if args.file == "-":
            results = read_seat_results(sys.stdin)
        else:
            try:
                with open(args.file, encoding="utf-8") as fh:
                    results = read_seat_results(fh)
            except OSError as exc:
                reason = (exc.strerror or type(exc).__name__).lower()
                raise ScoringError(f"cannot read {args.file}: {reason}") from None
        if args.method == "datum" and unit is None and any(r.adjusted for r in results):
            raise ScoringError("an adjusted result under datum scoring scores ±u: --unit is needed")
        expected = expected_tables(results, tables) if args.method == "matchpoints" else None
        points = board_points(
            results, method=args.method, expected=expected, unit=unit or Fraction(0)
        )
        rows = standings(
            points, method=args.method, results=results, tiebreaks=args.tiebreak, seed=args.seed
        )
    except (ValueError, ZeroDivisionError) as exc:
        print(f"scoring: {exc}", file=sys.stderr)
        return 2
    out = []
    for row in rows:
        item: dict[str, object] = {
            "rank": row.rank,
            "player": row.player,
            "total": format_fraction(row.total),
            "boards": row.boards,
        }
        if row.decided_by:
            item["decided_by"] = row.decided_by
        if row.percentage is not None and row.top is not None:
            item["top"] = format_fraction(row.top)
            item["percentage"] = format_fraction(row.percentage)
        out.append(item)
    print(json.dumps({"method": args.method, "rows": out}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
