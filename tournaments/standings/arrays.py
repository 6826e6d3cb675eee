"""Standings in arrays: a large event's standings moved by the games that changed, at the cost
of the change and a sort, not of every seat result.

What a process keeps of an event (EventArrays), from the snapshot of a full read
(tournaments.standings.snapshots) once it holds DDZ_STANDINGS_ARRAYS_FROM seat results or
more: every player's running sums in integer arrays (total matchpoints over one common
denominator, tops, boards), and per board and seat (a *group*: the seat results compared with
one another, R-SCORE's duplicate comparison) the tables, their players and the score of each,
with the group's distinct scores counted. A change that names its games (a verified game, a
ruling that let a score stand, a game replaced by another at its table: the change log's
`tables`) is read as those games' rows alone; each changed score moves its group's counts,
and matchpoints depend on a score's place among the distinct scores only (2 per result below,
1 per other equal one; Neuberg's scaling when fewer than N tables compare), so every player of
the group is moved by the change of his score's matchpoints, in one array operation. The
ranking is one sort of integer keys; the rows are formatted from arrays.

Only what this way knows how to move is moved here; anything else returns None and the
recomputation takes the objects' way (tournaments.standings.changes and results), whose full
read builds the arrays again: another scoring method than matchpoints, an adjusted or
weighted seat, a tie-break other than the lot, more than one stage (or a stage that is not the
whole event), an online duplicate (a table comes with each entrant's first board), a change
that does not name its games, a game at a table the arrays do not
hold, a game no longer counted, a round that gained a table. The property tests hold that the
rows equal a recomputation from nothing after every kind of change, whichever way it took.

PostgreSQL only, like the snapshots.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
from django.conf import settings as django_settings
from django.db import connection

from games.models import Board
from tournaments.core.embargo import played_games_count, with_open
from tournaments.models import Event, Stage
from tournaments.scoring import methods
from tournaments.scoring.ranking import lot_value
from tournaments.standings import changes
from tournaments.standings.seat_results import EventResults
from tournaments.standings.snapshots import Snapshot, arrays_keep, arrays_kept

# A common denominator of the totals above this (Neuberg's n of many incomplete boards) is
# left to the exact Fractions of the objects' way: the integer arrays would overflow.
MAX_DENOMINATOR = 1 << 20
# A ranking key must fit in 62 bits, with room for the subtraction of a penalty.
_KEY_LIMIT = 1 << 62


@dataclass
class Group:
    """One board and seat: the seat results compared with one another.

    `tables` are the table ids in ascending order, `players` the index of the player credited
    at each (EventArrays.player_ids), `inverse` the index of each one's score in `keys` (the
    group's distinct scores, ascending), `counts` how many hold each; `big_n` is Neuberg's N,
    n the number of tables."""

    tables: np.ndarray
    players: np.ndarray
    inverse: np.ndarray
    keys: np.ndarray
    counts: np.ndarray
    big_n: int

    @property
    def n(self) -> int:
        return int(self.tables.shape[0])

    @property
    def denominator(self) -> int:
        """The denominator of the group's matchpoints: 1, or n when Neuberg scales them."""
        return 1 if self.n == self.big_n else self.n

    def values(self) -> np.ndarray:
        """The matchpoints of each distinct score (`keys`) as numerators over `denominator`:
        2 per result below and 1 per other equal one (raw), Neuberg-scaled to
        ((raw + 1)·N − n)/n when fewer than N tables compare (methods.matchpoints)."""
        below = np.cumsum(self.counts) - self.counts
        raw = 2 * below + self.counts - 1
        if self.n == self.big_n:
            return raw
        return (raw + 1) * self.big_n - self.n


@dataclass
class EventArrays:
    """What a process keeps of one event (see the module docstring), at `generation`."""

    generation: int
    taken: float  # time.monotonic() of the full read it comes from
    settings: tuple[Any, ...]
    seats: list[str]
    player_ids: np.ndarray  # index → player id
    str_order: np.ndarray  # index → its place in the players ordered by str(id)
    groups: dict[int, dict[str, Group]]  # board id → seat → group
    expected: dict[Hashable, int]  # board id → Neuberg's N, as the snapshot had it
    denominator: int  # of `totals`
    totals: np.ndarray  # index → sum of matchpoints, numerators over `denominator`
    tops: np.ndarray  # index → sum of the tops (integers)
    boards: np.ndarray  # index → number of seat results
    penalty: dict[int, Fraction]  # index → penalty points (the whole event's)
    ranked: np.ndarray  # bool per index: has a row
    stage: int | None  # the one stage, or None
    cut: int | None
    lot: bool  # the lot is the tie-break
    seed: str
    scoring_method: str
    rows: dict[int | None, list[dict[str, Any]]] = field(default_factory=dict)


