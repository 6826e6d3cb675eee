"""The engine's command line (RECORDS.md §2).

``python -m games.engine classify|beats|moves|replay|convert``.

Every command prints JSON on stdout; a usage error exits 2 with a one-line message on stderr.
``classify -`` and ``moves -`` answer one JSON line per input line; ``replay`` streams one line
per record, in constant memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from .cards import format_cards, parse_cards
from .combos import beating_readings, classify, why_not_a_combination
from .errors import EngineError
from .moves import legal_moves
from .play import parse_hand
from .record import read_record, record_from_text, record_to_text
from .replay import replay
from .rules import RuleSet


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _rules(args: argparse.Namespace) -> RuleSet:
    options: dict[str, Any] = {}
    for item in args.option or []:
        if "=" not in item:
            raise _UsageError(f"--option takes NAME=VALUE, not {item!r}")
        name, value = item.split("=", 1)
        options[name] = (
            json.loads(value)
            if value.lower() in ("true", "false", "null") or value.lstrip("-").isdigit()
            else value
        )
    try:
        return RuleSet.from_spec({"preset": args.rules, "options": options})
    except EngineError as exc:
        raise _UsageError(str(exc)) from None


def _readings(rs: Iterable[Any]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in sorted(rs, key=lambda r: (r.type, r.length, r.value))]


def classify_line(cards: str, rules: RuleSet) -> dict[str, Any]:
    """The answer of ``classify`` for one play (RECORDS.md §2)."""
    try:
        counts = parse_cards(cards)
    except EngineError as exc:
        return {"cards": cards, "readings": [], "error": str(exc)}
    readings = classify(format_cards(counts), rules)
    out: dict[str, Any] = {"cards": format_cards(counts), "readings": _readings(readings)}
    if not readings:
        rule, why = why_not_a_combination(counts, rules) if any(counts) else ("R-NOTE", "no cards")
        out["error"] = why
        out["rule"] = rule
    return out


def moves_line(hand: str, previous: str | None, rules: RuleSet) -> dict[str, Any]:
    """The answer of ``moves`` for one query (RECORDS.md §2)."""
    try:
        counts = parse_hand(hand)
        open_readings = None
        if previous is not None:
            open_readings = classify(previous, rules)
            if not open_readings:
                return {
                    "hand": hand,
                    "previous": previous,
                    "moves": [],
                    "error": f"the previous play {previous!r} is not a combination",
                }
    except EngineError as exc:
        return {"hand": hand, "moves": [], "error": str(exc)}
    return {"moves": [str(m) for m in legal_moves(counts, open_readings, rules)]}


def _emit(obj: dict[str, Any], out: TextIO) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _replay_stream(paths: Sequence[str], out: TextIO, summary: bool, text_form: bool) -> int:
    statuses: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    for path in paths:
        stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        try:
            if text_form:
                chunks = stream.read().split("\n\n[")  # records separated by a blank line
                items: Iterable[tuple[int, str]] = (
                    (i + 1, c if i == 0 else "[" + c) for i, c in enumerate(chunks) if c.strip()
                )
            else:
                items = enumerate(stream, start=1)
            for lineno, line in items:
                if not line.strip():
                    continue
                try:
                    rec = record_from_text(line) if text_form else read_record(line)
                except EngineError as exc:
                    statuses["not a record"] += 1
                    _emit(
                        {
                            "id": None,
                            "status": "not a record",
                            "line": lineno,
                            "file": path,
                            "error": {"message": str(exc), "rule": exc.rule},
                        },
                        out,
                    )
                    continue
                outcome = replay(rec)
                statuses[outcome.status] += 1
                expected = rec.extra.get("expected")
                if isinstance(expected, dict):
                    agree[str(_agrees(outcome.to_dict(), expected))] += 1
                _emit(outcome.to_dict(), out)
        finally:
            if stream is not sys.stdin:
                stream.close()
    if summary:
        total = sum(statuses.values())
        parts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        print(f"replayed {total} records: {parts}", file=sys.stderr)
        if agree:
            print(
                f"agree with the source's own judge: {agree['True']} of "
                f"{agree['True'] + agree['False']}",
                file=sys.stderr,
            )
    return 0


def _agrees(outcome: dict[str, Any], expected: dict[str, Any]) -> bool:
    if outcome["status"] != expected.get("status"):
        return False
    if expected["status"] == "verified":
        return bool(outcome["winner"] == expected.get("winner"))
    if expected["status"] == "illegal":
        err = outcome.get("error") or {}
        return bool(
            err.get("index") == expected.get("error_index")
            and err.get("seat") == expected.get("error_seat")
        )
    return True


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(
        prog="python -m games.engine", description="Dou Dizhu rules engine (RECORDS.md §2)."
    )
    common = _Parser(add_help=False)
    common.add_argument("--rules", default="classic", help="preset (default classic)")
    common.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="rule option override, repeatable"
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("classify", parents=[common], help="readings of a play ('-': stdin)")
    p.add_argument("cards")
    p = sub.add_parser("beats", parents=[common], help="does PLAY beat PREVIOUS")
    p.add_argument("play")
    p.add_argument("previous")
    p = sub.add_parser("moves", parents=[common], help="legal plays of a hand ('-': stdin)")
    p.add_argument("hand")
    p.add_argument("--previous", default=None)
    p = sub.add_parser("replay", parents=[common], help="verify records (JSON lines; '-': stdin)")
    p.add_argument("files", nargs="+")
    p.add_argument("--summary", action="store_true", help="print a summary on stderr")
    p.add_argument("--text", action="store_true", help="records in the text form")
    p = sub.add_parser("convert", parents=[common], help="JSON lines to text form, or back")
    p.add_argument("file")
    p.add_argument("--to", choices=("text", "json"), required=True)
    try:
        args = parser.parse_args(argv)
        out = sys.stdout
        if args.command == "replay":
            return _replay_stream(args.files, out, args.summary, args.text)
        if args.command == "convert":
            return _convert(args.file, args.to, out)
        rules = _rules(args)
        if args.command == "classify":
            if args.cards == "-":
                for line in sys.stdin:
                    _emit(classify_line(line.strip(), rules), out)
                    out.flush()
            else:
                _emit(classify_line(args.cards, rules), out)
            return 0
        if args.command == "beats":
            try:
                play, prev = classify(args.play, rules), classify(args.previous, rules)
            except EngineError as exc:
                raise _UsageError(str(exc)) from None
            if not prev:
                _emit({"beats": False, "reason": f"{args.previous} is not a combination"}, out)
            elif not play:
                _emit({"beats": False, "reason": f"{args.play} is not a combination"}, out)
            elif beating_readings(play, prev):
                _emit({"beats": True}, out)
            else:
                _emit(
                    {"beats": False, "reason": _why_not_beats(args.play, args.previous, rules)}, out
                )
            return 0
        if args.command == "moves":
            if args.hand == "-":
                for line in sys.stdin:
                    parts = line.split()
                    if not parts:
                        _emit({"moves": [], "error": "empty line"}, out)
                    else:
                        _emit(
                            moves_line(parts[0], parts[1] if len(parts) > 1 else None, rules), out
                        )
                    out.flush()
                return 0
            answer = moves_line(args.hand, args.previous, rules)
            if "error" in answer:
                raise _UsageError(answer["error"])
            _emit(answer, out)
            return 0
    except _UsageError as exc:
        print(f"python -m games.engine: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"python -m games.engine: {exc.strerror}: {exc.filename}", file=sys.stderr)
        return 2
    return 2


def _why_not_beats(play: str, previous: str, rules: RuleSet) -> str:
    p = sorted(classify(play, rules))
    q = sorted(classify(previous, rules))
    if any(r.type == "rocket" for r in q):
        return "nothing beats the rocket (R-CMP)"
    same = [r for r in p if any(o.type == r.type and o.length == r.length for o in q)]
    if same:
        return f"{format_cards(parse_cards(play))} is not higher (R-CMP)"
    return (
        "a play beats only the same type and number of cards, unless it is a bomb or the "
        f"rocket (R-CMP): {p[0].type} against {q[0].type}"
    )


def _convert(path: str, to: str, out: TextIO) -> int:
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
    try:
        if to == "text":
            first = True
            for line in stream:
                if line.strip():
                    try:
                        text = record_to_text(read_record(line))
                    except EngineError as exc:
                        raise _UsageError(str(exc)) from None
                    out.write(("" if first else "\n") + text)
                    first = False
        else:
            chunks = stream.read().split("\n\n[")
            for i, chunk in enumerate(chunks):
                if chunk.strip():
                    try:
                        rec = record_from_text(chunk if i == 0 else "[" + chunk)
                    except EngineError as exc:
                        raise _UsageError(str(exc)) from None
                    _emit(rec.to_dict(), out)
    finally:
        if stream is not sys.stdin:
            stream.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
