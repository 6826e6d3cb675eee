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
- an *adjusted score* (a director's artificial score, bridge's Law 12C2) is `"avg+"`, `"avg"`,
  `"avg-"` or an *artificial percentage* such as `"61.8%"` (0 to 100, at most two decimals;
  average-plus, average and average-minus are 60, 50 and 40 %), each seat its own. It takes
  part in no comparison: in matchpoints it scores that share of the board's top, in datum
  u·(p − 50)/10 for the organizer's unit u (so +u, 0, −u for 60, 50, 40 %); the board's other
  results are compared among themselves and Neuberg-scaled to the N tables, as if the board
  had one result fewer;
- a *weighted score* (Law 12C1(c)) gives a table's result as several possible results, each
  with an exact weight above 0, the weights summing to 1 (`SeatResult.weighted`: one seat's
  (score, weight) pairs). It is compared: in matchpoints it scores the weighted sum of each
  possible result's matchpoints, and every other result is compared with each possible result
  at its weight (2·w for each one it beats, w for each equal one), so a board's matchpoints
  still sum to n(n − 1); in datum it scores as its weighted mean (`SeatResult.score`), which
  also enters the datum;
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
[--tables N] [--boards] [--tiebreak NAME …] [--seed SEED]`
reads JSON lines `{"board", "table", "seat", "player", "score"}` (or, instead of the score,
`"adjusted": "avg+" | "avg" | "avg-" | "61.8%"`, or `"weighted": [{"score": 6, "weight":
"1/2"}, …]`) and prints
`{"rows": [{"rank": "2=", "player": …, "total": "37/2", "percentage": "185/4", …}]}`, every
exact value a reduced fraction in a string; `--boards` adds each board's traveller
(`{"boards": [{"board", "results": [{"table", "seat", "player", "score", "matchpoints",
"percentage"}]}]}`). In matchpoints every board is expected at N tables, N being the most
tables that met any board of the file (`--tables N` sets it), or at the tables a line
`{"board": 7, "tables": 12}` names for that board: a board met by fewer is Neuberg-scaled
(expected_tables). Bad input exits 2 with one line on stderr: a
line that is not a seat result, a seat not of R-SEAT, a seat or a player twice at one table of
a board, `--unit` not a number, negative, or given with matchpoints, `--tables` not a whole
number above 0, fewer than the tables that met a board, or given with datum, an adjusted result
under datum scoring without `--unit`, an adjusted score that is not avg+, avg, avg- or a
percentage from 0 to 100 with at most two decimals, a weighted score whose weights are not
above 0 or do not sum to 1, a line with a weighted score beside its score or an adjusted
score, a file that cannot be read.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Literal, NamedTuple

Method = Literal["matchpoints", "datum"]
METHODS: tuple[Method, ...] = ("matchpoints", "datum")
ADJUSTMENTS = {"avg+": Fraction(3, 5), "avg": Fraction(1, 2), "avg-": Fraction(2, 5)}
# An artificial percentage: 0 to 100 with at most two decimals, ASCII digits only.
_PERCENTAGE = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,2})?%")
# Every seat of every table size (R-SEAT): S E W for three players, S N / S E N W, P1…P5.
ALL_SEATS = ("S", "E", "W", "N", "P1", "P2", "P3", "P4", "P5")
# Trimmed datum from this many results on (DESIGN.md).
TRIM_FROM = 5


class ScoringError(ValueError):
    """Input that cannot be scored: a malformed seat result, a seat met twice at one table."""


@dataclass(frozen=True)
class SeatResult:
    """One seat's raw score on one board at one table; `adjusted` replaces the score; a
    weighted score gives the seat's possible results as (score, weight) pairs in `weighted`,
    `score` being their weighted mean (weighted_result makes one)."""

    board: Hashable
    table: Hashable
    seat: str
    player: Hashable
    score: Fraction
    adjusted: str | None = None
    weighted: tuple[tuple[Fraction, Fraction], ...] = ()


class SeatPoints(NamedTuple):
    """The points one seat result earns: MP (with the board's top) or the datum difference.
    A named tuple, not a dataclass: a recomputation makes one per seat of every board that
    changed (600 a board at 600 players), and a frozen dataclass takes three times as long
    to make."""

    board: Hashable
    table: Hashable
    seat: str
    player: Hashable
    points: Fraction
    top: Fraction | None


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
        if r.adjusted is not None:
            if r.weighted:
                raise ScoringError(
                    f"board {r.board}, table {r.table}, seat {r.seat} has both an adjusted "
                    "score and a weighted one"
                )
            adjusted_share(r.adjusted)
        if r.weighted:
            where = f"board {r.board}, table {r.table}, seat {r.seat}"
            try:
                mean = weighted_mean(r.weighted)
            except ScoringError as exc:
                raise ScoringError(f"{where}: {exc}") from None
            if r.score != mean:
                raise ScoringError(
                    f"{where}: the score of a weighted result must be its weighted mean {mean}"
                )


def adjusted_share(adjusted: str) -> Fraction:
    """The share of the board's top an adjusted score is worth in matchpoints: "avg+" 3/5,
    "avg" 1/2, "avg-" 2/5, an artificial percentage "61.8%" 309/500 (0 to 100, at most two
    decimals). In datum it is worth u·(100·share − 50)/10.

    >>> adjusted_share("avg+"), adjusted_share("61.8%")
    (Fraction(3, 5), Fraction(309, 500))

    Raises:
        ScoringError: not one of the three names, or not such a percentage.
    """
    named = ADJUSTMENTS.get(adjusted) if isinstance(adjusted, str) else None
    if named is not None:
        return named
    if not isinstance(adjusted, str) or not _PERCENTAGE.fullmatch(adjusted):
        raise ScoringError(
            f"unknown adjustment {adjusted!r}; use avg+, avg, avg- or a percentage from 0% "
            "to 100% with at most two decimals (61.8%)"
        )
    share = Fraction(adjusted[:-1]) / 100
    if share > 1:
        raise ScoringError(f"adjustment {adjusted} is above 100%")
    return share


def weighted_mean(options: Sequence[tuple[Fraction, Fraction]]) -> Fraction:
    """The weighted mean of a weighted score's possible results, (score, weight) pairs.

    >>> weighted_mean([(Fraction(6), Fraction(1, 3)), (Fraction(-3), Fraction(2, 3))])
    Fraction(0, 1)

    Raises:
        ScoringError: no possible result, a weight not above 0, or weights not summing to 1.
    """
    if not options:
        raise ScoringError("a weighted score needs at least one possible result")
    for _score, weight in options:
        if weight <= 0:
            raise ScoringError(f"each weight of a weighted score must be above 0 (not {weight})")
    total = sum((Fraction(w) for _s, w in options), Fraction(0))
    if total != 1:
        raise ScoringError(f"the weights of a weighted score must sum to 1 (these sum to {total})")
    return sum((Fraction(s) * Fraction(w) for s, w in options), Fraction(0))


def weighted_result(
    board: Hashable,
    table: Hashable,
    seat: str,
    player: Hashable,
    options: Iterable[tuple[Fraction | int, Fraction | int]],
) -> SeatResult:
    """A seat's weighted score: its possible results as (score, weight) pairs, exact; its
    `score` is their weighted mean.

    Raises:
        ScoringError: as weighted_mean.
    """
    exact = tuple((Fraction(s), Fraction(w)) for s, w in options)
    return SeatResult(board, table, seat, player, weighted_mean(exact), weighted=exact)


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
    Adjusted results count among the N tables but not in the comparison (they score their
    share of the top); weighted results are compared possible result by possible result, at
    their weights (see the module docstring).

    >>> rs = [SeatResult("1", t, "S", p, Fraction(s)) for t, p, s in
    ...       [(1, "a", 12), (2, "b", -4), (3, "c", -4), (4, "d", 15)]]
    >>> [str(p.points) for p in matchpoints(rs)]
    ['4', '1', '1', '6']

    Raises:
        ScoringError: a seat met twice at one table, an unknown adjustment or a weighted
        result whose weights are not above 0 or do not sum to 1.
    """
    rows = list(results)
    _check(rows)
    # Each result's points by its place in `rows`, group by group (a board and seat).
    points: list[SeatPoints | None] = [None] * len(rows)
    groups: dict[tuple[Hashable, str], list[int]] = defaultdict(list)
    for i, r in enumerate(rows):
        groups[(r.board, r.seat)].append(i)
    for (board, _seat), places in groups.items():
        # One result per table in a group (_check refused a seat met twice at one table).
        tables = len(places)
        big_n = max(tables, (expected or {}).get(board, tables))
        top = Fraction(2 * (big_n - 1))
        compared = []
        for i in places:
            r = rows[i]
            if r.adjusted is not None:
                points[i] = SeatPoints(
                    r.board, r.table, r.seat, r.player, top * adjusted_share(r.adjusted), top
                )
            else:
                compared.append(i)
        n = len(compared)
        if any(rows[i].weighted for i in compared):
            exacts = _weighted_matchpoints([rows[i] for i in compared])
            for i, exact in zip(compared, exacts, strict=True):
                r = rows[i]
                value = exact if n == big_n else (exact + 1) * big_n / n - 1
                points[i] = SeatPoints(r.board, r.table, r.seat, r.player, value, top)
            continue
        _plain_matchpoints(rows, compared, points, big_n, top)
    return points  # type: ignore[return-value]  # every place was set, group by group


def _plain_matchpoints(
    rows: list[SeatResult],
    compared: list[int],
    points: list[SeatPoints | None],
    big_n: int,
    top: Fraction,
) -> None:
    """Set points[i] for each place i of `compared` (one board and seat, none adjusted or
    weighted): the matchpoints of rows[i] among them, Neuberg-scaled to `big_n` tables."""
    n = len(compared)
    # Compared as integers over the group's common denominator: exact, and many times faster
    # than comparing Fractions (the standings of a large event sort 40,000 scores). The rows
    # share a few score objects (one per distinct score): each is made an integer key once,
    # found by id (a Fraction's hash and its parts are Python calls), held in `scores`.
    scores = {id(s): s for s in (rows[i].score for i in compared)}
    den = lcm(1, *{s.denominator for s in scores.values()})
    key_of = {k: s.numerator * (den // s.denominator) for k, s in scores.items()}
    keys = [key_of[id(rows[i].score)] for i in compared]
    # One pass over the sorted scores: a score earns 2 per score below it and 1 per other
    # equal score (below + (below + equal) - 1), made a Fraction once per distinct score (a
    # board at 200 tables has a few dozen), with Neuberg's (raw + 1) * N / n - 1 in one
    # division when fewer than N tables compare.
    value_of: dict[int, Fraction] = {}
    below = 0
    for key, equal in sorted(Counter(keys).items()):
        raw = 2 * below + equal - 1
        value_of[key] = Fraction(raw) if n == big_n else Fraction((raw + 1) * big_n - n, n)
        below += equal
    for i, key in zip(compared, keys, strict=True):
        r = rows[i]
        points[i] = SeatPoints(r.board, r.table, r.seat, r.player, value_of[key], top)


def _weighted_matchpoints(compared: Sequence[SeatResult]) -> list[Fraction]:
    """The matchpoints of each of `compared` (one board and seat, none adjusted) among
    themselves, before Neuberg, where some are weighted: a possible result s of weight w earns
    w·(2 × the weight of the other results' possible results below s + the weight of those
    equal to s), a plain score being one possible result of weight 1."""
    choices = [r.weighted or ((r.score, Fraction(1)),) for r in compared]
    den = lcm(1, *(s.denominator for options in choices for s, _w in options))
    flat = sorted((_scaled(s, den), w) for options in choices for s, w in options)
    keys = [k for k, _w in flat]
    # below[i]: the weight of the first i possible results in score order.
    below = [Fraction(0)]
    for _k, w in flat:
        below.append(below[-1] + w)
    out = []
    for options in choices:
        own = [(_scaled(s, den), w) for s, w in options]
        total = Fraction(0)
        for key, weight in own:
            own_below = sum((w for k, w in own if k < key), Fraction(0))
            own_equal = sum((w for k, w in own if k == key), Fraction(0))
            lo, hi = bisect_left(keys, key), bisect_right(keys, key)
            beaten = below[lo] - own_below
            equal = below[hi] - below[lo] - own_equal
            total += weight * (2 * beaten + equal)
        out.append(total)
    return out


def _scaled(value: Fraction, den: int) -> int:
    return value.numerator * (den // value.denominator)


def exact_sum(values: Iterable[Fraction]) -> Fraction:
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

    Adjusted results score unit·(p − 50)/10 for their percentage p (+unit, 0, −unit for
    average-plus, average, average-minus) and are left out of the datum; a weighted result
    scores as its weighted mean, in the datum too.

    Raises:
        ScoringError: a seat met twice at one table, an unknown adjustment or a weighted
        result whose weights are not above 0 or do not sum to 1.
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
            points = unit * (10 * adjusted_share(r.adjusted) - 5)
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
    # A Fraction is reduced already: made again only when it is another number.
    return str(value if type(value) is Fraction else Fraction(value))
