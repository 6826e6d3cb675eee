"""The command line of the pure scoring, `python -m tournaments.scoring FILE [--method
matchpoints|datum]` (DESIGN.md): seat results read from a JSON-lines file, checked line by line
(a bad line is one clear message and exit status 2), scored and ranked; exact values printed
as reduced fractions in strings.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from fractions import Fraction

from tournaments.scoring.methods import (
    ADJUSTMENTS,
    ALL_SEATS,
    METHODS,
    ScoringError,
    SeatResult,
    board_points,
    format_fraction,
)
from tournaments.scoring.ranking import TIEBREAKS, standings


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
