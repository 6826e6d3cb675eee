"""Each player's running sums over an event's boards, kept per process between two
recomputations (scoring.ranking.Sums): a recomputation takes off the points of the boards whose
points changed since the one before and adds their new points, instead of summing every seat
of every board again. A board's points are the very list kept for it while its results are
unchanged (cache.POINTS_OF_LIST), so an unchanged board is found by identity, nothing compared.
The sums equal those of every board's points summed afresh (a property test holds it).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from tournaments.scoring.methods import SeatPoints
from tournaments.scoring.ranking import Sums

# Per event: what the sums depend on besides the boards (method, unit, unranked players), each
# board's points list summed with that board's own sums, and the event's sums. At most
# EVENTS_KEPT events, least recently used first out; a kept Sums is never changed (a
# recomputation moves a copy).
_Boards = dict[Hashable, tuple[list[SeatPoints], Sums]]
_RUNNING: OrderedDict[int, tuple[Any, _Boards, Sums]] = OrderedDict()
_LOCK = threading.Lock()
EVENTS_KEPT = 32


def running_sums(
    event_id: int, context: Any, per_board: Mapping[Hashable, list[SeatPoints]]
) -> Sums:
    """The sums of the points of `per_board` (board → its points), the players of
    `context`'s unranked set (its last item, a frozenset) left out: the sums kept for
    `event_id` moved by the boards whose points list is another object than the one summed
    before (added, changed, gone), or summed afresh when nothing is kept for this `context`.
    The returned Sums must not be changed (it is kept)."""
    unranked: frozenset[Hashable] = context[-1]
    with _LOCK:
        kept = _RUNNING.get(event_id)
    before: _Boards = kept[1] if kept is not None and kept[0] == context else {}
    sums = kept[2].copy() if before and kept is not None else Sums()
    boards: _Boards = {}
    for board, points in per_board.items():
        old = before.get(board)
        if old is not None and old[0] is points:
            boards[board] = old
            continue
        own = Sums()
        own.add(_ranked_only(points, unranked))
        if old is not None:
            sums.replace(old[1], own)
        else:
            sums.merge(own)
        boards[board] = (points, own)
    for board, (_points, own) in before.items():
        if board not in per_board:
            sums.merge(own, -1)
    with _LOCK:
        _RUNNING[event_id] = (context, boards, sums)
        _RUNNING.move_to_end(event_id)
        while len(_RUNNING) > EVENTS_KEPT:
            _RUNNING.popitem(last=False)
    return sums


def _ranked_only(
    points: Iterable[SeatPoints], unranked: frozenset[Hashable]
) -> Iterable[SeatPoints]:
    return (p for p in points if p.player not in unranked) if unranked else points


def running_forget() -> None:
    """Forget every event's running sums, as in a new process (tests)."""
    with _LOCK:
        _RUNNING.clear()