def arrays_of(event_id: int) -> EventArrays | None:
    """The arrays this process keeps of `event_id`, if any."""
    kept: EventArrays | None = arrays_kept(event_id)
    return kept


def arrays_take(
    event: Event,
    snap: Snapshot,
    stages: Sequence[Stage],
    settings: tuple[Any, ...],
    tiebreaks: tuple[list[str], str],
    rows: dict[int | None, list[dict[str, Any]]],
) -> None:
    """Build the event's arrays from `snap` (a full read's snapshot, or one moved since),
    with the `rows` computed from it, when this way can move them and the event is large
    enough (DDZ_STANDINGS_ARRAYS_FROM); else forget any the process holds, so that an older
    state is never moved."""
    arrays = None
    results = snap.results
    if (
        connection.vendor == "postgresql"
        and len(results.results) >= django_settings.DDZ_STANDINGS_ARRAYS_FROM
    ):
        arrays = _build(event, snap, list(stages), settings, tiebreaks)
    if arrays is not None:
        arrays.rows = rows
    arrays_keep(event.pk, arrays)


def _build(
    event: Event,
    snap: Snapshot,
    stages: list[Stage],
    settings: tuple[Any, ...],
    tiebreaks: tuple[list[str], str],
) -> EventArrays | None:
    """The arrays of `snap`, or None where the module docstring says this way does not go."""
    data = snap.results
    order, seed = tiebreaks
    if (
        event.scoring_method == "datum"
        or played_games_count(event)  # an online duplicate's tables come with its entrants
        or data.by_board is None
        or snap.layout.adjusted
        or order not in ([], ["lot"])
        or len(stages) > 1
    ):
        return None
    stage = stages[0] if stages else None
    if stage is not None and any(data.stage_of_board.get(b) != stage.pk for b in data.by_board):
        return None
    penalties = _penalties(data, stage)
    if penalties is None:
        return None
    # Player ids are ints (tournaments.models.Player's).
    players: list[Any] = sorted(
        {r.player for r in data.results} | set(penalties) | set(data.unranked)
    )
    index_of = {p: i for i, p in enumerate(players)}
    size = len(players)
    groups: dict[int, dict[str, Group]] = {}
    for board, results in data.by_board.items():
        made = _board_groups(results, index_of, data.expected.get(board))
        if made is None:
            return None
        groups[int(board)] = made  # type: ignore[call-overload]  # board ids are ints
    denominator = lcm(1, *(g.denominator for by_seat in groups.values() for g in by_seat.values()))
    if denominator > MAX_DENOMINATOR:
        return None
    totals = np.zeros(size, dtype=np.int64)
    tops = np.zeros(size, dtype=np.int64)
    boards = np.zeros(size, dtype=np.int64)
    for by_seat in groups.values():
        for group in by_seat.values():
            scale = denominator // group.denominator
            totals[group.players] += group.values()[group.inverse] * scale
            tops[group.players] += 2 * (group.big_n - 1)
            boards[group.players] += 1
    unranked = np.zeros(size, dtype=bool)
    unranked[[index_of[p] for p in data.unranked]] = True
    has_penalty = np.zeros(size, dtype=bool)
    has_penalty[[index_of[p] for p in penalties]] = True
    if stage is not None and not np.all((boards > 0) | ~has_penalty):
        return None  # a penalty of a player with no result: not in the stage's scope
    by_str = sorted(range(size), key=lambda i: str(players[i]))
    str_order = np.empty(size, dtype=np.int64)
    str_order[by_str] = np.arange(size, dtype=np.int64)
    return EventArrays(
        generation=snap.generation,
        taken=snap.taken,
        settings=settings,
        seats=list(snap.seats),
        player_ids=np.array(players, dtype=np.int64),
        str_order=str_order,
        groups=groups,
        expected=dict(data.expected),
        denominator=denominator,
        totals=totals,
        tops=tops,
        boards=boards,
        penalty={index_of[p]: v for p, v in penalties.items() if v},
        ranked=((boards > 0) & ~unranked) | has_penalty,
        stage=None if stage is None else stage.pk,
        cut=None if stage is None else stage.cut,
        lot=order == ["lot"],
        seed=seed,
        scoring_method=event.scoring_method,
    )


