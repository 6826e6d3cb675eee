"""Game records (R-REC): the JSON form of RECORDS.md §1 and a compact text form.

Vocabulary:

- *record*: one game: rules, the deal (hands before the bottom, bottom, first bidder), the
  bidding calls (or, where no bidding was recorded, ``landlord`` and ``bid``), every turn,
  an optional claim or concession, and what the table declared.
- *text form*: what a person types and reads. A header of tag pairs, as in PGN/PBN, then the
  movetext: the bidding calls, a ``*`` token, then one token per turn (``p`` for a pass).

Text form, by example::

    [Id "R1-B3-T2"]
    [Rules "classic"]
    [S "3345566789TJQKKA2"]
    [E "..."]
    [W "..."]
    [Bottom "2BR"]
    [FirstBidder "S"]
    [Declared "S=48 E=-24 W=-24"]

    1 p 2 3 *
    333444TJ p p 5 ...

Tags: ``Id``, ``Rules`` (a preset name or its JSON), ``S``/``E``/``W`` (hands), ``Bottom``,
``FirstBidder``, ``Landlord`` and ``Bid`` (only when no bidding was recorded; then the movetext
has no ``*``), ``End`` (``claim S`` or ``concede E``), ``Declared`` (``S=48 E=-24 W=-24``),
``DeclaredWinner``, ``Aside`` (two players: the cards set aside), ``Marked`` (five players: the
marked card), ``Extra`` (JSON of any other fields). A token is a call or the cards of a
turn; ``SEAT:`` before it names the seat when it is not the one whose turn it is (the writer adds
it only then); ``@type`` after cards declares the reading (R-AMBIG). ``;`` starts a comment to
the end of the line. Writing then reading gives back the same record.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .bidding import Bidding
from .errors import NumberTooLargeError, RecordError
from .rules import RuleSet

__all__ = [
    "Record",
    "parse_json",
    "read_record",
    "RecordSyntaxError",
    "record_to_text",
    "record_from_text",
]

_KNOWN = (
    "id",
    "rules",
    "hands",
    "bottom",
    "first_bidder",
    "bidding",
    "landlord",
    "bid",
    "plays",
    "end",
    "declared",
    "declared_winner",
    "aside",
    "marked",
)


@dataclass(frozen=True)
class Record:
    """One game record (RECORDS.md §1). ``plays`` items are ``(seat, text)`` or
    ``(seat, text, reading)``; ``extra`` keeps fields this engine does not read (``expected``,
    ``source`` …) so that a record round-trips."""

    id: Any
    rules: Any
    hands: dict[str, str]
    bottom: str
    first_bidder: str | None
    bidding: list[tuple[str, str]] | None
    landlord: str | None
    bid: int | None
    plays: list[tuple[str, ...]]
    end: dict[str, str] | None
    declared: dict[str, int] | None
    declared_winner: str | None
    extra: dict[str, Any] = field(default_factory=dict)
    aside: str | None = None
    marked: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON record of RECORDS.md §1 (fields this engine does not read kept)."""
        out: dict[str, Any] = {
            "id": self.id,
            "rules": self.rules,
            "hands": dict(self.hands),
            "bottom": self.bottom,
            "first_bidder": self.first_bidder,
            "bidding": None if self.bidding is None else [list(c) for c in self.bidding],
        }
        if self.bidding is None or self.landlord is not None:
            out["landlord"] = self.landlord
        if self.bidding is None or self.bid is not None:
            out["bid"] = self.bid
        out["plays"] = [list(p) for p in self.plays]
        out["end"] = self.end
        out["declared"] = self.declared
        if self.declared_winner is not None:
            out["declared_winner"] = self.declared_winner
        if self.aside is not None:
            out["aside"] = self.aside
        if self.marked is not None:
            out["marked"] = self.marked
        out.update(self.extra)
        return out


