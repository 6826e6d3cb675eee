"""Exhaustive search of the rest of a game, for claims (R-CLAIM).

A claim stops play early: the claimant says his side takes all the rest. *Decision* of
RULES.md: the verifier accepts it only if the claiming side wins against every defence, all
hands known. This module decides that by an AND-OR search over the remaining play: on the
claiming side's turns some legal play must win, on the defenders' turns every legal play
(pass included) must still lose. Positions are memoised. The search is bounded by a number of
positions; past it the verdict is ``UNKNOWN`` (flagged for the referee), never a hang.
"""

from __future__ import annotations

import enum
from typing import Any

from .play import GameState

__all__ = ["ClaimVerdict", "prove_claim"]


class ClaimVerdict(enum.Enum):
    PROVEN = "proven"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


class _OutOfBudget(Exception):
    pass


def prove_claim(state: GameState, side: str, *, budget: int = 200_000) -> ClaimVerdict:
    """Whether ``side`` (``"landlord"`` or ``"farmers"``) wins from ``state`` against every
    defence.

    Args:
        state: the play state when the claim was made (not finished).
        side: the claiming side.
        budget: positions visited at most before answering ``UNKNOWN``.

    Returns:
        ``PROVEN``, ``REFUTED`` (a defence wins for the other side) or ``UNKNOWN``.
    """
    memo: dict[Any, bool] = {}
    visited = [0]
    landlord = state.landlord_index

    def ours(turn: int) -> bool:
        return (turn == landlord) == (side == "landlord")

    def wins(st: GameState) -> bool:
        if st.finished:
            return st.winner == side
        key = (st.hands_counts, st.turn, st.open, st.last, st.passes)
        found = memo.get(key)
        if found is not None:
            return found
        visited[0] += 1
        if visited[0] > budget:
            raise _OutOfBudget
        seat = st.seats[st.turn]
        moves = st.legal_plays()
        if ours(st.turn):
            # Try going out at once first, then larger plays: they end searches sooner.
            moves.sort(key=lambda m: -(m.counts and sum(m.counts) or 0))
            result = any(wins(st.apply(seat, str(m))) for m in moves)
        else:
            result = all(wins(st.apply(seat, str(m))) for m in moves)
        memo[key] = result
        return result

    try:
        return ClaimVerdict.PROVEN if wins(state) else ClaimVerdict.REFUTED
    except _OutOfBudget:
        return ClaimVerdict.UNKNOWN
    except RecursionError:
        return ClaimVerdict.UNKNOWN
