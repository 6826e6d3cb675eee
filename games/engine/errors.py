"""Errors raised by the rules engine.

Every error is a ``ValueError`` and carries what a referee needs to find the fault: the stage of
the game (``deal``, ``bidding``, ``play``, ``result``), the 0-based index into that stage's list,
the seat, the cards or call as written, the rule id of RULES.md (``R-…``), a message in
English, and a stable ``code`` with its ``params`` (plain JSON values: texts, numbers, lists
of texts). Callers render them in any language from the code and its parameters; the codes
and the names of their parameters are listed in ``ERROR_CODES`` (every code the engine raises
is one of them, and the Django layer has a sentence for each in every language it speaks).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ERROR_CODES",
    "EngineError",
    "NotationError",
    "IllegalPlayError",
    "IllegalBidError",
    "DealError",
    "RulesError",
    "RecordError",
    "NumberTooLargeError",
]


# Every code an engine error may carry, with the names of its parameters. A code names one
# kind of fault and never changes meaning; a new fault gets a new code.
ERROR_CODES: dict[str, tuple[str, ...]] = {
    # generic, for the command line's own faults (not UTF-8, a bad batch line)
    "engine.error": (),
    # R-NOTE: notation
    "notation.bad_char": ("text", "position", "char"),
    "notation.no_cards": ("text",),
    "notation.bad_suited": ("text", "position", "char"),
    # R-DEAL, R-DECK, R-SUIT, R-2P, R-5P, R-SEAT: the deal
    "deal.too_many_of_rank": ("over",),
    "deal.seats": ("seats", "given"),
    "deal.hand_size": ("seat", "n", "size"),
    "deal.bottom_size": ("n", "size"),
    "deal.aside_size": ("n", "size"),
    "deal.not_the_deck": ("extra", "missing"),
    "deal.deck_letter": ("card",),
    "deal.dealt_twice": ("card",),
    "deal.marked_card": ("card",),
    "deal.marked_unsuited": ("seat",),
    "deal.marked_nobody": ("card",),
    "deal.marked_missing": (),
    # R-BID-…, R-DOUBLE-ORDER, R-SURRENDER, R-PASSOUT, R-SEAT: the bidding
    "bid.first_bidder": ("seat", "seats"),
    "bid.passed_out": ("seat", "call"),
    "bid.landlord_only": ("seat", "call"),
    "bid.over": ("seat", "call"),
    "bid.wrong_turn": ("seat", "call", "expected"),
    "bid.not_allowed": ("seat", "call", "allowed"),
    "bid.incomplete": ("seat", "allowed"),
    "bid.no_first_bidder": (),
    "bid.landlord_not_seat": ("landlord",),
    "bid.impossible": ("bid",),
    "bid.not_marked_landlord": ("landlord", "marked"),
    # R-LEAD, R-VERIFY, R-CMP, R-AMBIG, R-END, R-PASSOUT, R-SURRENDER, R-SEAT: the play
    "play.landlord_not_seat": ("landlord",),
    "play.partner_not_seat": ("partner",),
    "play.after_end": ("seat", "cards", "winner"),
    "play.wrong_turn": ("seat", "cards", "expected"),
    "play.must_lead": ("seat",),
    "play.not_held": ("seat", "cards", "hand"),
    "play.unknown_reading": ("seat", "cards", "reading"),
    "play.reading_impossible": ("seat", "cards", "reading", "readings"),
    "play.does_not_beat": ("seat", "cards", "owner", "last"),
    "play.passed_out": ("seat", "cards"),
    "play.surrendered": ("seat", "cards"),
    "play.end_after_out": ("seat", "kind"),
    "play.incomplete": ("seat",),
    "play.previous_pass": ("cards",),
    # R-MAX, R-DECK, R-T…, R-KICK, R-4P, R-5P: a card set that is no combination
    "combo.too_many": ("cards", "n", "max"),
    "combo.over_the_deck": ("cards", "decks"),
    "combo.jokers_four": ("cards",),
    "combo.jokers_five": ("cards",),
    "combo.not_a_pair": ("cards",),
    "combo.joker_as_dealt": ("cards", "joker"),
    "combo.two_decks_trio": ("cards",),
    "combo.kickers": ("cards",),
    "combo.chain_of_pairs": ("cards",),
    "combo.chain_of_solos": ("cards",),
    # R-CLAIM
    "claim.not_seat": ("seat", "kind"),
    "claim.refuted": ("seat", "side"),
    "claim.gave_up": ("seat", "side", "budget"),
    # R-VERIFY, R-END: the declared result
    "result.score": ("declared", "score"),
    "result.winner": ("declared", "winner"),
    # R-REC, RULES.md §7: not a record, or rules that cannot be
    "record.invalid": (),
    "record.not_object": (),
    "record.missing_field": ("field",),
    "record.bad_field": ("field",),
    "record.not_json": (),
    "record.nested_too_deeply": (),
    "record.number_too_long": ("digits",),
    "record.number_too_large": (),
    "rules.invalid": (),
    "rules.option_unknown": ("option", "options"),
    "rules.option_bool": ("option", "value"),
    "rules.option_whole": ("option", "value"),
    "rules.option_at_least": ("option", "low", "value"),
    "rules.option_at_most": ("option", "high", "value"),
    "rules.option_choice": ("option", "choices", "value"),
    "rules.preset_unknown": ("preset", "presets"),
    "rules.preset_fixed": ("preset",),
    "rules.table_size": ("bidding", "scoring", "preset"),
}


class EngineError(ValueError):
    """Base of every engine error.

    Attributes: ``message`` (str), ``rule`` (an R-… id or None), ``stage``, ``index``, ``seat``,
    ``cards`` (each None where it does not apply), ``code`` (a key of ERROR_CODES) and
    ``params`` (a dict of its parameters: JSON values).
    """

    default_rule: str | None = None
    default_code: str = "engine.error"

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        stage: str | None = None,
        index: int | None = None,
        seat: str | None = None,
        cards: str | None = None,
        code: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule if rule is not None else self.default_rule
        self.stage = stage
        self.index = index
        self.seat = seat
        self.cards = cards
        self.code = code if code is not None else self.default_code
        self.params = dict(params or {})

    def located(self, *, stage: str, index: int | None, seat: str | None) -> EngineError:
        """Return this error with its place in a record filled in (used by replay)."""
        self.stage = stage
        self.index = index
        if seat is not None:
            self.seat = seat
        return self

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of RECORDS.md §2: stage, index, seat, cards, rule, message,
        code, params."""
        return {
            "stage": self.stage,
            "index": self.index,
            "seat": self.seat,
            "cards": self.cards,
            "rule": self.rule,
            "message": self.message,
            "code": self.code,
            "params": self.params,
        }

    def __str__(self) -> str:
        return self.message


