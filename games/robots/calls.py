"""The strong robot's bidding: a call from an evaluation of the seat's own hand.

Vocabulary:

- *evaluation*: an estimate, from the hand alone, of how likely the seat is to win as
  landlord: the plays its plan needs (hands.py; fewer is better, R-END) against its controls,
  the cards that win tricks back (the jokers, 2s, aces, bombs and the rocket, R-T11, R-T12).
  The three bottom cards are unknown while bidding (R-BOTTOM), so the evaluation counts on
  them only as an average help.
- Thresholds per call: a bid of 1, 2 or 3 (R-BID-AUCTION, R-BID-ONCE), ``call`` and ``rob``
  (R-BID-ROB, R-BID-COMP, R-2P), ``double`` and ``redouble`` (R-DOUBLE-ORDER).
"""

from __future__ import annotations

from .hands import ACE, BIG, SMALL, TWO, plan

__all__ = ["evaluate", "strong_call"]

Counts = tuple[int, ...]
# Evaluation needed for each bid, and for the other systems' calls.
_BID_AT = {"1": -1.0, "2": 0.5, "3": 1.8}
_CALL_AT = {"call": -0.5, "rob": 1.0, "double": 2.0, "redouble": 2.5}


def evaluate(hand: Counts) -> float:
    """How strong ``hand`` (counts per rank) is as a landlord's, higher is stronger; over
    random 17-card hands the median is about −1.3 and one hand in seven passes 1.8 (the
    thresholds below were set from that spread)."""
    own = plan(hand)
    controls = 3.0 * hand[BIG] + 2.2 * hand[SMALL] + 1.4 * hand[TWO] + 0.5 * hand[ACE]
    controls += sum(2.5 for r in range(TWO + 1) if hand[r] >= 4)
    return controls - 0.8 * own.plays - own.cost * 0.2 + 0.6 * (sum(hand) - 17) + 2.0


def strong_call(calls: list[str], hand: Counts, *, landlord_known: bool) -> str:
    """The strong robot's call among ``calls`` for ``hand``.

    ``landlord_known`` says the auction is over (the doubling calls of R-DOUBLE-ORDER): a
    farmer doubles a weak landlord's stake only with a hand that stops him.
    """
    value = evaluate(hand)
    numeric = [c for c in calls if c.isdigit()]
    if numeric:
        good = [c for c in numeric if value >= _BID_AT[c]]
        return max(good, key=int) if good else "pass"
    for call in ("redouble", "double", "rob", "call"):
        if call in calls and value >= _CALL_AT[call] + (0.5 if landlord_known else 0.0):
            return call
    return "pass" if "pass" in calls else calls[0]
