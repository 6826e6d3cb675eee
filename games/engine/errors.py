"""Errors raised by the rules engine.

Every error is a ``ValueError`` and carries what a referee needs to find the fault: the stage of
the game (``deal``, ``bidding``, ``play``, ``result``), the 0-based index into that stage's list,
the seat, the cards or call as written, the rule id of RULES.md (``R-…``) and a message in
English. Callers render them in any language from the attributes.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "EngineError",
    "NotationError",
    "IllegalPlayError",
    "IllegalBidError",
    "DealError",
    "RulesError",
    "RecordError",
]


class EngineError(ValueError):
    """Base of every engine error.

    Attributes: ``message`` (str), ``rule`` (an R-… id or None), ``stage``, ``index``, ``seat``,
    ``cards`` (each None where it does not apply).
    """

    default_rule: str | None = None

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        stage: str | None = None,
        index: int | None = None,
        seat: str | None = None,
        cards: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule if rule is not None else self.default_rule
        self.stage = stage
        self.index = index
        self.seat = seat
        self.cards = cards

    def located(self, *, stage: str, index: int | None, seat: str | None) -> EngineError:
        """Return this error with its place in a record filled in (used by replay)."""
        self.stage = stage
        self.index = index
        if seat is not None:
            self.seat = seat
        return self

    def to_dict(self) -> dict[str, Any]:
        """The ``error`` object of RECORDS.md §2: stage, index, seat, cards, rule, message."""
        return {
            "stage": self.stage,
            "index": self.index,
            "seat": self.seat,
            "cards": self.cards,
            "rule": self.rule,
            "message": self.message,
        }

    def __str__(self) -> str:
        return self.message


class NotationError(EngineError):
    """Text that is not card notation (R-NOTE); names the bad character and its 1-based position."""

    default_rule = "R-NOTE"

    def __init__(self, text: str, position: int, char: str, *, what: str = "cards") -> None:
        super().__init__(
            f"bad character {char!r} at position {position} in {what} {text!r}", cards=text
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


class RulesError(EngineError):
    """An unknown preset or option, or an impossible option value (RULES.md §7)."""

    default_rule = "R-REC"


class RecordError(EngineError):
    """An object that is not a game record at all (RECORDS.md §1): missing or mistyped fields."""

    default_rule = "R-REC"
