"""Robots that bid and play a seat of a deal: pure Python (no Django, nothing of tournaments).

- robot: ``Robot(strength, seed)`` with ``call``, ``play`` and ``play_view``; ``choose_call``,
  ``choose_play``; ``STRENGTHS`` (``basic``, ``medium``, ``strong``).
- view: ``SeatView``, what one seat may know, and ``view_of`` (the only door from a
  ``GameState``, which holds every hand, to a robot).
- hands: hand decomposition into planned groups (plays); calls: the strong robot's bidding;
  basic: games.bot's heuristic on a view; strong: the strong robot's play policy; search: its
  sampled search.
"""

from __future__ import annotations

from .robot import STRENGTHS, Robot, choose_call, choose_play
from .view import SeatView, view_of

__all__ = ["STRENGTHS", "Robot", "SeatView", "choose_call", "choose_play", "view_of"]
