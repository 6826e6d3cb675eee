"""Robots that bid and play one seat, deterministic and fair.

Vocabulary:

- *strength*: ``"basic"`` (games.bot's heuristic style, basic.py), ``"medium"`` (hand
  planning and cooperation, strong.py; bids like the strong robot, calls.py) or ``"strong"``
  (the same, with the endgame search on sampled hands, search.py).
- *seed*: the robot's own seed (for an event: derived from the event's seed, the board number
  and the seat). With the position it seeds the decision's generator through SHA-256, so the
  same position always gives the same choice, in any process and whatever was asked before
  (Python's ``hash`` of a string changes per process and is never used).
- *position*: what the seat knows (view.py): the rule set, its own cards, the public calls and
  plays, the bottom cards once public (R-BOTTOM) and how many cards each seat holds.

A robot never reads another seat's hand: ``play`` turns the ``GameState`` into the seat's
view first, and every decision is made from that view (``play_view``).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence

from games.engine import Bidding, GameState, parse_hand

from .basic import basic_call, basic_play
from .calls import strong_call
from .search import searched_play
from .strong import strong_play
from .view import SeatView, view_of

__all__ = ["STRENGTHS", "Robot", "choose_call", "choose_play"]

STRENGTHS = ("basic", "medium", "strong")


class Robot:
    """A robot of a given ``strength`` (one of ``STRENGTHS``) and ``seed`` (str or int).

    Raises:
        ValueError: an unknown strength.
    """

    def __init__(self, strength: str = "strong", seed: str | int = "") -> None:
        if strength not in STRENGTHS:
            raise ValueError(f"unknown robot strength {strength!r}; known: {', '.join(STRENGTHS)}")
        self.strength = strength
        self.seed = str(seed)

    def __repr__(self) -> str:
        return f"Robot({self.strength!r}, {self.seed!r})"

    def call(self, bidding: Bidding, hand: str) -> str:
        """The call of the seat to move in ``bidding``, holding ``hand`` (R-NOTE or suited
        text, the seat's cards before the bottom).

        Returns one of ``bidding.legal_calls()`` (R-BID-AUCTION, R-BID-ONCE, R-BID-ROB,
        R-BID-COMP, R-DOUBLE-ORDER, R-2P, R-5P).

        Raises:
            ValueError: the bidding is over (no seat to move).
            games.engine.NotationError: ``hand`` is not card notation (R-NOTE).
        """
        seat = bidding.to_move
        calls = bidding.legal_calls()
        if seat is None or not calls:
            raise ValueError("the bidding is over: there is no call to make")
        counts = parse_hand(hand)
        rng = self._rng(["call", bidding.rules.to_spec(), seat, hand, list(bidding.calls)])
        if self.strength == "basic":
            return basic_call(calls, counts, rng)
        return strong_call(calls, counts, landlord_known=bidding.landlord is not None)

    def play(
        self,
        state: GameState,
        *,
        bottom: str | None = None,
        calls: Sequence[tuple[str, str]] = (),
    ) -> str:
        """The turn of the seat to move in ``state``: canonical cards or ``"pass"``.

        ``bottom`` (the deal's bottom cards) and ``calls`` (the bidding) are public knowledge
        the state does not keep (R-BOTTOM, R-REC); the robot sees the state only through the
        seat's view (``view_of``). Returns one of ``state.legal_plays()``.

        Raises:
            ValueError: the game is over (R-END).
        """
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: there is no turn to play (R-END)")
        return self.play_view(view_of(state, seat, bottom=bottom, calls=calls))

    def play_view(self, view: SeatView) -> str:
        """The turn for a seat's ``view``: canonical cards or ``"pass"``, one of
        ``view.legal()``."""
        rng = self._rng(_position(view))
        if self.strength == "basic":
            return basic_play(view, rng)
        if self.strength == "medium":
            return strong_play(view)
        return searched_play(view, rng)

    def _rng(self, position: object) -> random.Random:
        text = json.dumps([self.seed, self.strength, position], sort_keys=True)
        digest = hashlib.sha256(text.encode()).digest()
        return random.Random(int.from_bytes(digest[:16], "big"))


def _position(view: SeatView) -> list[object]:
    return [
        view.rules.to_spec(),
        view.seat,
        list(view.hand),
        view.landlord,
        view.partner,
        [list(p) for p in view.plays],
        [list(c) for c in view.calls],
        None if view.bottom is None else list(view.bottom),
    ]


def choose_call(bidding: Bidding, hand: str, *, strength: str, seed: str | int) -> str:
    """``Robot(strength, seed).call(bidding, hand)``."""
    return Robot(strength, seed).call(bidding, hand)


def choose_play(
    state: GameState,
    *,
    strength: str,
    seed: str | int,
    bottom: str | None = None,
    calls: Sequence[tuple[str, str]] = (),
) -> str:
    """``Robot(strength, seed).play(state, bottom=bottom, calls=calls)``."""
    return Robot(strength, seed).play(state, bottom=bottom, calls=calls)
