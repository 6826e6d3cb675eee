"""Live entry of a game at a table: each step checked by the engine as it is entered.

Vocabulary:

- *step*: one token a referee types or taps, in the order of the game: first the bidding
  calls (``1``, ``p``, ``call``, ``rob``, ``double`` … and their Chinese words: 叫地主,
  抢地主, 加倍, 不叫), then, once the landlord is known, the landlord's optional calls
  (``show``, ``surrender``, ``reveal``) before the first lead, then one turn per step: cards in
  any R-NOTE alias (``10``, ``x``/``d`` or 小王/大王 for the jokers, lower case, separators) or a
  pass (``p``, ``pass``, ``-``, 不要, 过, 不出), optionally ``@type`` to declare an ambiguous
  play's reading (R-AMBIG); a ``claim`` or ``concede`` by the seat to move ends the play
  (R-CLAIM). The seat of a step is always the seat to move: the engine says whose turn it is.
- *position*: the bidding (games.engine.Bidding) and the play (games.engine.GameState) after
  the steps so far, rebuilt from the deal and the steps on every request, so that the page
  holds nothing the engine has not checked.
- *view*: the position as plain JSON for the page and the API: phase, seat to move, the calls
  and plays, each seat's remaining cards and count (seats with two or fewer cards are *low*,
  the warning of seed 002), the allowed calls, and at the end the engine's verdict and score.
- *quick result*: the fallback when the plays were not followed (games.quick_result).

Errors: `EntryError` (a DomainError) carries the engine's rule id, the step index, seat and
cards, the engine's English message, and `message`, rendered for a referee in the active
language (English or Simplified Chinese) from those attributes.

Seats come from the event's rules (RuleSet.seats), so tables of two, four and five players
enter the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from ddz_site.errors import DomainError
from games.deals import rank_cards
from games.engine import (
    Bidding,
    EngineError,
    GameState,
    IllegalBidError,
    NotationError,
    RuleSet,
    format_cards,
    parse_cards,
    replay,
)
from games.engine.replay import marked_landlords

LOW_CARDS = 2  # seed 002: a player with two or fewer cards left must say so; the page marks it
MAX_STEPS = 400

# Chinese words referees say at the table, mapped to the record's calls (RECORDS.md §1).
CALL_ALIASES = {
    "叫地主": "call",
    "叫": "call",
    "抢地主": "rob",
    "抢": "rob",
    "加倍": "double",
    "再加倍": "redouble",
    "反加倍": "redouble",
    "明牌": "show",
    "投降": "surrender",
    "认输": "surrender",
    "亮牌": "reveal",
    "1分": "1",
    "2分": "2",
    "3分": "3",
    "一分": "1",
    "二分": "2",
    "两分": "2",
    "三分": "3",
}
END_WORDS = {"claim": "claim", "摊牌": "claim", "concede": "concede", "认负": "concede"}


class EntryError(DomainError):
    """A step the engine refuses (or a quick result that cannot have happened).

    Attributes: ``message`` (for the referee, in the active language), ``rule`` (R-…),
    ``index`` (0-based step index, None for a quick result), ``seat``, ``cards``, ``detail``
    (the engine's English message), ``field`` (the quick result's field at fault: landlord,
    bid, winner, doubles, bombs, rockets, spring; None for a step).
    """

    code = "illegal"

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        index: int | None = None,
        seat: str | None = None,
        cards: str | None = None,
        detail: str = "",
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.index = index
        self.seat = seat
        self.cards = cards
        self.detail = detail
        self.field = field

    @property
    def fields(self) -> dict[str, list[str]] | None:
        """The field of a quick result this error is about, as ``{field: [message]}`` (the
        API's error shape; None for a step)."""
        return {self.field: [self.message]} if self.field else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "rule": self.rule,
            "index": self.index,
            "seat": self.seat,
            "cards": self.cards,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class EntryDeal:
    """What the entry needs of a board: rules, rank-only hands, bottom, first bidder, and the
    five-player marked card (R-5P) with the suited hands it is looked up in."""

    rules: RuleSet
    hands: Mapping[str, str]
    bottom: str
    first_bidder: str
    suited_hands: Mapping[str, str] = field(default_factory=dict)
    marked: str = ""
    aside: str = ""

    @classmethod
    def from_board(cls, board: Any) -> EntryDeal:
        """The entry deal of a games.models.Board under its event's rules (classic when the
        event has none)."""
        rules = RuleSet.from_spec(board.event.rules or "classic")
        hands = {seat: rank_cards(board.hands.get(seat, "")) for seat in rules.seats}
        first = board.first_bidder or rules.seats[0]
        marked = getattr(board, "marked", "") or ""
        if rules.family == "five" and marked:
            # R-5P: the holder of the marked card speaks first, whatever the board says.
            first = marked_landlords(rules, board.hands, marked)[0]
        return cls(
            rules=rules,
            hands=hands,
            bottom=rank_cards(board.bottom),
            first_bidder=first,
            suited_hands=dict(board.hands),
            marked=getattr(board, "marked", "") or "",
            aside=rank_cards(getattr(board, "aside", "") or ""),
        )

    def partner(self) -> str | None:
        """The five-player hidden landlord (R-5P), None elsewhere."""
        if self.rules.family != "five" or not self.marked:
            return None
        return marked_landlords(self.rules, self.suited_hands, self.marked)[1]


@dataclass(frozen=True)
class Position:
    """The game after some steps: ``bidding``, ``game`` (None until the play starts), ``end``
    (a claim or concession ``{"claim": seat}``), and the ``steps`` themselves."""

    deal: EntryDeal
    steps: tuple[str, ...]
    bidding: Bidding
    game: GameState | None
    end: dict[str, str] | None = None

    @property
    def finished(self) -> bool:
        b = self.bidding
        if b.done and (b.passed_out or b.surrendered):
            return True
        return self.end is not None or (self.game is not None and self.game.finished)

    @property
    def phase(self) -> str:
        if self.finished:
            return "done"
        return "play" if self.bidding.done else "bidding"

    @property
    def to_move(self) -> str | None:
        if self.finished:
            return None
        if not self.bidding.done:
            return self.bidding.to_move
        assert self.game is not None
        return self.game.to_move


def _word(step: str) -> str:
    text = str(step).strip()
    return CALL_ALIASES.get(text, text)


def start(deal: EntryDeal) -> Position:
    """The position before the first call."""
    bidding = Bidding.start(deal.rules, deal.first_bidder, partner=deal.partner())
    return Position(deal=deal, steps=(), bidding=bidding, game=None)


def apply_step(position: Position, step: str) -> Position:
    """The position after one more step (see the module docstring for what a step is).

    Raises:
        EntryError: the engine refuses the step (R-BID-*, R-DOUBLE-ORDER, R-LEAD, R-VERIFY,
            R-T…, R-KICK, R-CMP, R-AMBIG, R-END, R-NOTE …); rendered for the referee.
    """
    index = len(position.steps)
    text = str(step).strip()
    seat = position.to_move
    if position.finished:
        raise EntryError(
            _("The game is over: no step may follow."), rule="R-END", index=index, cards=text
        )
    if not text or len(text) > 60 or index >= MAX_STEPS:
        raise EntryError(_("Type a call or the cards of a turn."), index=index, seat=seat)
    bidding, game = position.bidding, position.game
    steps = (*position.steps, text)
    try:
        if not bidding.done:
            bidding = bidding.apply(seat or "", _word(text))
            game = None
            if bidding.done and not bidding.passed_out and not bidding.surrendered:
                game = _start_play(position.deal, bidding)
            return Position(deal=position.deal, steps=steps, bidding=bidding, game=game)
        assert game is not None
        word = _word(text).lower()
        if not game.plays and word in bidding.optional_calls():
            # Show, surrender, reveal: the landlord's calls before the first lead.
            bidding = bidding.apply(bidding.landlord or "", word)
            game = _start_play(position.deal, bidding)
            return Position(deal=position.deal, steps=steps, bidding=bidding, game=game)
        if _word(text) in END_WORDS:
            end = {END_WORDS[_word(text)]: seat or ""}
            return Position(deal=position.deal, steps=steps, bidding=bidding, game=game, end=end)
        cards, _sep, reading = text.partition("@")
        game = game.apply(seat or "", cards.strip(), reading.strip() or None)
        return Position(deal=position.deal, steps=steps, bidding=bidding, game=game)
    except EngineError as exc:
        raise render_error(exc, position=position, index=index, text=text) from None


def _start_play(deal: EntryDeal, bidding: Bidding) -> GameState:
    return GameState.start(
        deal.rules, dict(deal.hands), deal.bottom, bidding.landlord or "", deal.partner()
    )


def rebuild(deal: EntryDeal, steps: Sequence[str]) -> Position:
    """The position after ``steps`` from the deal.

    Raises:
        EntryError: the first step the engine refuses (its ``index`` says which).
    """
    if not isinstance(steps, (list, tuple)) or not all(isinstance(s, str) for s in steps):
        raise EntryError(_("The steps must be a list of texts."))
    if len(steps) > MAX_STEPS:
        raise EntryError(_("A game has at most %(n)s steps.") % {"n": MAX_STEPS})
    position = start(deal)
    for step in steps:
        position = apply_step(position, step)
    return position


# -- rendering ----------------------------------------------------------------------------------


def call_label(call: str) -> str:
    """A call as a referee reads it in the active language."""
    labels = {
        "pass": _("pass"),
        "call": _("call the landlord"),
        "rob": _("rob the landlord"),
        "double": _("double"),
        "redouble": _("redouble"),
        "show": _("show the hand"),
        "surrender": _("surrender"),
        "reveal": _("reveal"),
    }
    if call in labels:
        return labels[call]
    if call.isdigit():
        return _("bid %(n)s") % {"n": call}
    return call


def render_error(exc: EngineError, *, position: Position, index: int, text: str) -> EntryError:
    """The engine's error as a referee reads it: a sentence in the active language built from
    the error's rule, seat and cards, the engine's English message kept as ``detail``."""
    rule = exc.rule or ""
    seat = exc.seat or position.to_move or ""
    if isinstance(exc, NotationError):
        message = error_sentence(
            rule, seat=seat, cards=text, char=exc.char, char_position=exc.position
        )
    elif isinstance(exc, IllegalBidError) or not position.bidding.done:
        allowed = None
        if not position.bidding.done:
            allowed = ", ".join(call_label(c) for c in position.bidding.legal_calls())
        message = error_sentence(rule, seat=seat, cards=text, stage="bidding", allowed=allowed)
    else:
        hand = (position.game.hands.get(seat, "") or "—") if position.game else "—"
        owner, last = _open_play(position)
        message = error_sentence(
            rule, seat=seat, cards=text, stage="play", hand=hand, last=last, owner=owner
        )
    return EntryError(
        message, rule=rule or None, index=index, seat=seat, cards=text, detail=exc.message
    )


def error_sentence(
    rule: str,
    *,
    seat: str,
    cards: str,
    stage: str = "play",
    char: str | None = None,
    char_position: int | None = None,
    allowed: str | None = None,
    hand: str | None = None,
    last: str | None = None,
    owner: str | None = None,
) -> str:
    """One refused call or play as a sentence in the active language, from the attributes of
    the engine's error: its rule id (R-…), seat, cards and stage (``bidding`` or ``play``).

    The optional context makes it precise where known: ``char``/``char_position`` of a
    notation error, ``allowed`` (the calls allowed, already in words), ``hand`` (the cards
    the seat still held, R-VERIFY), ``last`` and ``owner`` (the play to beat, R-CMP).
    Used for live entry (render_error) and for a stored game's error (stored_error_message).
    """
    params = {"seat": seat, "cards": cards, "rule": rule}
    if char is not None:
        return _(
            "%(cards)s is not card notation: the character “%(char)s” at position "
            "%(position)s is not a card."
        ) % {**params, "char": char, "position": char_position}
    if stage == "bidding":
        if allowed is None:
            return _("%(seat)s cannot call %(cards)s now.") % params
        return _("%(seat)s cannot call %(cards)s now; allowed: %(allowed)s.") % {
            **params,
            "allowed": allowed,
        }
    if rule == "R-LEAD":
        return _("%(seat)s leads this trick and must play cards: a pass is not allowed.") % params
    if rule == "R-VERIFY":
        if hand is None:
            return _("%(seat)s does not hold %(cards)s.") % params
        return _("%(seat)s does not hold %(cards)s (holds %(hand)s).") % {**params, "hand": hand}
    if rule == "R-CMP":
        if not last:
            return _("%(cards)s does not beat the play before it.") % params
        return _("%(cards)s does not beat %(last)s played by %(owner)s.") % {
            **params,
            "last": last,
            "owner": owner,
        }
    if rule == "R-AMBIG":
        return _("%(cards)s cannot be read that way.") % params
    if rule == "R-END":
        return _("The game is over: no step may follow.")
    if rule == "R-PASSOUT":
        return _("The deal was passed out: no card may be played.")
    if rule == "R-SURRENDER":
        return _("The landlord surrendered: no card may be played.")
    if rule.startswith(("R-T", "R-KICK", "R-MAX", "R-4W2", "R-SHUTTLE", "R-4P", "R-5P", "R-2P")):
        return _("%(cards)s is not a combination allowed by these rules.") % params
    return _("%(seat)s: %(cards)s is refused.") % params


def stored_error_message(
    error: Mapping[str, Any],
    *,
    status: str,
    record: Mapping[str, Any],
    landlord: str | None = None,
    winner: str | None = None,
    declared: Mapping[str, Any] | None = None,
    score: Mapping[str, Any] | None = None,
) -> str:
    """The error the verification stored for a game (its ``error``: stage, index, seat,
    cards, rule, message in English) as a sentence in the active language.

    `status` is the game's (``incomplete``, ``flagged`` and ``mismatch`` have their own
    sentences), `record` the stored record (the hand held and the play to beat are read from
    it), `landlord`/`winner`/`declared`/`score` what the engine found and the record declared.
    """
    rule = str(error.get("rule") or "")
    seat = str(error.get("seat") or "")
    cards = str(error.get("cards") or "")
    stage = str(error.get("stage") or "")
    if status == "incomplete":
        return _("The record stops before any seat is out and has no claim or concession.")
    if status == "flagged":
        return _("%(seat)s's claim is not proven by the engine's search: the referee decides.") % {
            "seat": seat or "—"
        }
    if stage == "result":
        if rule == "R-END":
            return _(
                "The record declares the winner: %(declared)s; the engine finds: %(winner)s."
            ) % {
                "declared": _winner_word(record.get("declared_winner")),
                "winner": _winner_word(winner),
            }
        return _("The record declares %(declared)s; the engine scores %(score)s.") % {
            "declared": _scores(declared),
            "score": _scores(score),
        }
    if stage == "deal":
        if cards:
            return _("The deal is not valid (%(rule)s): %(cards)s.") % {
                "rule": rule,
                "cards": cards,
            }
        return _("The deal is not valid (%(rule)s).") % {"rule": rule}
    if stage == "bidding":
        return error_sentence(rule, seat=seat, cards=call_label(cards), stage="bidding")
    index = error.get("index")
    plays = [p for p in record.get("plays") or [] if isinstance(p, list) and len(p) >= 2]
    before = plays[: index if isinstance(index, int) else len(plays)]
    owner, last = next(
        ((str(p[0]), str(p[1])) for p in reversed(before) if p[1] != "pass"), ("", "")
    )
    return error_sentence(
        rule,
        seat=seat,
        cards=cards,
        stage="play",
        hand=_hand_before(record, seat, landlord, before),
        last=last,
        owner=owner,
    )


def _winner_word(side: object) -> str:
    return {"landlord": _("landlord"), "farmers": _("farmers")}.get(str(side or ""), "—")


_SEAT_ORDER = ("S", "E", "N", "W", "P1", "P2", "P3", "P4", "P5")  # RuleSet.seats' orders


def _scores(score: Mapping[str, Any] | None) -> str:
    """{'W': -1, 'S': 2, 'E': -1} → 'S +2, E -1, W -1' (seats in table order)."""
    rank = {seat: i for i, seat in enumerate(_SEAT_ORDER)}
    items = sorted((score or {}).items(), key=lambda kv: rank.get(kv[0], len(rank)))
    return ", ".join(f"{seat} {_signed(value)}" for seat, value in items) or "—"


def _signed(value: object) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)


