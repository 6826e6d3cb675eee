"""What a process keeps between two recomputations of an event's standings: each board's seat
results with the version of its counted games' rows (found again while the rows are the same),
the points computed from them, and the rows it stored last with their version; plus the read
of the stored rows themselves (stored_rows). Kept per process, bounded, least recently used
first out; off PostgreSQL nothing is kept and every board is read each time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Aggregate, CharField, F, QuerySet

from games.models import Game
from tournaments.models import (
    Event,
    PublishedStandings,
    Standing,
)
from tournaments.scoring import methods
from tournaments.standings.running import running_forget
from tournaments.standings.snapshots import snapshots_forget

# The seat results of each board, kept per process (a recomputation reads again only the
# boards that changed): found again while the board's counted games are the
# same rows in the same versions (_RowVersions: any write, a game counted or no longer, a new
# score, a replacement, changes the board's version) and what else they depend on (the
# event's seats, adjusted scores, substitutions and board numbers: the context) is the same.
# Keyed by event and board, at most RESULTS_KEPT seat results in all (settings.
# DDZ_STANDINGS_KEPT_RESULTS), least recently used first out; the points of a kept board are
# kept with it (POINTS_OF_LIST). A board evicted has its points computed again at every
# recomputation: at 30,000 players × 12 rounds (2,160,000 seat results) a cap of 500,000 made
# a change of 6 boards cost 8 s instead of 1.7 s (the whole worker then held 1.35 GB).
# Elsewhere than on PostgreSQL every board is read each time.
BOARD_RESULTS: OrderedDict[tuple[int, int], tuple[str, list[methods.SeatResult]]] = OrderedDict()
_CONTEXTS: dict[int, tuple[Any, ...]] = {}
_KEPT: dict[str, int] = {"results": 0}
RESULTS_KEPT: int = settings.DDZ_STANDINGS_KEPT_RESULTS
KEPT_LOCK = threading.Lock()


class _RowVersions(Aggregate):
    """The version of a group of game rows: md5 of their ids, xmin and ctid in id order
    (PostgreSQL). Every write of a row makes a new row version in a new place (ctid), and
    xmin tells the transactions apart: a row written again in the transaction that wrote it
    keeps its xmin but moves."""

    template = (
        "md5(string_agg(%(expressions)s::text || ':' || %(table)s.xmin::text || ':'"
        " || %(table)s.ctid::text, ',' ORDER BY %(expressions)s))"
    )
    output_field = CharField()


def standings_version(event_id: int) -> str | None:
    """The version of the stored standing rows of an event (_RowVersions; "" when it has
    none); None off PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    table = connection.ops.quote_name(Standing._meta.db_table)
    found = Standing.objects.filter(event_id=event_id).aggregate(
        version=_RowVersions(F("id"), table=table)
    )
    return str(found["version"] or "")


# The rows a recomputation of this process stored last, per event, with their version
# (standings_version): the next one compares with them instead of reading them all again
# (a large event's rows are a noticeable part of a recompute), while no one else
# stored, deleted or changed a row. At most STORED_KEPT events, least recently used first out.
_STORED_KEPT: OrderedDict[int, tuple[str, dict[int | None, list[dict[str, Any]]]]] = OrderedDict()
STORED_KEPT = 4


def stored_rows_of(event: Event, version: str | None) -> dict[int | None, list[dict[str, Any]]]:
    """The stored rows of `event` (stored_rows): the kept ones when their version is
    `version`, else read."""
    with KEPT_LOCK:
        kept = _STORED_KEPT.get(event.pk)
        if version is not None and kept is not None and kept[0] == version:
            _STORED_KEPT.move_to_end(event.pk)
            return kept[1]
    return stored_rows(event=event)


def keep_stored(
    event_id: int, version: str | None, rows: dict[int | None, list[dict[str, Any]]]
) -> None:
    if version is None:
        return
    with KEPT_LOCK:
        _STORED_KEPT[event_id] = (version, rows)
        _STORED_KEPT.move_to_end(event_id)
        while len(_STORED_KEPT) > STORED_KEPT:
            _STORED_KEPT.popitem(last=False)


