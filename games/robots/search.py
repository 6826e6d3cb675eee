"""The strong robot's endgame search: the exact claim search of the engine on sampled hands.

Vocabulary:

- *endgame*: few cards left in all hands together (at most ``ENDGAME_CARDS``), three players.
- *world*: one sample of the unseen cards dealt among the other seats consistent with their
  counts and the public bottom (view.py): the robot never searches the true hands.
- *candidate*: a legal turn worth trying: the planner's choice (strong.py), the pass when
  following, and the turns whose remaining hand plans cheapest, at most ``CANDIDATES``.
- *verdict*: for a candidate in a world, whether this seat's side then wins against every
  defence, by ``games.engine.search_claim`` (R-CLAIM's proof-number search, all hands known
  in that world), within a budget of positions; an open verdict counts half.

The candidate with the most wins over ``WORLDS`` worlds is played; ties go to the planner's
choice, then to the earlier candidate. The work is bounded by counts (worlds, candidates,
``POSITIONS`` positions per decision), never by time, so the choice does not depend on the
machine (R-CLAIM's budget is counted the same way).
"""

from __future__ import annotations

import random

from games.engine import ClaimVerdict, GameState, search_claim
from games.engine.moves import Move

from .hands import plan
from .strong import compared_rank, strong_play
from .view import SeatView

__all__ = ["searched_play", "ENDGAME_CARDS", "WORLDS", "CANDIDATES", "POSITIONS"]

ENDGAME_CARDS = 20
WORLDS = 6
CANDIDATES = 4
POSITIONS = 1_500  # positions the claim search may expand per decision, all worlds together
_SCORE = {ClaimVerdict.PROVEN: 2, ClaimVerdict.UNKNOWN: 1, ClaimVerdict.REFUTED: 0}


def searched_play(view: SeatView, rng: random.Random) -> str:
    """The strong robot's turn: the planner's choice, checked in the endgame by the claim
    search on ``WORLDS`` worlds drawn from ``rng``. Canonical cards or ``"pass"``, always one
    of ``view.legal()`` (R-LEAD, R-CMP)."""
    choice = strong_play(view)
    total = sum(n for _, n in view.counts)
    if view.rules.family != "three" or total > ENDGAME_CARDS:
        return choice
    moves = view.legal()
    if len(moves) < 2 or (choice != "pass" and len(choice) == sum(view.hand)):  # R-END
        return choice
    candidates = _candidates(view, moves, choice)
    budget = max(20, POSITIONS // (WORLDS * len(candidates)))
    side = "landlord" if view.side(view.seat) == "landlord" else "farmers"
    wins = [0] * len(candidates)
    for _ in range(WORLDS):
        state = _world(view, rng)
        for i, move in enumerate(candidates):
            after = state.apply(view.seat, str(move))
            wins[i] += _SCORE[search_claim(after, side, budget=budget).verdict]
    best = max(wins)
    if wins[0] == best:
        return str(candidates[0])
    return str(candidates[wins.index(best)])


def _candidates(view: SeatView, moves: list[Move], choice: str) -> list[Move]:
    """The planner's choice first, then the pass, then the cheapest plans of what is left."""
    first = [m for m in moves if str(m) == choice]
    rest = [m for m in moves if str(m) != choice]
    passes = [m for m in rest if m.is_pass]
    plays = [m for m in rest if not m.is_pass]

    def cost(m: Move) -> tuple[float, int]:
        counts = m.counts
        assert counts is not None  # plays only
        left = tuple(h - c for h, c in zip(view.hand, counts, strict=True))
        return plan(left).cost, compared_rank(m)

    plays.sort(key=cost)
    return (first + passes + plays)[:CANDIDATES]


def _world(view: SeatView, rng: random.Random) -> GameState:
    """The position of ``view`` with the hidden hands of one sampled world."""
    hands = view.sample(rng)
    seats = view.seats
    passes = 0
    for _, text in reversed(view.plays):
        if text != "pass":
            break
        passes += 1
    played = tuple(sum(1 for s, t in view.plays if s == seat and t != "pass") for seat in seats)
    return GameState(
        rules=view.rules,
        hands_counts=tuple(hands[s] for s in seats),
        landlord_index=seats.index(view.landlord),
        turn=seats.index(view.seat),
        open=view.open,
        last=None if view.owner is None else seats.index(view.owner),
        passes=passes if view.open is not None else 0,
        plays=view.plays,
        played=played,
    )
