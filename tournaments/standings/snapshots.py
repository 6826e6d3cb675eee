"""What a process keeps of an event's seat results between two recomputations of its
standings: one snapshot per event (tournaments.standings.changes moves it by the change log),
with the rows computed from it and whether this process stored them. Kept per process,
bounded, least recently used first out.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.scoring.methods import SeatResult
from tournaments.standings.seat_results import EventResults, Layout

# How many events' snapshots a process keeps, least recently used first out.
SNAPSHOTS_KEPT = 32
# A snapshot of at least this many seat results is moved out of the cyclic collector's
# reach once taken (heap_settle).
SETTLE_RESULTS = 10_000


@dataclass(frozen=True)
class Snapshot:
    """An event's seat results as read at `generation` (see the module docstring).

    `layout` holds the open boards, the seats, the boards' numbers, the adjusted seats and
    the lineup; `context` is the key the per-board cache keeps them under
    (tournaments.standings.cache.keep_results); `rows` are the rows computed from exactly
    these results with the settings `settings` (computed_rows).
    """

    generation: int
    taken: float  # time.monotonic() of the full read it comes from
    results: EventResults
    layout: Layout
    seats: list[str]
    context: tuple[Any, ...]
    rows: dict[int | None, list[dict[str, Any]]] | None = None
    settings: tuple[Any, ...] | None = None
    unchanged: bool = field(default=False)
    # Board id → table id → (the game row read last, the seat results credited from it), for
    # the boards read again since the full read: a row read again the same is not credited
    # again (tournaments.standings.changes).
    games: dict[int, dict[int, tuple[tuple[Any, ...], tuple[SeatResult, ...]]]] = field(
        default_factory=dict
    )


_SNAPSHOTS: OrderedDict[int, Snapshot] = OrderedDict()
_LOCK = threading.Lock()


def snapshot_of(event_id: int) -> Snapshot | None:
    """The snapshot this process keeps of `event_id`, if any."""
    with _LOCK:
        return _SNAPSHOTS.get(event_id)


def snapshot_keep(event_id: int, snapshot: Snapshot) -> None:
    """Keep `snapshot` as the event's, unless one of a later generation is kept already."""
    with _LOCK:
        kept = _SNAPSHOTS.get(event_id)
        if kept is not None and kept.generation > snapshot.generation:
            return
        _SNAPSHOTS[event_id] = snapshot
        _SNAPSHOTS.move_to_end(event_id)
        while len(_SNAPSHOTS) > SNAPSHOTS_KEPT:
            _SNAPSHOTS.popitem(last=False)


def heap_settle(results: int) -> None:
    """After a full read of `results` seat results kept as a snapshot: collect the cyclic
    garbage there is, then freeze what is left (gc.freeze), when `results` ≥ SETTLE_RESULTS.

    Why: a snapshot holds hundreds of thousands of objects for as long as the process runs,
    and each recomputation adds survivors, so CPython's full collections (which walk every
    tracked object) came every few recomputations and took up to 100 ms of one of 600
    players. Frozen objects are not walked; they are still freed by reference counting when
    the snapshot is replaced (a snapshot holds no cycles), so nothing leaks."""
    if results >= SETTLE_RESULTS:
        gc.collect()
        gc.freeze()


def snapshots_forget() -> None:
    """Forget every snapshot (and every event's arrays), as in a new process (tests)."""
    with _LOCK:
        _SNAPSHOTS.clear()
        _STORED.clear()
        _ARRAYS.clear()


# Each event's arrays (tournaments.standings.arrays.EventArrays), kept like the snapshots.
_ARRAYS: OrderedDict[int, Any] = OrderedDict()


def arrays_kept(event_id: int) -> Any:
    """The arrays this process keeps of `event_id`, if any (None)."""
    with _LOCK:
        return _ARRAYS.get(event_id)


def arrays_keep(event_id: int, arrays: Any) -> None:
    """Keep `arrays` as the event's (None: forget them)."""
    with _LOCK:
        if arrays is None:
            _ARRAYS.pop(event_id, None)
            return
        _ARRAYS[event_id] = arrays
        _ARRAYS.move_to_end(event_id)
        while len(_ARRAYS) > SNAPSHOTS_KEPT:
            _ARRAYS.popitem(last=False)


def snapshot_rows(
    event_id: int, generation: int, rows: dict[int | None, list[dict[str, Any]]], settings: Any
) -> None:
    """Attach the rows computed from the snapshot of `generation` (and the settings they were
    computed with) to it, if it is still the one kept."""
    with _LOCK:
        kept = _SNAPSHOTS.get(event_id)
        if kept is not None and kept.generation == generation:
            _SNAPSHOTS[event_id] = replace(kept, rows=rows, settings=settings)


# The rows this process stored last per event, with the `done` generation the state row was
# left at: while `done` is still that, no one else stored, and the stored rows are these.
_STORED: OrderedDict[int, tuple[int, dict[int | None, list[dict[str, Any]]]]] = OrderedDict()


def stored_here(event_id: int) -> tuple[int, dict[int | None, list[dict[str, Any]]]] | None:
    """(`done`, rows) of the last store of `event_id` by this process, if any."""
    with _LOCK:
        return _STORED.get(event_id)


def stored_set(event_id: int, done: int, rows: dict[int | None, list[dict[str, Any]]]) -> None:
    """Record that this process stored `rows` for `event_id`, leaving `done` at `done`."""
    with _LOCK:
        _STORED[event_id] = (done, rows)
        _STORED.move_to_end(event_id)
        while len(_STORED) > SNAPSHOTS_KEPT:
            _STORED.popitem(last=False)
