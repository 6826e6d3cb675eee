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

from ddz_site.kernel.errors import DomainError
from games import offline
from games.engine import (
    Bidding,
    EngineError,
    GameState,
    IllegalBidError,
    NotationError,
    RuleSet,
    parse_cards,
    replay,
)
from games.engine.replay import marked_landlords
from games.messages import (
    call_label,
    error_message,
    error_sentence,
    status_label,
    stored_error_message,
)
from games.notation import rank_cards

LOW_CARDS = 2  # seed 002: a player with two or fewer cards left must say so; the page marks it
# A live view answers at once whatever was claimed (R-CLAIM): its claim search gives up after
# this long and the claim shows as undecided; the workers' verification of the stored game
# decides it with the engine's full budget, whatever the machine's speed.
LIVE_CLAIM_SECONDS = 0.08
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
    bid, winner, doubles, bombs, rockets, spring; None for a step), ``error_code`` and
    ``params`` (the engine error's code and parameters, games.engine.errors.ERROR_CODES; None
    and empty when the refusal is not the engine's), ``others`` (a quick result's other
    refused claims, each an EntryError with its field).
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
        error_code: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.index = index
        self.seat = seat
        self.cards = cards
        self.detail = detail
        self.field = field
        self.error_code = error_code
        self.params = dict(params or {})
        # A quick result's other refused claims (games.quick_result.quick_problems).
        self.others: list[EntryError] = []

    @property
    def fields(self) -> dict[str, list[str]] | None:
        """The fields of a quick result this error and its ``others`` are about, as
        ``{field: [message]}`` (the API's error shape; None for a step)."""
        if not self.field:
            return None
        out: dict[str, list[str]] = {}
        for error in [self, *self.others]:
            if error.field:
                out.setdefault(error.field, []).append(error.message)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "rule": self.rule,
            "index": self.index,
            "seat": self.seat,
            "cards": self.cards,
            "detail": self.detail,
            "error_code": self.error_code,
            "params": self.params,
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
    suited_bottom: str = ""  # the bottom as the board holds it (suited when the board is)

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
            suited_bottom=board.bottom or "",
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


def _open_play(position: Position) -> tuple[str, str]:
    game = position.game
    if game is None:
        return "", ""
    for seat, text in reversed(game.plays):
        if text != "pass":
            return seat, text
    return "", ""


def open_play(position: Position) -> dict[str, str] | None:
    """The play to beat: ``{"seat", "cards"}`` of the trick's last play while a trick is open,
    None while a seat leads (or before the play)."""
    owner, last = _open_play(position)
    if position.game is None or position.game.leading or not last:
        return None
    return {"seat": owner, "cards": last}


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


def view(position: Position, *, leads: bool = False) -> dict[str, Any]:
    """The position as JSON for the page and the API.

    Shape: ``{"steps", "phase": "bidding"|"play"|"done", "to_move", "seats", "first_bidder",
    "landlord", "bid", "calls": [[seat, call]], "plays": [[seat, cards]], "allowed":
    [{"call", "label"}], "hands": {seat: cards}, "counts": {seat: n}, "low": [seat],
    "bottom", "open": {"seat", "cards"} | null, "result": {...} | null, "offline": {...}}``;
    ``result`` (when done) is the engine's replay: status, winner, score per seat, multiplier,
    bid, bombs, rockets, spring, anti_spring, error; ``offline`` the hints of games.offline
    (`leads`: with every seat's combinations, as a page opening needs them).
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
    result = None
    if position.finished:
        result = replay(to_record(position), claim_seconds=LIVE_CLAIM_SECONDS).to_dict()
        result.pop("id", None)
        result["status_label"] = status_label(str(result.get("status")))
        if result.get("error"):
            # The engine's error (a claim not proven, R-CLAIM) in the referee's language.
            result["error"]["text"] = stored_error_message(
                result["error"],
                status=str(result.get("status")),
                record=to_record(position),
                landlord=result.get("landlord"),
                winner=result.get("winner"),
                score=result.get("score"),
            )
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
        "open": open_play(position),
        "end": position.end,
        "result": result,
        # What the page needs to check steps while the network is down (games.offline).
        "offline": offline.hints(position, leads=leads),
    }


def render_error(exc: EngineError, *, position: Position, index: int, text: str) -> EntryError:
    """The engine's error as a referee reads it: a sentence in the active language built from
    the error's rule, seat and cards, the engine's English message kept as ``detail``."""
    rule = exc.rule or ""
    seat = exc.seat or position.to_move or ""
    coded = error_message(exc.code, exc.params) if exc.code != "engine.error" else None
    if coded is not None:
        message = coded
    elif isinstance(exc, NotationError):
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
        message,
        rule=rule or None,
        index=index,
        seat=seat,
        cards=text,
        detail=exc.message,
        error_code=exc.code,
        params=exc.params,
    )
