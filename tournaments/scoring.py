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

Command line: `python -m tournaments.scoring FILE [--method matchpoints|datum] [--unit U]`
reads JSON lines `{"board", "table", "seat", "player", "score"[, "adjusted"]}` and prints
`{"rows": [{"rank": "2=", "player": …, "total": "37/2", "percentage": "185/4", …}]}`, every
exact value a reduced fraction in a string.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Method = Literal["matchpoints", "datum"]
METHODS: tuple[Method, ...] = ("matchpoints", "datum")
ADJUSTMENTS = {"avg+": Fraction(3, 5), "avg": Fraction(1, 2), "avg-": Fraction(2, 5)}
_DATUM_ADJUSTMENTS = {"avg+": 1, "avg": 0, "avg-": -1}
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
    """A ranked row: `rank` like "1" or "2="; `percentage` only for matchpoints."""

    rank: str
    position: int
    player: Hashable
    total: Fraction
    top: Fraction | None
    percentage: Fraction | None
    boards: int


def _check(results: Sequence[SeatResult]) -> None:
    seen: set[tuple[Hashable, Hashable, str]] = set()
    for r in results:
        key = (r.board, r.table, r.seat)
        if key in seen:
            raise ScoringError(f"board {r.board}, table {r.table}, seat {r.seat} appears twice")
        seen.add(key)
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
        real = [r for r in group if r.adjusted is None]
        tables = len({r.table for r in group})
        big_n = max(tables, (expected or {}).get(board, tables))
        n = len(real)
        top = Fraction(2 * (big_n - 1))
        for r in group:
            if r.adjusted is not None:
                points[index[id(r)]] = (top * ADJUSTMENTS[r.adjusted], top)
                continue
            raw = Fraction(
                sum(
                    2 if r.score > o.score else 1 if r.score == o.score else 0
                    for o in real
                    if o is not r
                )
            )
            scaled = raw if n == big_n else (raw + 1) * big_n / n - 1
            points[index[id(r)]] = (scaled, top)
    return [SeatPoints(r.board, r.table, r.seat, r.player, *points[i]) for i, r in enumerate(rows)]


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


def standings(points: Iterable[SeatPoints], *, method: Method = "matchpoints") -> list[Standing]:
    """Sum each player's points over the boards and rank them, best first.

    Matchpoints rank by percentage = 100 · sum MP / sum top (0 while no top), datum by the sum.
    Players of equal key share the rank and are listed in player order (str of the player).
    """
    totals: dict[Hashable, Fraction] = defaultdict(Fraction)
    tops: dict[Hashable, Fraction] = defaultdict(Fraction)
    boards: dict[Hashable, int] = defaultdict(int)
    for p in points:
        totals[p.player] += p.points
        tops[p.player] += p.top or 0
        boards[p.player] += 1

    def key(player: Hashable) -> Fraction:
        if method == "matchpoints":
            return 100 * totals[player] / tops[player] if tops[player] else Fraction(0)
        return totals[player]

    players = sorted(totals, key=lambda pl: (-key(pl), str(pl)))
    labels = rank_labels([key(pl) for pl in players])
    return [
        Standing(
            rank=label,
            position=i + 1,
            player=player,
            total=totals[player],
            top=tops[player] if method == "matchpoints" else None,
            percentage=key(player) if method == "matchpoints" else None,
            boards=boards[player],
        )
        for i, (label, player) in enumerate(zip(labels, players, strict=True))
    ]


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
        if not isinstance(obj["seat"], str):
            raise ScoringError(f"line {number}: seat must be a string")
        if adjusted is not None and adjusted not in ADJUSTMENTS:
            raise ScoringError(f"line {number}: adjusted must be avg+, avg or avg-")
        score = _parse_score(obj["score"], number) if "score" in obj else Fraction(0)
        out.append(
            SeatResult(obj["board"], obj["table"], obj["seat"], obj["player"], score, adjusted)
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring); returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m tournaments.scoring", description="Duplicate scoring of seat results."
    )
    parser.add_argument("file", help="JSON-lines file of seat results, - for stdin")
    parser.add_argument("--method", choices=METHODS, default="matchpoints")
    parser.add_argument("--unit", default="0", help="datum unit u for adjusted results")
    args = parser.parse_args(argv)
    try:
        unit = Fraction(args.unit)
        if args.file == "-":
            results = read_seat_results(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as fh:
                results = read_seat_results(fh)
        points = board_points(results, method=args.method, unit=unit)
        rows = standings(points, method=args.method)
    except (OSError, ValueError, ZeroDivisionError) as exc:
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
        if row.percentage is not None and row.top is not None:
            item["top"] = format_fraction(row.top)
            item["percentage"] = format_fraction(row.percentage)
        out.append(item)
    print(json.dumps({"method": args.method, "rows": out}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