def board_versions(games: QuerySet[Game]) -> dict[int, str] | None:
    """Board id → the version of its counted games (_RowVersions); None off PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    table = connection.ops.quote_name(Game._meta.db_table)
    return dict(
        games.values("board_id")
        .annotate(version=_RowVersions(F("id"), table=table))
        .values_list("board_id", "version")
    )


def kept_results(
    event_id: int, context: tuple[Any, ...], versions: dict[int, str] | None
) -> dict[int, list[methods.SeatResult]]:
    """The kept seat results of the boards whose version is the same (see BOARD_RESULTS)."""
    if versions is None:
        return {}
    with KEPT_LOCK:
        if _CONTEXTS.get(event_id) != context:
            return {}
        kept = {}
        for board_id, version in versions.items():
            hit = BOARD_RESULTS.get((event_id, board_id))
            if hit is not None and hit[0] == version:
                BOARD_RESULTS.move_to_end((event_id, board_id))
                kept[board_id] = hit[1]
        return kept


def keep_results(
    event_id: int,
    context: tuple[Any, ...],
    versions: dict[int, str],
    read: dict[int, list[methods.SeatResult]],
) -> None:
    """Keep the seat results just read, with their boards' versions (see BOARD_RESULTS)."""
    with KEPT_LOCK:
        if _CONTEXTS.get(event_id) != context:
            for key in [k for k in BOARD_RESULTS if k[0] == event_id]:
                _forget_board(key)
            _CONTEXTS.pop(event_id, None)
            _CONTEXTS[event_id] = context
            while len(_CONTEXTS) > CONTEXTS_KEPT:
                oldest = next(iter(_CONTEXTS))
                for key in [k for k in BOARD_RESULTS if k[0] == oldest]:
                    _forget_board(key)
                del _CONTEXTS[oldest]
        for board_id, version in versions.items():
            if board_id in read:
                key = (event_id, board_id)
                _forget_board(key)
                BOARD_RESULTS[key] = (version, read[board_id])
                _KEPT["results"] += len(read[board_id])
        while _KEPT["results"] > RESULTS_KEPT and BOARD_RESULTS:
            _forget_board(next(iter(BOARD_RESULTS)))


def kept_forget() -> None:
    """Forget every board this process keeps (BOARD_RESULTS) and the points kept with them,
    as in a new process (tests; nothing else needs it: a kept board is found again only while
    it is unchanged)."""
    with KEPT_LOCK:
        BOARD_RESULTS.clear()
        POINTS_OF_LIST.clear()
        _CONTEXTS.clear()
        _KEPT["results"] = 0
        BOARD_POINTS.clear()
        _STORED_KEPT.clear()
    running_forget()
    snapshots_forget()


# How many events' contexts a process keeps (each holds its seats: 30,000 for 10,000 players).
CONTEXTS_KEPT = 32


def _forget_board(key: tuple[int, int]) -> None:
    """Drop a kept board and its kept points (the caller holds KEPT_LOCK)."""
    kept = BOARD_RESULTS.pop(key, None)
    if kept is not None:
        _KEPT["results"] -= len(kept[1])
    POINTS_OF_LIST.pop(key, None)


# The points of one board, kept per process: they depend only on the board's own seat results,
# the method, the unit and its expected tables (the key), so a recompute after a burst scores
# again only the boards whose results changed and looks the others up. Least recently used
# first out.
BOARD_POINTS: OrderedDict[tuple[Any, ...], dict[tuple[Any, Any, str], methods.SeatPoints]] = (
    OrderedDict()
)
BOARD_POINTS_KEPT = 20_000
# The points of a board's kept seat results (EventResults.by_board), found by the list itself:
# no signature to build while the board is unchanged. Replaced when the list is.
POINTS_OF_LIST: dict[
    tuple[Any, ...],
    tuple[list[methods.SeatResult], tuple[Any, ...], list[methods.SeatPoints]],
] = {}


def stored_rows(*, event: Event) -> dict[int | None, list[dict[str, Any]]]:
    """The stored standing rows of `event` per scope, as plain dicts of FIELDS."""
    out: dict[int | None, list[dict[str, Any]]] = {None: []}
    for stage in event.stages.all():
        out[stage.pk] = []
    for row in event.standings.order_by("stage_id", "position").values("stage_id", *FIELDS):
        out.setdefault(row.pop("stage_id"), []).append(row)
    return out


# A standing row's fields, as the store writes them and the published rows hold them.
FIELDS = PublishedStandings.FIELDS