def _penalties(data: EventResults, stage: Stage | None) -> dict[Hashable, Fraction] | None:
    """Player → the sum of his penalties, or None where the arrays do not go: a penalty in
    another scope than the one stage (the stage's would differ from the event's), or of an
    unranked player (a row of no boards)."""
    penalties: dict[Hashable, Fraction] = defaultdict(Fraction)
    for player_id, stage_id, value in data.penalties:
        if (stage is not None and stage_id != stage.pk) or player_id in data.unranked:
            return None
        penalties[player_id] += value
    return penalties


def _board_groups(
    results: list[methods.SeatResult], index_of: dict[Hashable, int], expected: int | None
) -> dict[str, Group] | None:
    """The groups of one board's seat results (None: one of them is adjusted, weighted, not
    a whole number, or a player or a table twice in a group)."""
    by_seat: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for r in results:
        score = r.score
        if r.adjusted is not None or r.weighted or score.denominator != 1:
            return None
        by_seat[r.seat].append((int(r.table), index_of[r.player], score.numerator))  # type: ignore[call-overload]
    out: dict[str, Group] = {}
    for seat, rows in by_seat.items():
        rows.sort()
        tables = np.array([t for t, _p, _s in rows], dtype=np.int64)
        players = np.array([p for _t, p, _s in rows], dtype=np.int64)
        scores = np.array([s for _t, _p, s in rows], dtype=np.int64)
        if np.unique(tables).shape[0] != len(rows) or np.unique(players).shape[0] != len(rows):
            return None
        keys, inverse, counts = np.unique(scores, return_inverse=True, return_counts=True)
        n = len(rows)
        out[seat] = Group(tables, players, inverse, keys, counts, max(n, expected or n))
    return out


def arrays_rows(
    event: Event, generation: int, settings: tuple[Any, ...]
) -> dict[int | None, list[dict[str, Any]]] | None:
    """The rows of every scope at `generation`, the kept arrays moved by the games the change
    log names since theirs; None when this way cannot (see the module docstring): the caller
    takes the objects' way. The very rows of the last call when nothing moved (a ruling that
    let a result stand, a message delivered twice, a board still under embargo)."""
    with _MOVING:
        arrays = arrays_of(event.pk)
        if (
            arrays is None
            or arrays.settings != settings
            or arrays.generation > generation
            or time.monotonic() - arrays.taken > changes.SNAPSHOT_SECONDS
        ):
            return None
        found = changes.changed_boards(event.pk, arrays.generation, generation)
        if found is None:
            return None
        boards, pairs = found
        if pairs is None:
            return None  # a change that named boards only: each read whole by the objects
        closed = boards - arrays.groups.keys()
        if closed and _any_open(closed):
            return None  # a board opened: its every game read by the objects' way
        named = {(b, t) for b, t in pairs if b not in closed}
        moves = _moves(event, arrays, boards - closed, named) if named else []
        if moves is None:
            return None
        rows = arrays.rows
        if moves or not rows:
            try:
                _apply(arrays, moves)
                computed = _rows(arrays)
            except Exception:
                arrays_keep(event.pk, None)  # half moved: never used again
                raise
            if computed is None:
                arrays_keep(event.pk, None)
                return None
            rows = arrays.rows = computed
        arrays.generation = generation
        return rows


def arrays_advance(
    event_id: int, generation: int, rows: dict[int | None, list[dict[str, Any]]]
) -> None:
    """The objects' way found nothing changed up to `generation` and returns `rows`, the
    snapshot's: arrays built from that very snapshot (their rows are these, not moved since)
    hold the same results, and follow the log from `generation` on."""
    with _MOVING:
        arrays = arrays_of(event_id)
        if arrays is not None and arrays.rows is rows and arrays.generation < generation:
            arrays.generation = generation


# Held while an event's arrays move: one recomputation at a time in a process.
_MOVING = threading.Lock()


