"""What a process keeps of an event's seat results between two recomputations of its
standings: one snapshot per event (tournaments.standings.changes moves it by the change log),
with the rows computed from it and whether this process stored them. Kept per process,
bounded, least recently used first out.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from tournaments.standings.seat_results import EventResults, Layout

# How many events' snapshots a process keeps, least recently used first out.
SNAPSHOTS_KEPT = 32


@dataclass(frozen=True)
class Snapshot:
    """An event's seat results as read at `generation` (see the module docstring).

    `layout` holds the open boards, the seats, the boards' numbers, the adjusted seats and
    the lineup; `context` is the key the per-board cache keeps them under
    (tournaments.standings.cache.keep_results); `rows` are the rows computed from exactly
    these results with the settings `settings` (computed_rows), and `stored_done` the `done`
    generation the state row had when this process stored those rows (None: not stored here).
    """

    generation: int
    taken: float  # time.monotonic() of the full read it comes from
    results: EventResults
    layout: Layout
    seats: list[str]
    context: tuple[Any, ...]
    rows: dict[int | None, list[dict[str, Any]]] | None = None
    settings: tuple[Any, ...] | None = None
    stored_done: int | None = None
    unchanged: bool = field(default=False)


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


def snapshots_forget() -> None:
    """Forget every snapshot, as in a new process (tests)."""
    with _LOCK:
        _SNAPSHOTS.clear()


def snapshot_rows(
    event_id: int, generation: int, rows: dict[int | None, list[dict[str, Any]]], settings: Any
) -> None:
    """Attach the rows computed from the snapshot of `generation` (and the settings they were
    computed with) to it, if it is still the one kept."""
    with _LOCK:
        kept = _SNAPSHOTS.get(event_id)
        if kept is not None and kept.generation == generation:
            _SNAPSHOTS[event_id] = replace(kept, rows=rows, settings=settings, stored_done=None)


def rows_stored_here(event_id: int, rows: Any, done: int) -> bool:
    """Whether `rows` are the very rows this process stored last for `event_id`, and no
    store happened since (the state's `done` is still the one it left)."""
    kept = snapshot_of(event_id)
    return kept is not None and kept.rows is rows and kept.stored_done == done


def snapshot_stored(event_id: int, rows: Any, done: int) -> None:
    """Record that the kept snapshot's `rows` are stored, leaving the state's `done` at
    `done`."""
    with _LOCK:
        kept = _SNAPSHOTS.get(event_id)
        if kept is not None and kept.rows is rows:
            _SNAPSHOTS[event_id] = replace(kept, stored_done=done)
