"""The engine's command line (RECORDS.md §2).

``python -m games.engine classify|beats|moves|replay|convert``. Every command prints JSON on
stdout (``convert --to text`` prints text records); a usage error (bad arguments, bad card
notation in an argument, an unknown preset or option, a file that cannot be read) exits 2 with
a one-line message on stderr. ``classify -`` and ``moves -`` answer one JSON line per input
line; ``replay`` streams one line per record in constant memory and exits 0 once every line
has been answered, whatever the verdicts (they are in the output).

Input lines are untrusted: whatever a line holds (JSON nested too deeply, numbers too long or
too large, NaN, lone surrogates, an engine fault on one record), it gets one answer of
standard JSON and the stream goes on (``parse_json``, ``_emit``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from . import legal_plays
from .cards import check_hand, format_cards, parse_hand
from .combos import beating_readings, classify_counts, why_not_a_combination
from .errors import EngineError, RecordError
from .record import Record, parse_json, read_record, record_from_text, record_to_text
from .replay import Outcome, _replay_fast, replay
from .rules import RuleSet


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _option_value(name: str, text: str) -> Any:
    if text.lower() in ("true", "false", "null"):
        return json.loads(text.lower())
    if text.lstrip("-").isdigit():
        try:
            return int(text)
        except ValueError:
            # int() refuses more digits than sys.get_int_max_str_digits() (or a digit such
            # as '²' that isdigit() accepts).
            raise _UsageError(f"--option {name}: {text[:20]}… is not a usable number") from None
    return text


def _rules_spec(args: argparse.Namespace) -> str | dict[str, Any]:
    """The rules the arguments name, checked; a usage error if unknown or impossible."""
    options: dict[str, Any] = {}
    for item in args.option or []:
        if "=" not in item:
            raise _UsageError(f"--option takes NAME=VALUE, not {item!r}")
        name, value = item.split("=", 1)
        options[name] = _option_value(name, value)
    spec: str | dict[str, Any] = (
        {"preset": args.rules, "options": options} if options else args.rules
    )
    try:
        RuleSet.from_spec(spec)
    except EngineError as exc:
        raise _UsageError(str(exc)) from None
    return spec


def _readings(rs: Iterable[Any]) -> list[dict[str, Any]]:
    return [r.to_dict() for r in sorted(rs, key=lambda r: (r.type, r.length, r.value))]


def _cards(text: str, rules: RuleSet) -> tuple[int, ...]:
    """Cards of an argument: rank notation or suited cards, checked against the deck."""
    counts = parse_hand(text)
    check_hand(counts, rules)
    return counts


def classify_line(cards: str, rules: RuleSet) -> dict[str, Any]:
    """The answer of ``classify`` for one play (RECORDS.md §2). Raises EngineError on bad
    notation or more cards than the deck holds."""
    counts = _cards(cards, rules)
    readings = classify_counts(counts, rules)
    out: dict[str, Any] = {"cards": format_cards(counts), "readings": _readings(readings)}
    if not readings:
        rule, why = why_not_a_combination(counts, rules) if any(counts) else ("R-NOTE", "no cards")
        out["error"] = why
        out["rule"] = rule
    return out


def moves_line(hand: str, previous: str | None, rules: RuleSet) -> dict[str, Any]:
    """The answer of ``moves`` for one query (RECORDS.md §2). Raises EngineError on bad input."""
    return {"moves": [str(m) for m in legal_plays(hand, previous, rules)]}


def _emit(obj: dict[str, Any], out: TextIO, *, where: dict[str, Any] | None = None) -> None:
    """Write one answer line of standard JSON (RFC 8259: no NaN, no Infinity).

    An answer that cannot be written so (a number of more digits than Python converts, nesting
    too deep to encode) is replaced by an ``error`` answer carrying `where` (its file and line);
    text with lone surrogates, which UTF-8 cannot hold, is written with ``\\u`` escapes.
    """
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except (ValueError, RecursionError) as exc:
        reason = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        obj = {
            "id": None,
            "status": "error",
            **(where or {}),
            "error": {"message": f"the answer cannot be written as JSON: {reason}"},
        }
        text = json.dumps(obj, ensure_ascii=False)
    try:
        out.write(text + "\n")
    except UnicodeEncodeError:
        # The text layer encodes before it writes, so nothing of the line went out.
        out.write(json.dumps(obj, allow_nan=False) + "\n")


# The JSON of a verified outcome after its id, by the outcome's values: encoding each line
# anew costs as much as the fast path's whole replay, and verdicts repeat.
_VERIFIED_TAILS: dict[tuple[Any, ...], str] = {}


def _emit_outcome(outcome: Outcome, out: TextIO, where: dict[str, Any]) -> None:
    """``_emit(outcome.to_dict(), out, where=where)``, the same text, with the verified part
    remembered."""
    if outcome.status != "verified" or outcome.score is None or outcome.partner is not None:
        _emit(outcome.to_dict(), out, where=where)
        return
    key = (
        outcome.landlord,
        outcome.winner,
        outcome.multiplier,
        tuple(outcome.score.items()),
        outcome.bid,
        outcome.unit,
        outcome.bombs,
        outcome.rockets,
        outcome.spring,
        outcome.anti_spring,
    )
    try:
        tail = _VERIFIED_TAILS.get(key)
        if tail is None:
            whole = outcome.to_dict()
            del whole["id"]
            tail = json.dumps(whole, ensure_ascii=False, allow_nan=False)[1:]
            if len(_VERIFIED_TAILS) >= 10_000:
                _VERIFIED_TAILS.clear()
            _VERIFIED_TAILS[key] = tail
        line = '{"id": ' + json.dumps(outcome.id, ensure_ascii=False, allow_nan=False)
        out.write(line + ", " + tail + "\n")
    except (ValueError, RecursionError, UnicodeEncodeError):
        # A value that standard JSON or the output cannot carry as it is (a score of more
        # digits than Python writes, an id nested too deeply or with a lone surrogate): _emit's
        # answers. The text layer encodes before it writes, so nothing of the line went out.
        _emit(outcome.to_dict(), out, where=where)


def _lines(path: str) -> Iterator[tuple[int, str | None]]:
    """(line number, text) of a file or stdin, read as UTF-8 one line at a time; text is None
    for a line that is not UTF-8."""
    stream = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115
    try:
        for lineno, raw in enumerate(stream, start=1):
            try:
                yield lineno, raw.decode("utf-8")
            except UnicodeDecodeError:
                yield lineno, None
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _text_records(path: str) -> Iterator[tuple[int, str | None]]:
    """Text-form records of a file: a record starts at a tag pair that follows a blank line."""
    block: list[str] = []
    start = 1
    for lineno, line in _lines(path):
        if line is None:
            yield lineno, None
            continue
        is_tag = line.lstrip().startswith("[")
        if (
            is_tag
            and block
            and not block[-1].strip()
            and any(x.lstrip().startswith("[") for x in block)
        ):
            yield start, "".join(block)
            block = []
        if not block:
            start = lineno
        block.append(line)
    if any(x.strip() for x in block):
        yield start, "".join(block)


def _with_default_rules(obj: Any, spec: str | dict[str, Any] | None) -> Any:
    if spec is not None and isinstance(obj, dict) and "rules" not in obj:
        obj = {**obj, "rules": spec}
    return obj


def _read(item: str, lineno: int, text_form: bool, spec: Any) -> Record:
    obj = _decode(item, lineno, text_form, spec)
    return obj if isinstance(obj, Record) else read_record(obj)


def _decode(item: str, lineno: int, text_form: bool, spec: Any) -> Any:
    """A text record read (a ``Record``), or a JSON line decoded, not yet read as a record."""
    if text_form:
        return record_from_text(item)
    try:
        obj = parse_json(item)
    except RecordError as exc:
        raise EngineError(f"line {lineno}: {exc}", rule="R-REC") from None
    return _with_default_rules(obj, spec)


def _replay_answer(
    path: str, lineno: int, item: str | None, text_form: bool, spec: Any
) -> tuple[Outcome | dict[str, Any], Any]:
    """The verdict of one record (or the answer saying why it is none) and the record's
    ``expected`` field."""
    try:
        if item is None:
            raise EngineError(f"line {lineno}: not UTF-8 text", rule="R-REC")
        obj = _decode(item, lineno, text_form, spec)
    except EngineError as exc:
        where = {"file": path, "line": lineno}
        error = {"message": str(exc), "rule": exc.rule}
        return {"id": None, "status": "not a record", **where, "error": error}, None
    rec: Record | None = obj if isinstance(obj, Record) else None
    try:
        # The fast path first (a JSON record it decides); else the checked reading and replay.
        if type(obj) is dict:
            quick = _replay_fast(obj)
            if quick is not None:
                return quick, obj.get("expected")
        if rec is None:
            try:
                rec = read_record(obj)
            except EngineError as exc:
                where = {"file": path, "line": lineno}
                error = {"message": str(exc), "rule": exc.rule}
                return {"id": None, "status": "not a record", **where, "error": error}, None
        return replay(rec), rec.extra.get("expected")
    except Exception as exc:
        # A fault of the engine on one record must not end a stream of a million: it is
        # answered, with the exception's message, and the next line is read.
        message = f"the engine could not judge this record: {type(exc).__name__}: {exc}"
        return {
            "id": rec.id if rec is not None else obj.get("id"),
            "status": "error",
            "file": path,
            "line": lineno,
            "error": {"message": message},
        }, None


def _replay_stream(
    paths: Sequence[str], out: TextIO, summary: bool, text_form: bool, spec: Any
) -> int:
    statuses: Counter[str] = Counter()
    agree: Counter[str] = Counter()
    for path in paths:
        items = _text_records(path) if text_form else _lines(path)
        for lineno, item in items:
            if item is not None and not item.strip():
                continue
            answer, expected = _replay_answer(path, lineno, item, text_form, spec)
            where = {"file": path, "line": lineno}
            if isinstance(answer, Outcome):
                statuses[answer.status] += 1
                if summary and isinstance(expected, dict):
                    agree[str(_agrees(answer.to_dict(), expected))] += 1
                _emit_outcome(answer, out, where)
                continue
            statuses[answer["status"]] += 1
            if isinstance(expected, dict):
                agree[str(_agrees(answer, expected))] += 1
            _emit(answer, out, where=where)
    if summary:
        total = sum(statuses.values())
        parts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
        noun = "record" if total == 1 else "records"
        print(f"replayed {total} {noun}: {parts or 'none'}", file=sys.stderr)
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


def _convert(path: str, to: str, out: TextIO, spec: Any) -> int:
    """JSON lines to text records, or back; nothing is written unless every record reads."""
    done: list[str] = []
    items = _lines(path) if to == "text" else _text_records(path)
    for lineno, item in items:
        if item is not None and not item.strip():
            continue
        try:
            if item is None:
                raise EngineError("not UTF-8 text")
            if to == "text":
                rec = _read(item, lineno, False, spec)
                done.append(record_to_text(rec))
            else:
                rec = record_from_text(item)
                done.append(json.dumps(rec.to_dict(), ensure_ascii=False) + "\n")
        except EngineError as exc:
            what = "line" if to == "text" else "record starting at line"
            message = str(exc)
            if not message.startswith("line "):
                message = f"{what} {lineno}: {message}"
            raise _UsageError(f"{path}: {message}") from None
    out.write("\n".join(done) if to == "text" else "".join(done))
    return 0


def _why_not_beats(play: frozenset[Any], prev: frozenset[Any], text: str) -> str:
    p, q = sorted(play), sorted(prev)
    if any(r.type == "rocket" for r in q):
        return "nothing beats the rocket (R-CMP)"
    if any(r.type == "bomb" for r in q) and any(r.type == "bomb" for r in p):
        return f"{text} is not a higher bomb (R-CMP)"
    same = [r for r in p if any(o.type == r.type and o.length == r.length for o in q)]
    if same:
        return f"{text} is not higher (R-CMP)"
    return (
        "a play beats only the same type with the same length and number of cards, unless "
        f"it is a bomb or the rocket (R-CMP): {p[0].type} of length {p[0].length} against "
        f"{q[0].type} of length {q[0].length}"
    )


def _build_parser() -> _Parser:
    parser = _Parser(
        prog="python -m games.engine",
        description="Dou Dizhu rules engine: classify plays, compare them, list "
        "legal plays, verify game records.",
    )
    common = _Parser(add_help=False)
    common.add_argument(
        "--rules",
        default="classic",
        metavar="PRESET",
        help="rule preset (default classic; two_player, four_player, "
        "five_player, classic_once, rob, competition, cn2016)",
    )
    common.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="rule option override, repeatable (e.g. space_shuttle=true)",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("classify", parents=[common], help="the readings of a play")
    p.add_argument("cards", help="cards, e.g. 333444TJ; '-' reads one play per line of stdin")
    p = sub.add_parser("beats", parents=[common], help="does PLAY beat PREVIOUS")
    p.add_argument("play", help="the play, e.g. 4444")
    p.add_argument("previous", help="the play on the table, every reading of it open")
    p = sub.add_parser("moves", parents=[common], help="every legal play of a hand")
    p.add_argument("hand", help="the cards held; '-' reads 'HAND [PREVIOUS]' per line of stdin")
    p.add_argument("--previous", default=None, help="the play to follow (omit when leading)")
    p = sub.add_parser(
        "replay",
        parents=[common],
        help="verify game records (JSON lines); --rules/--option apply to "
        "records that name no rules",
    )
    p.add_argument("files", nargs="+", help="JSON-lines files ('-' for stdin)")
    p.add_argument("--summary", action="store_true", help="print a summary on stderr")
    p.add_argument("--text", action="store_true", help="records in the text form")
    p = sub.add_parser("convert", parents=[common], help="JSON lines to text records, or back")
    p.add_argument("file", help="the records ('-' for stdin)")
    p.add_argument("--to", choices=("text", "json"), required=True, help="the form to write")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = _build_parser().parse_args(argv)
        out = sys.stdout
        spec = _rules_spec(args)
        explicit = spec if (args.option or args.rules != "classic") else None
        if args.command == "replay":
            return _replay_stream(args.files, out, args.summary, args.text, explicit)
        if args.command == "convert":
            return _convert(args.file, args.to, out, explicit)
        rules = RuleSet.from_spec(spec)
        if args.command == "classify":
            if args.cards == "-":
                for lineno, line in _lines("-"):
                    try:
                        if line is None:
                            raise EngineError("not UTF-8 text")
                        _emit(classify_line(line.strip(), rules), out)
                    except Exception as exc:  # an EngineError, or a fault: answered either way
                        _emit(
                            {
                                "cards": (line or "").strip(),
                                "readings": [],
                                "error": str(exc),
                                "rule": getattr(exc, "rule", None),
                                "line": lineno,
                            },
                            out,
                        )
                    out.flush()
                return 0
            try:
                _emit(classify_line(args.cards, rules), out)
            except EngineError as exc:
                raise _UsageError(str(exc)) from None
            return 0
        if args.command == "beats":
            try:
                play = classify_counts(_cards(args.play, rules), rules)
                prev = classify_counts(_cards(args.previous, rules), rules)
            except EngineError as exc:
                raise _UsageError(str(exc)) from None
            if not prev:
                _emit({"beats": False, "reason": f"{args.previous} is not a combination"}, out)
            elif not play:
                _emit({"beats": False, "reason": f"{args.play} is not a combination"}, out)
            elif beating_readings(play, prev):
                _emit({"beats": True}, out)
            else:
                _emit({"beats": False, "reason": _why_not_beats(play, prev, args.play)}, out)
            return 0
        if args.command == "moves":
            if args.hand == "-":
                for lineno, line in _lines("-"):
                    parts = (line or "").split()
                    try:
                        if line is None:
                            raise EngineError("not UTF-8 text")
                        if not parts or len(parts) > 2:
                            raise EngineError("a line is HAND or HAND PREVIOUS")
                        _emit(
                            moves_line(parts[0], parts[1] if len(parts) > 1 else None, rules), out
                        )
                    except Exception as exc:  # an EngineError, or a fault: answered either way
                        rule = getattr(exc, "rule", None)
                        _emit({"moves": [], "error": str(exc), "rule": rule, "line": lineno}, out)
                    out.flush()
                return 0
            try:
                _emit(moves_line(args.hand, args.previous, rules), out)
            except EngineError as exc:
                raise _UsageError(str(exc)) from None
            return 0
    except _UsageError as exc:
        print(f"python -m games.engine: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return _quiet_broken_pipe()
        print(f"python -m games.engine: {exc.strerror}: {exc.filename}", file=sys.stderr)
        return 2
    return 2


def _quiet_broken_pipe() -> int:
    # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