def _any_open(boards: set[int]) -> bool:
    """Whether one of `boards` (none of them open when the arrays were last moved) is open
    now: the standings count it from now on (tournaments.core.embargo). One query."""
    return with_open(Board.objects.filter(pk__in=boards), seal=False).filter(is_open=True).exists()


# A changed seat: (board id, seat, position in its group, the new score).
_Move = tuple[int, str, int, int]


def _moves(
    event: Event, arrays: EventArrays, boards: set[int], pairs: set[tuple[int, int]]
) -> list[_Move] | None:
    """The seats whose score the named games `pairs` (of the open `boards`) changed: one
    query for the games, one for their rounds' tables; None when one of them is not a
    counted game at a table the arrays hold, a score is not a whole number, or a board's
    round gained a table (Neuberg's N moves)."""
    fresh = changes.named_games(pairs, arrays.seats)
    if fresh is None:
        return None
    moves: list[_Move] = []
    for (board_id, table_id), (_b, _t, counted, *scores) in fresh.items():
        if not counted:
            return None
        by_seat = arrays.groups[board_id]
        for seat, text in zip(arrays.seats, scores, strict=True):
            group = by_seat.get(seat)
            if group is None:
                if text is None:
                    continue
                return None
            place = int(np.searchsorted(group.tables, table_id))
            if place >= group.n or group.tables[place] != table_id:
                return None
            try:
                score = Fraction(text)
            except (TypeError, ValueError, ZeroDivisionError):
                return None
            if score.denominator != 1:
                return None
            if group.keys[group.inverse[place]] != score.numerator:
                moves.append((board_id, seat, place, score.numerator))
    if moves and not played_games_count(event):
        # A round's tables are written when it is seated, before its boards are played; a
        # table added since (by hand) moves N: the objects' way reads the boards again.
        tables = changes.round_tables(boards)
        if any(n != arrays.expected.get(b) for b, (n, _alone) in tables.items()):
            return None
    return moves


def _apply(arrays: EventArrays, moves: list[_Move]) -> None:
    """Move the groups and every player's totals by `moves` (the group's other players too:
    their score's matchpoints move with the counts)."""
    by_group: dict[tuple[int, str], list[tuple[int, int]]] = defaultdict(list)
    for board_id, seat, place, score in moves:
        by_group[(board_id, seat)].append((place, score))
    for (board_id, seat), changed in by_group.items():
        group = arrays.groups[board_id][seat]
        scale = arrays.denominator // group.denominator
        before = group.values()[group.inverse]
        places = np.array([p for p, _s in changed], dtype=np.int64)
        scores = np.array([s for _p, s in changed], dtype=np.int64)
        if np.all(np.isin(scores, group.keys)):
            np.subtract.at(group.counts, group.inverse[places], 1)
            found = np.searchsorted(group.keys, scores)
            np.add.at(group.counts, found, 1)
            group.inverse[places] = found
        else:
            # A score new to the group: its distinct scores counted again.
            every = group.keys[group.inverse]
            every[places] = scores
            group.keys, group.inverse, group.counts = np.unique(
                every, return_inverse=True, return_counts=True
            )
        arrays.totals[group.players] += (group.values()[group.inverse] - before) * scale