class NotationError(EngineError):
    """Text that is not card notation (R-NOTE); names the bad character and its 1-based position."""

    default_rule = "R-NOTE"

    def __init__(
        self, text: str, position: int, char: str, *, what: str = "cards", code: str | None = None
    ) -> None:
        super().__init__(
            f"bad character {char!r} at position {position} in {what} {text!r}",
            cards=text,
            code=code or "notation.bad_char",
            params={"text": text, "position": position, "char": char},
        )
        self.text = text
        self.position = position
        self.char = char


class IllegalPlayError(EngineError):
    """A play or pass the rules forbid at this point (R-LEAD, R-TRICK, R-CMP, R-END, …)."""


class IllegalBidError(EngineError):
    """A bidding call the bidding system forbids at this point (R-BID-…, R-DOUBLE-ORDER)."""


class DealError(EngineError):
    """A deal that is not exactly the deck, split as the table size requires (R-DECK, R-DEAL)."""

    default_rule = "R-DECK"
    default_code = "deal.not_the_deck"


class RulesError(EngineError):
    """An unknown preset or option, or an impossible option value (RULES.md §7)."""

    default_rule = "R-REC"
    default_code = "rules.invalid"


class RecordError(EngineError):
    """An object that is not a game record at all (RECORDS.md §1): missing or mistyped fields."""

    default_rule = "R-REC"
    default_code = "record.invalid"


class NumberTooLargeError(RecordError):
    """JSON text with a number too large for a float (``1e400``) or with more digits than
    Python converts (record.parse_json): readers say so apart from other bad JSON."""
