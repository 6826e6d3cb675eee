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
        _STORED.clear()


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