def _rows(arrays: EventArrays) -> dict[int | None, list[dict[str, Any]]] | None:
    """The rows of every scope from the arrays, as tournaments.standings.results formats
    them; None when a key would overflow or a cut's line falls inside a tie (the draw is the
    objects' way's)."""
    den = arrays.denominator
    penalty_den = lcm(1, *(v.denominator for v in arrays.penalty.values()))
    common = lcm(den, penalty_den)
    if common > MAX_DENOMINATOR:
        return None
    net = arrays.totals * (common // den)
    for index, value in arrays.penalty.items():
        net[index] -= value.numerator * (common // value.denominator)
    chosen = np.flatnonzero(arrays.ranked)
    tops = arrays.tops[chosen]
    nets = net[chosen]
    distinct = np.unique(tops[tops > 0])
    multiple = lcm(1, *(int(t) for t in distinct))
    if multiple * (int(np.abs(nets).max(initial=0)) + 1) >= _KEY_LIMIT:
        return None
    key = np.where(tops > 0, nets * (multiple // np.maximum(tops, 1)), 0)
    order = np.lexsort((arrays.str_order[chosen], -key))
    ordered = chosen[order]
    keys = key[order]
    labels, decided, ordered = _labels(arrays, keys, ordered)
    rows = _formatted(arrays, ordered, labels, decided, net, common)
    out: dict[int | None, list[dict[str, Any]]] = {None: rows}
    if arrays.stage is not None:
        cut = arrays.cut
        if cut and len(rows) > cut and rows[cut - 1]["rank"] == rows[cut]["rank"]:
            return None
        out[arrays.stage] = rows
    return out


def _labels(
    arrays: EventArrays, keys: np.ndarray, ordered: np.ndarray
) -> tuple[list[str], list[str], np.ndarray]:
    """The rank label and the deciding tie-break of each place, and the players in their
    final order: equal keys share a rank ("2="), or with the lot each draws his own."""
    size = keys.shape[0]
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if size else np.array([], int)
    lengths = np.diff(np.r_[starts, size])
    start_of = np.repeat(starts, lengths)
    tied = np.repeat(lengths > 1, lengths)
    positions = (start_of + 1).tolist()
    if not arrays.lot:
        labels = [f"{p}=" if t else str(p) for p, t in zip(positions, tied.tolist(), strict=True)]
        return labels, [""] * size, ordered
    ordered = ordered.copy()
    ids = arrays.player_ids
    for start, length in zip(starts.tolist(), lengths.tolist(), strict=True):
        if length > 1:
            block = ordered[start : start + length]
            drawn = sorted(block.tolist(), key=lambda i: lot_value(arrays.seed, int(ids[i])))
            ordered[start : start + length] = drawn
    labels = [str(p) for p in range(1, size + 1)]
    decided = ["lot" if t else "" for t in tied.tolist()]
    return labels, decided, ordered


def _formatted(
    arrays: EventArrays,
    ordered: np.ndarray,
    labels: list[str],
    decided: list[str],
    net: np.ndarray,
    common: int,
) -> list[dict[str, Any]]:
    """The rows of the players `ordered`, formatted as results._rows formats a RankedRow."""
    totals = _fractions(arrays.totals[ordered], arrays.denominator)
    tops_of = arrays.tops[ordered]
    tops = [str(t) for t in tops_of.tolist()]
    percentages = _fractions(100 * net[ordered], common * np.maximum(tops_of, 1))
    zero = (tops_of == 0).tolist()
    boards = arrays.boards[ordered].tolist()
    penalty = arrays.penalty
    method = arrays.scoring_method
    return [
        {
            "player_id": player,
            "method": method,
            "position": place,
            "rank": label,
            "total": total,
            "top": top,
            "percentage": "0" if none else percentage,
            "boards": count,
            "penalty": methods.format_fraction(penalty[index]) if index in penalty else "",
            "decided_by": by,
        }
        for place, (player, index, label, total, top, percentage, none, count, by) in enumerate(
            zip(
                arrays.player_ids[ordered].tolist(),
                ordered.tolist(),
                labels,
                totals,
                tops,
                percentages,
                zero,
                boards,
                decided,
                strict=True,
            ),
            start=1,
        )
    ]


def _fractions(numerators: np.ndarray, denominators: np.ndarray | int) -> list[str]:
    """Each numerator over its denominator (above 0) as a reduced fraction's text
    (methods.format_fraction: "12", "-3/5"), each distinct value formatted once (a large
    event's players share their totals a few at a time, and every top most often)."""
    den = np.broadcast_to(np.asarray(denominators, dtype=np.int64), numerators.shape)
    if numerators.shape[0] == 0:
        return []
    if np.all(den == den[0]):
        values, inverse = np.unique(numerators, return_inverse=True)
        dens = np.full(values.shape, den[0], dtype=np.int64)
    else:
        pairs, inverse = np.unique(np.stack([numerators, den], axis=1), axis=0, return_inverse=True)
        values, dens = pairs[:, 0], pairs[:, 1]
    divisor = np.gcd(values, dens)
    texts = [
        str(n) if d == 1 else f"{n}/{d}"
        for n, d in zip((values // divisor).tolist(), (dens // divisor).tolist(), strict=True)
    ]
    return [texts[i] for i in inverse.reshape(-1).tolist()]
