"""The command line of the pure scoring, `python -m tournaments.scoring FILE [--method
matchpoints|datum] [--boards]` (DESIGN.md): seat results read from a JSON-lines file, checked
line by line (a bad line is one clear message and exit status 2), scored and ranked; exact
values printed as reduced fractions in strings.

A line `{"board": B, "tables": N}` says how many tables board B was meant for: its own
Neuberg N in matchpoints (boards of one event may be played different numbers of times), over
`--tables` and the default; datum scoring has no N and only checks the line. `--boards` adds
each board's results with their points, as a bridge traveller (travellers).

A seat result line gives its `"score"`, or instead an adjusted score (`"adjusted": "avg+"`,
`"avg"`, `"avg-"` or an artificial percentage such as `"61.8%"`, 0 to 100 with at most two
decimals), or a weighted score (`"weighted": [{"score": 6, "weight": "1/2"}, {"score": -3,
"weight": "1/2"}]`, exact weights above 0 summing to 1; tournaments.scoring.methods says how
each is scored).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from tournaments.scoring.methods import (
    ALL_SEATS,
    METHODS,
    ScoringError,
    SeatPoints,
    SeatResult,
    adjusted_share,
    board_points,
    format_fraction,
    weighted_result,
)
from tournaments.scoring.ranking import TIEBREAKS, RankedRow, standings


def _parse_score(value: object, line: int, name: str = "score") -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ScoringError(f"line {line}: {name} must be a number or a fraction string")
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise ScoringError(f"line {line}: {name} {value!r} is not a number") from None


def _weighted(value: object, line: int) -> list[tuple[Fraction, Fraction]]:
    """The possible results of a weighted score, `[{"score": 6, "weight": "1/2"}, …]`, as
    (score, weight) pairs (their weights are checked by methods.weighted_result).

    Raises:
        ScoringError: not a list of such objects, or a score or weight not a number.
    """
    if not isinstance(value, list):
        raise ScoringError(f"line {line}: weighted must be a list of possible results")
    options = []
    for option in value:
        if not isinstance(option, dict) or set(option) != {"score", "weight"}:
            raise ScoringError(
                f"line {line}: each possible result has a score and a weight, nothing else"
            )
        options.append(
            (_parse_score(option["score"], line), _parse_score(option["weight"], line, "weight"))
        )
    return options


# The fields of a seat result that a line giving a board's tables must not carry.
_SEAT_FIELDS = ("table", "seat", "player", "score", "adjusted", "weighted")


@dataclass
class ScoringInput:
    """What a file says: its seat results, and the boards whose tables it gives (board →
    (N, the line that gave it))."""

    results: list[SeatResult] = field(default_factory=list)
    tables: dict[Hashable, tuple[int, int]] = field(default_factory=dict)

    def own_tables(self) -> dict[Hashable, int]:
        """Board → the N its own line gives."""
        return {board: n for board, (n, _line) in self.tables.items()}


def _board_tables(obj: dict[str, Any], number: int, into: ScoringInput) -> None:
    """A line `{"board": B, "tables": N}`, kept in `into.tables`.

    Raises:
        ScoringError: seat fields on the line, no board, N not a whole number above 0, or
        the board's tables given before.
    """
    fields = [k for k in _SEAT_FIELDS if k in obj]
    if fields:
        raise ScoringError(
            f"line {number}: a tables line has board and tables only (not {', '.join(fields)})"
        )
    board, tables = obj.get("board"), obj["tables"]
    if not isinstance(board, str | int) or isinstance(board, bool):
        raise ScoringError(f"line {number}: board must be a string or an integer")
    # bool is an int to Python, and 12.0 or "12" is not a count of tables.
    if not isinstance(tables, int) or isinstance(tables, bool) or tables < 1:
        raise ScoringError(f"line {number}: tables must be a whole number above 0")
    if board in into.tables:
        raise ScoringError(
            f"line {number}: board {board} has its tables already (line {into.tables[board][1]})"
        )
    into.tables[board] = (tables, number)


def _seat_result(obj: dict[str, Any], number: int) -> SeatResult:
    """One seat result line.

    Raises:
        ScoringError: a field missing or of the wrong kind, naming the line.
    """
    missing = [k for k in ("board", "table", "seat", "player") if k not in obj]
    adjusted = obj.get("adjusted")
    if "weighted" in obj:
        # A weighted score stands in place of the score; an adjusted one replaces both.
        for other in ("score", "adjusted"):
            if other in obj:
                raise ScoringError(f"line {number}: both {other} and weighted; give one")
    elif "score" not in obj and adjusted is None:
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
    where = (obj["board"], obj["table"], obj["seat"], obj["player"])
    options = _weighted(obj["weighted"], number) if "weighted" in obj else None
    try:
        if adjusted is not None:
            adjusted_share(adjusted)
        if options is not None:
            return weighted_result(*where, options)
    except ScoringError as exc:
        raise ScoringError(f"line {number}: {exc}") from None
    score = _parse_score(obj["score"], number) if "score" in obj else Fraction(0)
    return SeatResult(*where, score, adjusted)


def read_scoring_input(lines: Iterable[str]) -> ScoringInput:
    """Parse JSON lines of seat results and of boards' tables (blank lines skipped).

    Raises:
        ScoringError: a line that is not such an object, a board's tables given twice or
        fewer than the tables that met the board, naming the line (counted from 1).
    """
    out = ScoringInput()
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScoringError(f"line {number}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise ScoringError(f"line {number}: expected a JSON object")
        if "tables" in obj:
            _board_tables(obj, number, out)
        else:
            out.results.append(_seat_result(obj, number))
    # Checked once every line is read: a board's results may come before or after its tables.
    met: dict[Hashable, set[Hashable]] = defaultdict(set)
    for r in out.results:
        met[r.board].add(r.table)
    for board, (tables, number) in out.tables.items():
        if tables < len(met[board]):
            raise ScoringError(
                f"line {number}: board {board} is meant for {tables} tables but "
                f"{len(met[board])} tables met it"
            )
    return out


def read_seat_results(lines: Iterable[str]) -> list[SeatResult]:
    """The seat results of JSON lines (read_scoring_input).

    Raises:
        ScoringError: a bad line, naming the line (counted from 1).
    """
    return read_scoring_input(lines).results


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
    results: Iterable[SeatResult],
    tables: int | None = None,
    own: Mapping[Hashable, int] | None = None,
) -> dict[Hashable, int]:
    """Neuberg's N of every board of `results`: the board's `own` N when it has one, else
    `tables`, or by default the most tables that met any board without an own N (a table meets
    a board when it has a result of it, adjusted ones included). A board with its own N sets no
    default for the others: they may be meant for fewer tables.

    >>> rs = [SeatResult(b, t, "S", f"{b}{t}", Fraction(0)) for b, t in
    ...       [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]]
    >>> expected_tables(rs), expected_tables(rs, 4), expected_tables(rs, own={1: 5})
    ({1: 3, 2: 3}, {1: 4, 2: 4}, {1: 5, 2: 2})

    Raises:
        ScoringError: `tables` below 1, or fewer than the tables that met a board without an
        own N.
    """
    own = own or {}
    met: dict[Hashable, set[Hashable]] = defaultdict(set)
    for r in results:
        met[r.board].add(r.table)
    rest = {b: len(t) for b, t in met.items() if b not in own}
    most = max(rest.values(), default=0)
    if tables is None:
        tables = most
    elif tables < 1:
        raise ScoringError(f"--tables {tables} is not a number of tables")
    elif tables < most:
        board = next(b for b, n in rest.items() if n == most)
        raise ScoringError(
            f"--tables {tables} is fewer than the {most} tables that met board {board}"
        )
    return {board: own.get(board, tables) for board in met}


# Seats in the order of the deal for every table size: S E W, S N, S E N W, P1…P5.
_SEAT_ORDER = {seat: i for i, seat in enumerate(("S", "E", "N", "W", "P1", "P2", "P3", "P4", "P5"))}


def _natural(value: Hashable) -> tuple[int, int, str]:
    """Sort key of a board or a table: numbers in numeric order, then names."""
    if isinstance(value, int):
        return (0, value, "")
    return (1, 0, str(value))


def travellers(
    results: Sequence[SeatResult], points: Sequence[SeatPoints]
) -> list[dict[str, object]]:
    """Every board's results with their points, as a bridge traveller: boards in order, each
    board's results by table then seat. `points` are board_points of `results` (in the same
    order); a result with a top (matchpoints) shows "matchpoints" and "percentage" (100 · MP /
    top, 0 when the top is 0), one without (datum) its "difference"; an adjusted result shows
    "adjusted" instead of a score, a weighted one its possible results, "weighted": [{"score",
    "weight"}, …].

    >>> rs = [SeatResult(1, 2, "S", "b", Fraction(-1)), SeatResult(1, 1, "S", "a", Fraction(3))]
    >>> [(r["player"], r["matchpoints"]) for r in travellers(rs, board_points(rs))[0]["results"]]
    [('a', '2'), ('b', '0')]
    """
    by_board: dict[Hashable, list[tuple[SeatResult, SeatPoints]]] = defaultdict(list)
    for r, p in zip(results, points, strict=True):
        by_board[r.board].append((r, p))
    out: list[dict[str, object]] = []
    for board in sorted(by_board, key=_natural):
        lines = []
        for r, p in sorted(
            by_board[board], key=lambda rp: (_natural(rp[0].table), _SEAT_ORDER[rp[0].seat])
        ):
            line: dict[str, object] = {"table": r.table, "seat": r.seat, "player": r.player}
            if r.adjusted is not None:
                line["adjusted"] = r.adjusted
            elif r.weighted:
                line["weighted"] = [
                    {"score": format_fraction(s), "weight": format_fraction(w)}
                    for s, w in r.weighted
                ]
            else:
                line["score"] = format_fraction(r.score)
            if p.top is None:
                line["difference"] = format_fraction(p.points)
            else:
                line["matchpoints"] = format_fraction(p.points)
                line["percentage"] = format_fraction(
                    100 * p.points / p.top if p.top else Fraction(0)
                )
            lines.append(line)
        out.append({"board": board, "results": lines})
    return out


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


def _parser() -> argparse.ArgumentParser:
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
        help="tables expected at every board (Neuberg's N) without a tables line of its own; "
        "default the most that met such a board",
    )
    parser.add_argument(
        "--tiebreak",
        action="append",
        default=[],
        choices=TIEBREAKS,
        help="tie-breaks in order of precedence (repeat the option)",
    )
    parser.add_argument("--seed", default="", help="the published seed of the lot")
    parser.add_argument(
        "--boards", action="store_true", help="also print every board's results and points"
    )
    return parser


def _read(path: str) -> ScoringInput:
    if path == "-":
        return read_scoring_input(sys.stdin)
    try:
        with open(path, encoding="utf-8") as fh:
            return read_scoring_input(fh)
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        raise ScoringError(f"cannot read {path}: {reason}") from None


def _row(row: RankedRow) -> dict[str, object]:
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
    return item


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring); returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        unit = _unit(args.unit, args.method)
        tables = _tables(args.tables, args.method)
        data = _read(args.file)
        results = data.results
        if args.method == "datum" and unit is None and any(r.adjusted for r in results):
            raise ScoringError("an adjusted result under datum scoring scores ±u: --unit is needed")
        expected = (
            expected_tables(results, tables, data.own_tables())
            if args.method == "matchpoints"
            else None
        )
        points = board_points(
            results, method=args.method, expected=expected, unit=unit or Fraction(0)
        )
        rows = standings(
            points, method=args.method, results=results, tiebreaks=args.tiebreak, seed=args.seed
        )
    except (ValueError, ZeroDivisionError) as exc:
        print(f"scoring: {exc}", file=sys.stderr)
        return 2
    out: dict[str, object] = {"method": args.method}
    if args.boards:
        out["boards"] = travellers(results, points)
    out["rows"] = [_row(row) for row in rows]
    print(json.dumps(out, ensure_ascii=False))
    return 0