def _hand_before(
    record: Mapping[str, Any], seat: str, landlord: str | None, plays: Sequence[Sequence[Any]]
) -> str | None:
    """The cards `seat` held before the faulty play (None when the record cannot tell)."""
    hands = record.get("hands")
    if not seat or not isinstance(hands, Mapping) or seat not in hands:
        return None
    try:
        held = list(parse_cards(rank_cards(str(hands[seat]))))
        if seat == landlord:
            bottom = parse_cards(rank_cards(str(record.get("bottom") or "")))
            held = [a + b for a, b in zip(held, bottom, strict=True)]
        for who, cards in plays:
            if who == seat and cards != "pass":
                held = [a - b for a, b in zip(held, parse_cards(str(cards)), strict=True)]
    except (EngineError, ValueError):
        return None
    if min(held) < 0:
        return None
    return format_cards(tuple(held)) or "—"


def _open_play(position: Position) -> tuple[str, str]:
    game = position.game
    if game is None:
        return "", ""
    for seat, text in reversed(game.plays):
        if text != "pass":
            return seat, text
    return "", ""


def table_record_id(table: Any, board: Any) -> str:
    """The id of the game entered at a games Table for a Board (live entry, quick result):
    ``R<round>-B<board>-T<table>``."""
    return f"R{table.round.number}-B{board.number}-T{table.number}"


