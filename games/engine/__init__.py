"""The Dou Dizhu rules engine: pure Python, the source of truth for legality and scores.

Imports only the standard library (a test enforces it). Rule ids (R-…) refer to RULES.md.
The public API:

- notation: ``parse_cards``, ``format_cards`` (R-NOTE), ``NotationError``;
- rule sets: ``RuleSet.from_spec`` (presets and options, RULES.md §7);
- combinations: ``classify``, ``beats``, ``Reading`` (R-T1 … R-T13b, R-CMP, R-AMBIG);
- legal plays: ``legal_plays``, ``Move``;
- deals, bidding and play: ``Deal``, ``deal_random``, ``Bidding``, ``GameState``;
- scoring: ``settle``, ``Contract`` (RULES.md §4);
- records: ``read_record``, ``Record``, ``record_to_text``, ``record_from_text``;
- verification: ``replay``, ``Outcome`` (R-VERIFY, R-CLAIM).
"""

from __future__ import annotations

from .bidding import Bidding
from .cards import (
    RANKS,
    check_hand,
    format_cards,
    is_pass_text,
    parse_cards,
    parse_hand,
    parse_play,
)
from .combos import Reading, beats, classify, classify_counts
from .combos import why_not_coded as _why_not
from .deal import Deal, deal_random
from .errors import (
    ERROR_CODES,
    DealError,
    EngineError,
    IllegalBidError,
    IllegalPlayError,
    NotationError,
    NumberTooLargeError,
    RecordError,
    RulesError,
)
from .moves import Move, legal_moves
from .play import GameState, split_tricks
from .record import Record, RecordSyntaxError, read_record, record_from_text, record_to_text
from .replay import Outcome, check_deal, replay
from .rules import RuleSet
from .scoring import Contract, Settlement, settle
from .search import ClaimSearch, ClaimVerdict, prove_claim, search_claim

__all__ = [
    "ERROR_CODES",
    "RANKS",
    "Bidding",
    "ClaimSearch",
    "ClaimVerdict",
    "Contract",
    "Deal",
    "DealError",
    "EngineError",
    "GameState",
    "split_tricks",
    "IllegalBidError",
    "IllegalPlayError",
    "Move",
    "NotationError",
    "NumberTooLargeError",
    "Outcome",
    "Reading",
    "Record",
    "RecordError",
    "RecordSyntaxError",
    "RuleSet",
    "RulesError",
    "Settlement",
    "beats",
    "check_deal",
    "classify",
    "deal_random",
    "format_cards",
    "legal_plays",
    "check_hand",
    "parse_cards",
    "parse_hand",
    "parse_play",
    "prove_claim",
    "read_record",
    "record_from_text",
    "record_to_text",
    "replay",
    "search_claim",
    "settle",
]


def legal_plays(hand: str, previous: str | None = None, rules: RuleSet | None = None) -> list[Move]:
    """Every distinct legal play of ``hand`` (R-LEAD, R-CMP, R-AMBIG), in a deterministic order.

    Args:
        hand: the cards held (R-NOTE or suited).
        previous: the play to follow, every reading of it open; None when leading.
        rules: the rule set; None means ``classic``.

    Returns:
        ``Move`` values; when following, ``pass`` comes last; when leading, no pass.

    Raises:
        NotationError: bad notation in ``hand`` or ``previous``; DealError: more cards than the
        deck holds (R-DECK); IllegalPlayError: a previous play that is a pass or no
        combination.

    >>> [str(m) for m in legal_plays("3345")]
    ['3', '4', '5', '33']
    >>> [str(m) for m in legal_plays("33BR", "44")]
    ['BR', 'pass']
    """
    counts = parse_hand(hand)
    check_hand(counts, rules)
    open_readings = None
    if previous is not None:
        if is_pass_text(previous):
            raise IllegalPlayError(
                "the previous play is a pass: there is nothing to follow (leave out the "
                "previous play to list the leads)",
                rule="R-TRICK",
                cards=previous,
                code="play.previous_pass",
                params={"cards": previous},
            )
        prev = parse_hand(previous)
        check_hand(prev, rules)
        open_readings = classify_counts(prev, rules)
        if not open_readings:
            rule, why, code, params = _why_not(prev, rules)
            raise IllegalPlayError(
                f"the previous play is not a combination: {why}",
                rule=rule,
                cards=previous,
                code=code,
                params=params,
            )
    return legal_moves(counts, open_readings, rules)