def _refuse_constant(name: str) -> Any:
    raise RecordError(
        f"not JSON: {name} is not a number of JSON (RFC 8259)", code="record.not_json"
    )


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise NumberTooLargeError(
            f"not JSON this engine reads: the number {text[:40]} is too large",
            code="record.number_too_large",
        )
    return value


# One decoder for every line: json.loads with hooks would build a new one per call.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)

# The deepest nesting of arrays and objects read (records and event archives nest a few
# levels). A fixed bound, not the interpreter's recursion limit, so that every process
# refuses the same text the same way (a test runner or server may raise that limit).
MAX_DEPTH = 200
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _nested_too_deeply(text: str) -> bool:
    """Whether `text` opens more than MAX_DEPTH arrays or objects inside one another (its
    strings, which may hold brackets, left out). Scanned only when it has that many brackets:
    a record has a few dozen."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


def parse_json(text: str) -> Any:
    """JSON text (RFC 8259) as Python values, refusing what a hostile file hides in valid-looking
    lines, so that a reader of untrusted lines answers each with an error instead of failing.

    >>> parse_json('{"bid": 3}')
    {'bid': 3}
    >>> parse_json("[" * 100_000)
    Traceback (most recent call last):
    ...
    games.engine.errors.RecordError: not JSON this engine reads: arrays or objects nested too deeply

    Raises:
        RecordError: not JSON; ``NaN`` or ``Infinity`` (not JSON numbers); arrays or objects
            nested more than MAX_DEPTH deep (or deeper than Python's recursion limit allows).
        NumberTooLargeError (a RecordError): a number too large for a float (``1e400``) or
            with more digits than Python converts (``sys.get_int_max_str_digits()``, 4,300 by
            default).
    """
    if _nested_too_deeply(text):
        raise RecordError(
            "not JSON this engine reads: arrays or objects nested too deeply",
            code="record.nested_too_deeply",
        )
    try:
        return _DECODER.decode(text)
    except RecordError:
        raise
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", code="record.not_json"
        ) from None
    except RecursionError:
        raise RecordError(
            "not JSON this engine reads: arrays or objects nested too deeply",
            code="record.nested_too_deeply",
        ) from None
    except ValueError:
        # The only other ValueError of the decoder: int() refusing a number that long.
        digits = sys.get_int_max_str_digits()
        raise NumberTooLargeError(
            f"not JSON this engine reads: a number of more than {digits} digits",
            code="record.number_too_long",
            params={"digits": digits},
        ) from None


def _need(cond: bool, message: str, *, field: str | None = None) -> None:
    """A RecordError with `message` unless `cond`: coded as a bad `field` of the record (or
    as not an object when no field is named)."""
    if not cond:
        if field is None:
            raise RecordError(message, code="record.not_object")
        raise RecordError(message, code="record.bad_field", params={"field": field})


def read_record(obj: Mapping[str, Any] | str) -> Record:
    """Read a record from its JSON object (or JSON text).

    Checks the shape only; the rules, cards and calls are checked by ``replay``.

    Raises:
        RecordError: not a record at all: not an object, a missing field, a field of the wrong
        type (the message names the field).
    """
    if isinstance(obj, str):
        obj = parse_json(obj)
    _need(isinstance(obj, Mapping), f"a record is a JSON object, not {type(obj).__name__}")
    assert isinstance(obj, Mapping)
    for key in ("hands", "plays"):
        if key not in obj:
            raise RecordError(
                f"a record needs the field {key!r}",
                code="record.missing_field",
                params={"field": key},
            )
    hands = obj["hands"]
    _need(
        isinstance(hands, Mapping) and len(hands) > 0,
        "'hands' must be an object of seat → cards",
        field="hands",
    )
    for seat, cards in hands.items():
        _need(
            isinstance(seat, str) and isinstance(cards, str),
            f"'hands' must map seats to card text; got {seat!r}: {cards!r}",
            field="hands",
        )
    bottom = obj.get("bottom", "")
    _need(isinstance(bottom, str), "'bottom' must be card text", field="bottom")
    first = obj.get("first_bidder")
    _need(
        first is None or isinstance(first, str),
        "'first_bidder' must be a seat or null",
        field="first_bidder",
    )
    rules = obj.get("rules", "classic")
    _need(
        isinstance(rules, (str, Mapping)),
        "'rules' must be a preset name or an object",
        field="rules",
    )
    bidding_raw = obj.get("bidding")
    bidding: list[tuple[str, str]] | None = None
    if bidding_raw is not None:
        _need(
            isinstance(bidding_raw, list),
            "'bidding' must be a list of [seat, call] or null",
            field="bidding",
        )
        bidding = []
        for i, call in enumerate(bidding_raw):
            _need(
                isinstance(call, list) and len(call) == 2 and all(isinstance(x, str) for x in call),
                f"bidding[{i}] must be [seat, call], got {call!r}",
                field="bidding",
            )
            bidding.append((call[0], call[1]))
    landlord = obj.get("landlord")
    _need(
        landlord is None or isinstance(landlord, str),
        "'landlord' must be a seat or null",
        field="landlord",
    )
    bid = obj.get("bid")
    _need(
        bid is None or (isinstance(bid, int) and not isinstance(bid, bool)),
        "'bid' must be a whole number or null",
        field="bid",
    )
    if bidding is None:
        _need(
            landlord is not None and bid is not None,
            "a record without 'bidding' must give 'landlord' and 'bid'",
            field="landlord" if landlord is None else "bid",
        )
    plays_raw = obj["plays"]
    _need(isinstance(plays_raw, list), "'plays' must be a list of [seat, cards]", field="plays")
    plays: list[tuple[str, ...]] = []
    for i, turn in enumerate(plays_raw):
        _need(
            isinstance(turn, list)
            and len(turn) in (2, 3)
            and all(isinstance(x, str) for x in turn),
            f"plays[{i}] must be [seat, cards] or [seat, cards, reading], got {turn!r}",
            field="plays",
        )
        plays.append(tuple(turn))
    end = obj.get("end")
    if end is not None:
        _need(
            isinstance(end, Mapping)
            and len(end) == 1
            and next(iter(end)) in ("claim", "concede")
            and isinstance(next(iter(end.values())), str),
            '\'end\' must be null, {"claim": SEAT} or {"concede": SEAT}',
            field="end",
        )
        end = dict(end)
    declared = obj.get("declared")
    if declared is not None:
        _need(
            isinstance(declared, Mapping)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in declared.values()),
            "'declared' must map seats to whole-number scores",
            field="declared",
        )
        declared = dict(declared)
    dw = obj.get("declared_winner")
    _need(
        dw in (None, "landlord", "farmers"),
        "'declared_winner' must be 'landlord', 'farmers' or null",
        field="declared_winner",
    )
    extra = {k: v for k, v in obj.items() if k not in _KNOWN}
    aside = obj.get("aside")
    _need(
        aside is None or isinstance(aside, str), "'aside' must be card text or null", field="aside"
    )
    marked = obj.get("marked")
    _need(
        marked is None or isinstance(marked, str),
        "'marked' must be a suited card or null",
        field="marked",
    )
    return Record(
        aside=aside,
        marked=marked,
        id=obj.get("id"),
        rules=rules if isinstance(rules, str) else dict(rules),
        hands=dict(hands),
        bottom=bottom,
        first_bidder=first,
        bidding=bidding,
        landlord=landlord,
        bid=bid,
        plays=plays,
        end=end,
        declared=declared,
        declared_winner=dw,
        extra=extra,
    )


# ---------------------------------------------------------------------------------------------
# Text form


class RecordSyntaxError(RecordError):
    """A text record that cannot be read; names the line and column (both from 1)."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(f"line {line}, column {column}: {message}")
        self.line = line
        self.column = column


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _next_seat(seats: tuple[str, ...], seat: str | None) -> str | None:
    if seat is None or seat not in seats:
        return None
    return seats[(seats.index(seat) + 1) % len(seats)]


def _seats_of(rec_rules: Any) -> tuple[str, ...]:
    try:
        return RuleSet.from_spec(rec_rules).seats
    except ValueError:
        return ("S", "E", "W")


class _SeatGuide:
    """Infers whose turn each token is, as the writer and the reader both do."""

    def __init__(self, record_rules: Any, first_bidder: str | None, landlord: str | None):
        self.seats = _seats_of(record_rules)
        self.bidding: Any = None
        try:
            if first_bidder is not None:
                self.bidding = Bidding.start(RuleSet.from_spec(record_rules), first_bidder)
        except ValueError:
            self.bidding = None
        self.last_bid_seat: str | None = None
        self.landlord = landlord
        self.last_play_seat: str | None = None

    def bid_seat(self) -> str | None:
        if self.bidding is not None:
            if self.bidding.done:
                return self.bidding.landlord if self.bidding.optional_calls() else None
            return self.bidding.to_move  # type: ignore[no-any-return]
        return _next_seat(self.seats, self.last_bid_seat)

    def took_bid(self, seat: str, call: str) -> None:
        if self.bidding is not None:
            try:
                self.bidding = self.bidding.apply(seat, call)
            except ValueError:
                self.bidding = None
        self.last_bid_seat = seat

    def bidding_landlord(self) -> str | None:
        if self.bidding is not None and self.bidding.done:
            return self.bidding.landlord  # type: ignore[no-any-return]
        return None

    def play_seat(self) -> str | None:
        if self.last_play_seat is None:
            return self.landlord
        return _next_seat(self.seats, self.last_play_seat)

    def took_play(self, seat: str) -> None:
        self.last_play_seat = seat


def record_to_text(record: Record | Mapping[str, Any]) -> str:
    """The text form of a record (see the module docstring); ``record_from_text`` inverts it."""
    rec = record if isinstance(record, Record) else read_record(record)
    lines = []
    if rec.id is not None:
        lines.append(f"[Id {_quote(rec.id if isinstance(rec.id, str) else json.dumps(rec.id))}]")
        if not isinstance(rec.id, str):
            lines[-1] = f"[IdJson {_quote(json.dumps(rec.id))}]"
    rules = rec.rules if isinstance(rec.rules, str) else json.dumps(rec.rules, sort_keys=True)
    lines.append(f"[Rules {_quote(rules)}]")
    for seat, cards in rec.hands.items():
        lines.append(f"[{seat} {_quote(cards)}]")
    lines.append(f"[Bottom {_quote(rec.bottom)}]")
    if rec.first_bidder is not None:
        lines.append(f"[FirstBidder {_quote(rec.first_bidder)}]")
    if rec.landlord is not None:
        lines.append(f"[Landlord {_quote(rec.landlord)}]")
    if rec.bid is not None:
        lines.append(f"[Bid {_quote(str(rec.bid))}]")
    if rec.end is not None:
        kind, seat = next(iter(rec.end.items()))
        lines.append(f"[End {_quote(kind + ' ' + seat)}]")
    if rec.declared is not None:
        lines.append(
            "[Declared " + _quote(" ".join(f"{s}={v}" for s, v in rec.declared.items())) + "]"
        )
    if rec.declared_winner is not None:
        lines.append(f"[DeclaredWinner {_quote(rec.declared_winner)}]")
    if rec.aside is not None:
        lines.append(f"[Aside {_quote(rec.aside)}]")
    if rec.marked is not None:
        lines.append(f"[Marked {_quote(rec.marked)}]")
    if rec.extra:
        lines.append(f"[Extra {_quote(json.dumps(rec.extra, ensure_ascii=False))}]")
    lines.append("")
    guide = _SeatGuide(rec.rules, rec.first_bidder, rec.landlord)
    movetext: list[str] = []
    if rec.bidding is not None:
        tokens = []
        for seat, call in rec.bidding:
            word = "p" if call.strip().lower() == "pass" else call
            tok = word if guide.bid_seat() == seat else f"{seat}:{word}"
            tokens.append(tok)
            guide.took_bid(seat, call)
        tokens.append("*")
        movetext.append(" ".join(tokens))
        if rec.landlord is None:
            guide.landlord = guide.bidding_landlord()
    tokens = []
    for turn in rec.plays:
        seat, cards = turn[0], turn[1]
        tok = "p" if cards.strip().lower() == "pass" else cards.replace(" ", "")
        if tok == "":
            tok = '""'
        if len(turn) == 3:
            tok += "@" + turn[2]
        if guide.play_seat() != seat:
            tok = f"{seat}:{tok}"
        tokens.append(tok)
        guide.took_play(seat)
    for i in range(0, len(tokens), 12):
        movetext.append(" ".join(tokens[i : i + 12]))
    return "\n".join(lines + movetext) + "\n"


_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _tokens(text: str) -> Iterator[tuple[str, int, int]]:
    for lineno, line in enumerate(text.splitlines(), start=1):
        code = line.split(";", 1)[0]
        for m in re.finditer(r"\S+", code):
            yield m.group(0), lineno, m.start() + 1


def record_from_text(text: str) -> Record:
    """Read the text form (see the module docstring) into a ``Record``.

    Raises:
        RecordSyntaxError: with the line and column of the first thing it cannot read.
    """
    tags: dict[str, str] = {}
    body_lines: list[str] = []
    in_header = True
    for lineno, line in enumerate(text.splitlines(), start=1):
        code = line.split(";", 1)[0] if not line.lstrip().startswith("[") else line
        stripped = code.strip()
        if in_header and stripped.startswith("["):
            m = _TAG.fullmatch(stripped)
            if not m:
                col = line.index("[") + 1
                raise RecordSyntaxError('a tag pair is [Name "value"]', lineno, col)
            name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
            if name in tags:
                raise RecordSyntaxError(f"tag {name} given twice", lineno, line.index("[") + 1)
            tags[name] = value
            body_lines.append("")
            continue
        if stripped:
            in_header = False
        body_lines.append(line)
    seat_tags = [
        k
        for k in tags
        if k
        not in {
            "Id",
            "IdJson",
            "Rules",
            "Bottom",
            "FirstBidder",
            "Landlord",
            "Bid",
            "End",
            "Declared",
            "DeclaredWinner",
            "Aside",
            "Marked",
            "Extra",
        }
    ]
    for k in seat_tags:
        if not re.fullmatch(r"[A-Z][A-Z0-9]?", k):
            raise RecordSyntaxError(f"unknown tag {k}", _line_of(text, k), 1)
    rules: Any = tags.get("Rules", "classic")
    if rules.startswith("{"):
        rules = _tag_json(text, "Rules", rules)
    try:
        RuleSet.from_spec(rules)
    except ValueError as exc:
        raise RecordSyntaxError(f"Rules: {exc}", _line_of(text, "Rules"), 1) from None
    hands = {k: tags[k] for k in seat_tags}
    landlord = tags.get("Landlord")
    bid: int | None = None
    if "Bid" in tags:
        if not re.fullmatch(r"-?\d+", tags["Bid"]):
            raise RecordSyntaxError("Bid must be a whole number", _line_of(text, "Bid"), 1)
        bid = _tag_int(text, "Bid", tags["Bid"])
    end = None
    if "End" in tags:
        parts = tags["End"].split()
        if len(parts) != 2 or parts[0] not in ("claim", "concede"):
            raise RecordSyntaxError(
                'End is "claim SEAT" or "concede SEAT"', _line_of(text, "End"), 1
            )
        end = {parts[0]: parts[1]}
    declared = None
    if "Declared" in tags:
        declared = {}
        for item in tags["Declared"].split():
            m = re.fullmatch(r"([A-Z][A-Z0-9]?)=(-?\d+)", item)
            if not m:
                raise RecordSyntaxError(
                    f"Declared item {item!r} is not SEAT=score", _line_of(text, "Declared"), 1
                )
            declared[m.group(1)] = _tag_int(text, "Declared", m.group(2))
    extra = {}
    if "Extra" in tags:
        extra = _tag_json(text, "Extra", tags["Extra"])
        if not isinstance(extra, dict):
            raise RecordSyntaxError("Extra is a JSON object", _line_of(text, "Extra"), 1)
    rec_id: Any = tags.get("Id")
    if "IdJson" in tags:
        rec_id = _tag_json(text, "IdJson", tags["IdJson"])
    first = tags.get("FirstBidder")
    guide = _SeatGuide(rules, first, landlord)
    body = "\n".join(body_lines)
    toks = list(_tokens(body))
    bidding: list[tuple[str, str]] | None = None
    star = [i for i, (t, _, _) in enumerate(toks) if t == "*"]
    if len(star) > 1:
        _, ln, col = toks[star[1]]
        raise RecordSyntaxError("a second '*' (the bidding ends once)", ln, col)
    start = 0
    if star:
        bidding = []
        for tok, ln, col in toks[: star[0]]:
            seat, word = _split_seat(tok, ln, col)
            seat = seat or guide.bid_seat()
            if seat is None:
                raise RecordSyntaxError(f"whose call is {word!r}? write SEAT:{word}", ln, col)
            bidding.append((seat, "pass" if word.lower() == "p" else word))
            guide.took_bid(seat, bidding[-1][1])
        start = star[0] + 1
        if landlord is None:
            guide.landlord = guide.bidding_landlord()
    elif landlord is None or bid is None:
        where = toks[0][1] if toks else max(len(text.splitlines()), 1)
        raise RecordSyntaxError(
            "no bidding ('*' after the calls) and no Landlord and Bid tags", where, 1
        )
    plays: list[tuple[str, ...]] = []
    for tok, ln, col in toks[start:]:
        seat, word = _split_seat(tok, ln, col)
        seat = seat or guide.play_seat()
        if seat is None:
            raise RecordSyntaxError(f"whose turn is {word!r}? write SEAT:{word}", ln, col)
        reading = None
        if "@" in word:
            word, reading = word.split("@", 1)
            if not re.fullmatch(r"[a-z_]+", reading):
                raise RecordSyntaxError(f"bad reading {reading!r}", ln, col + len(word) + 1)
        cards = "pass" if word.lower() == "p" else ("" if word == '""' else word)
        plays.append((seat, cards) if reading is None else (seat, cards, reading))
        guide.took_play(seat)
    return Record(
        id=rec_id,
        rules=rules,
        hands=hands,
        bottom=tags.get("Bottom", ""),
        first_bidder=first,
        bidding=bidding,
        landlord=landlord,
        bid=bid,
        plays=plays,
        end=end,
        declared=declared,
        declared_winner=tags.get("DeclaredWinner"),
        extra=extra,
        aside=tags.get("Aside"),
        marked=tags.get("Marked"),
    )


def _tag_json(text: str, tag: str, value: str) -> Any:
    try:
        return parse_json(value)
    except RecordError as exc:
        raise RecordSyntaxError(f"{tag}: {exc}", _line_of(text, tag), 1) from None


def _tag_int(text: str, tag: str, digits: str) -> int:
    try:
        return int(digits)
    except ValueError:
        # Only a number longer than Python converts (sys.get_int_max_str_digits()).
        raise RecordSyntaxError(
            f"{tag}: a number of more than {sys.get_int_max_str_digits()} digits",
            _line_of(text, tag),
            1,
        ) from None


def _split_seat(tok: str, line: int, col: int) -> tuple[str | None, str]:
    if ":" in tok:
        seat, word = tok.split(":", 1)
        if not re.fullmatch(r"[A-Z][A-Z0-9]?", seat) or not word:
            raise RecordSyntaxError(f"{tok!r}: a seat prefix is SEAT:token", line, col)
        return seat, word
    return None, tok


def _line_of(text: str, tag: str) -> int:
    for i, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("[" + tag):
            return i
    return 1