def to_record(position: Position, *, record_id: str = "") -> dict[str, Any]:
    """The RECORDS.md §1 record of the steps so far (no declared score: the engine scores)."""
    deal = position.deal
    record: dict[str, Any] = {
        "id": record_id,
        "rules": deal.rules.to_spec(),
        "hands": dict(deal.hands),
        "bottom": deal.bottom,
        "first_bidder": deal.first_bidder,
        "bidding": [[s, c] for s, c in position.bidding.calls],
        "plays": [[s, c] for s, c in position.game.plays] if position.game else [],
        "end": position.end,
    }
    if deal.aside:
        record["aside"] = deal.aside
    if deal.marked:
        record["marked"] = deal.marked
        record["hands"] = dict(deal.suited_hands)
    return record


def view(position: Position) -> dict[str, Any]:
    """The position as JSON for the page and the API.

    Shape: ``{"steps", "phase": "bidding"|"play"|"done", "to_move", "seats", "first_bidder",
    "landlord", "bid", "calls": [[seat, call]], "plays": [[seat, cards]], "allowed":
    [{"call", "label"}], "hands": {seat: cards}, "counts": {seat: n}, "low": [seat],
    "bottom", "open": {"seat", "cards"} | null, "result": {...} | null}``; ``result`` (when
    done) is the engine's replay: status, winner, score per seat, multiplier, bid, bombs,
    rockets, spring, anti_spring, error.
    """
    deal, bidding, game = position.deal, position.bidding, position.game
    seats = list(deal.rules.seats)
    hands = game.hands if game is not None else {s: deal.hands[s] for s in seats}
    counts = {s: sum(parse_cards(hands[s])) if hands[s] else 0 for s in seats}
    allowed: list[str] = []
    if position.phase == "bidding":
        allowed = bidding.legal_calls()
    elif position.phase == "play" and game is not None and not game.plays:
        allowed = bidding.optional_calls()
    owner, last = _open_play(position)
    open_play = None
    if game is not None and not game.leading and last:
        open_play = {"seat": owner, "cards": last}
    result = None
    if position.finished:
        result = replay(to_record(position)).to_dict()
        result.pop("id", None)
    return {
        "steps": list(position.steps),
        "phase": position.phase,
        "to_move": position.to_move,
        "seats": seats,
        "first_bidder": deal.first_bidder,
        "landlord": bidding.landlord if bidding.done and not bidding.passed_out else None,
        "bid": bidding.bid,
        "calls": [[s, c] for s, c in bidding.calls],
        "plays": [[s, c] for s, c in game.plays] if game else [],
        "allowed": [{"call": c, "label": call_label(c)} for c in allowed],
        "hands": hands,
        "counts": counts,
        "low": [s for s in seats if game is not None and 0 < counts[s] <= LOW_CARDS],
        "bottom": deal.bottom,
        "open": open_play,
        "end": position.end,
        "result": result,
    }


# -- quick result -------------------------------------------------------------------------------
