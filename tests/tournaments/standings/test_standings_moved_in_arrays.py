"""A large event's standings are moved in arrays by the games a change names
(tournaments.standings.arrays): the rows stored after every change equal a recomputation from
nothing, whether the arrays moved them or the objects' way did where the arrays cannot (a
board that opens, a game no longer counted, an adjusted seat). The test settings keep arrays
for every event (DDZ_STANDINGS_ARRAYS_FROM = 0). On real PostgreSQL, where a process keeps
what it read."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from django.db import transaction
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from games.models import Game, Status
from tests.factories import EventFactory, duplicate_round
from tests.tournaments.standings.test_standings_follow_the_change_log import _stored
from tournaments.models import Adjustment, Penalty, Stage
from tournaments.scoring import methods
from tournaments.standings import arrays, cache, changes
from tournaments.standings import results as standings_results
from tournaments.standings.requests import standings_refresh, standings_request

# Scores of a classic game (R-SCORE: the landlord's is twice each farmer's, with the sign
# turned), and some no table has scored yet on these boards.
SCORES = [(2 * k, -k, -k) for k in (1, 2, 4)] + [(-2 * k, k, k) for k in (1, 2, 4)]
NEW_SCORES = [(48, -24, -24), (-96, 48, 48), (0, 0, 0)]


def _from_nothing(event) -> dict:
    """The rows of every scope computed afresh, with nothing the process keeps (no memo, no
    snapshot, no arrays: what it keeps is left as it is)."""
    data = standings_results.event_results(event=event)
    data.by_board = None
    scopes = standings_results.compute(data, stages=list(event.stages.all()), memo=False)
    return {scope: standings_results._rows(event, rows) for scope, rows in scopes.items() if rows}


def _game(table, board, scores) -> Game:
    return Game.objects.create(
        table=table,
        board=board,
        record={},
        status=Status.VERIFIED,
        version=1,
        score=dict(zip("SEW", scores, strict=True)),
    )


@pytest.fixture
def lanes(monkeypatch) -> list[str]:
    """The way each recomputation took: "arrays" or "objects"."""
    taken: list[str] = []
    objects_way = changes.results_since

    def spied(event, generation):
        taken.append("objects")
        return objects_way(event, generation)

    monkeypatch.setattr(changes, "results_since", spied)
    return taken


def _played(*, tables: int = 6, boards: int = 4, seed: str = "arrays", **event_fields):
    """An event of one round: every table has played every board but the last, which one
    table has still to play (it stays under embargo); standings stored from nothing."""
    event, round_, made_tables, made_boards = duplicate_round(
        tables=tables, boards=boards, seed=seed, event=EventFactory(**event_fields)
    )
    rng = random.Random(seed)
    for board in made_boards:
        for table in made_tables:
            if board == made_boards[-1] and table == made_tables[-1]:
                continue
            _game(table, board, rng.choice(SCORES))
    cache.kept_forget()
    with transaction.atomic():
        standings_request(event_id=event.pk)
    standings_refresh(event_id=event.pk)
    return event, round_, made_tables, made_boards


def _change(event, table, board, scores) -> None:
    """A new score for the game of `board` at `table`, logged with the game named (as a
    verification names it)."""
    with transaction.atomic():
        Game.objects.filter(table=table, board=board, replaced_at__isnull=True).update(
            score=dict(zip("SEW", scores, strict=True))
        )
        standings_request(event_id=event.pk, games=[(board.pk, table.pk)])


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_random_named_changes_are_moved_in_arrays_to_the_rows_of_a_recompute(seed, lanes) -> None:
    event, _round, tables, boards = _played(seed=f"arrays-{seed}")
    assert arrays.arrays_of(event.pk) is not None
    assert _stored(event) == _from_nothing(event)
    rng = random.Random(seed)
    for _step in range(12):
        lanes.clear()
        # One to three games changed in as many generations before one recomputation, on
        # the open boards, a score new to the board now and then, or the same score again.
        for _ in range(rng.randint(1, 3)):
            board = rng.choice(boards[:-1])
            table = rng.choice(tables)
            pool = SCORES + NEW_SCORES if rng.random() < 0.3 else SCORES
            _change(event, table, board, rng.choice(pool))
        standings_refresh(event_id=event.pk)
        assert lanes == [], "the arrays moved the standings"
        assert _stored(event) == _from_nothing(event)


@pytest.mark.django_db
def test_a_game_on_a_board_under_embargo_moves_nothing_and_the_opening_reads_it(lanes) -> None:
    event, _round, tables, boards = _played(seed="embargo")
    lanes.clear()
    before = _stored(event)
    # Another score on the board still under embargo: the standings do not count it yet.
    _change(event, tables[0], boards[-1], (-8, 4, 4))
    standings_refresh(event_id=event.pk)
    assert lanes == []
    assert _stored(event) == before == _from_nothing(event)
    # The last table plays the board: it opens, and the objects' way reads it whole.
    with transaction.atomic():
        _game(tables[-1], boards[-1], (8, -4, -4))
        standings_request(event_id=event.pk, games=[(boards[-1].pk, tables[-1].pk)])
    standings_refresh(event_id=event.pk)
    assert lanes == ["objects"]
    stored = _stored(event)
    assert stored == _from_nothing(event)
    assert all(row["boards"] == len(boards) for row in stored[None])
    # The arrays were built again with the board: the next change moves them.
    lanes.clear()
    _change(event, tables[2], boards[-1], (-16, 8, 8))
    standings_refresh(event_id=event.pk)
    assert lanes == []
    assert _stored(event) == _from_nothing(event)


@pytest.mark.django_db
def test_a_game_no_longer_counted_takes_the_objects_way(lanes) -> None:
    event, _round, tables, boards = _played(seed="flagged")
    lanes.clear()
    with transaction.atomic():
        Game.objects.filter(table=tables[1], board=boards[0]).update(status=Status.FLAGGED)
        standings_request(event_id=event.pk, games=[(boards[0].pk, tables[1].pk)])
    standings_refresh(event_id=event.pk)
    assert lanes == ["objects"]
    assert _stored(event) == _from_nothing(event)


@pytest.mark.django_db
def test_an_adjusted_seat_leaves_the_arrays_to_the_objects(lanes) -> None:
    event, _round, tables, boards = _played(seed="adjusted")
    with transaction.atomic():
        Adjustment.objects.create(board=boards[0], table=tables[0], seat="E", kind="avg+")
        standings_request(event_id=event.pk)
    standings_refresh(event_id=event.pk)
    assert arrays.arrays_of(event.pk) is None  # an adjusted seat is the objects' to score
    lanes.clear()
    _change(event, tables[3], boards[1], (16, -8, -8))
    standings_refresh(event_id=event.pk)
    assert lanes == ["objects"]
    assert _stored(event) == _from_nothing(event)


@pytest.mark.django_db
def test_the_lot_draws_every_tie_in_arrays_as_in_the_objects(lanes) -> None:
    # Every table scored the same on every board: every seat of a board ties, and the
    # players of one seat order tie in total; the lot draws them.
    event, _round, tables, boards = _played(seed="lot", tiebreaks=["lot"], lot_seed="public")
    for board in boards[:-1]:
        with transaction.atomic():
            Game.objects.filter(board=board).update(score={"S": 4, "E": -2, "W": -2})
            standings_request(event_id=event.pk, boards=[board.pk])
    standings_refresh(event_id=event.pk)
    lanes.clear()
    _change(event, tables[2], boards[0], (-4, 2, 2))
    standings_refresh(event_id=event.pk)
    assert lanes == []
    stored = _stored(event)
    assert stored == _from_nothing(event)
    assert [row["decided_by"] for row in stored[None]].count("lot") >= 2
    assert [row["rank"] for row in stored[None]] == [
        str(n) for n in range(1, len(stored[None]) + 1)
    ]


@pytest.mark.django_db
def test_penalties_and_one_stage_with_a_cut_are_moved_in_arrays(lanes) -> None:
    event, round_, tables, boards = _played(seed="stage")
    stage = Stage.objects.create(event=event, number=1, cut=4)
    round_.stage = stage
    round_.save()
    seated = list(tables[0].seats.order_by("seat"))
    with transaction.atomic():
        Penalty.objects.create(
            event=event, stage=stage, player=seated[0].player, points=Decimal("1.5"), reason="slow"
        )
        standings_request(event_id=event.pk)
    standings_refresh(event_id=event.pk)
    assert arrays.arrays_of(event.pk) is not None
    rng = random.Random("stage")
    for _step in range(6):
        lanes.clear()
        _change(event, rng.choice(tables), rng.choice(boards[:-1]), rng.choice(SCORES))
        standings_refresh(event_id=event.pk)
        stored = _stored(event)
        assert stored == _from_nothing(event)
        penalized = next(r for r in stored[None] if r["player_id"] == seated[0].player_id)
        assert penalized["penalty"] == "3/2"


@pytest.mark.django_db
def test_a_small_event_keeps_no_arrays(settings) -> None:
    settings.DDZ_STANDINGS_ARRAYS_FROM = 1_000
    event, _round, _tables, _boards = _played(seed="small")
    assert arrays.arrays_of(event.pk) is None


# Pure parts, by property: the arrays' matchpoints are methods.matchpoints' (R-SCORE's
# comparison, Neuberg's scaling), and their fractions are format_fraction's.


@given(
    scores=st.lists(st.integers(-64, 64), min_size=1, max_size=40),
    missing=st.integers(0, 5),
)
@hyp_settings(max_examples=200, deadline=None)
def test_the_arrays_matchpoints_of_a_group_are_the_scorings(scores, missing) -> None:
    results = [
        methods.SeatResult(1, table, "S", f"p{table}", Fraction(score))
        for table, score in enumerate(scores)
    ]
    big_n = len(scores) + missing
    expected = methods.matchpoints(results, expected={1: big_n})
    keys, inverse, counts = np.unique(
        np.array(scores, dtype=np.int64), return_inverse=True, return_counts=True
    )
    group = arrays.Group(
        np.arange(len(scores), dtype=np.int64),
        np.arange(len(scores), dtype=np.int64),
        inverse,
        keys,
        counts,
        big_n,
    )
    got = [Fraction(int(v), group.denominator) for v in group.values()[inverse]]
    assert got == [p.points for p in expected]


@given(
    pairs=st.lists(
        st.tuples(st.integers(-(10**9), 10**9), st.integers(1, 10**6)), min_size=0, max_size=30
    )
)
@hyp_settings(max_examples=200, deadline=None)
def test_the_arrays_fractions_read_as_format_fraction(pairs) -> None:
    numerators = np.array([n for n, _d in pairs], dtype=np.int64)
    denominators = np.array([d for _n, d in pairs], dtype=np.int64)
    assert arrays._fractions(numerators, denominators) == [
        methods.format_fraction(Fraction(n, d)) for n, d in pairs
    ]
    if pairs:
        same = pairs[0][1]
        assert arrays._fractions(numerators, same) == [
            methods.format_fraction(Fraction(n, same)) for n, _d in pairs
        ]
