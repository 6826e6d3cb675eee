"""A process that reads a large event in full keeps its snapshot out of CPython's cyclic
collector (tournaments.standings.snapshots.heap_settle): the collector's full passes over
hundreds of thousands of kept objects took up to 100 ms of a recomputation."""

from __future__ import annotations

import gc

import pytest

from tests.factories import bot_record, duplicate_round
from tournaments.standings import cache, snapshots
from tournaments.standings import results as standings_results
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def unfrozen():
    yield
    gc.unfreeze()  # the rest of the suite collects as before


def _played(seed: str):
    """An event of two tables, one board verified, nothing kept and nothing frozen."""
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed=seed)
    for table in tables:
        game_verify(
            game_id=game_submit(
                table=table, board=boards[0], record=bot_record(boards[0], table)
            ).pk
        )
    cache.kept_forget()
    gc.unfreeze()
    return event


def test_a_full_read_of_a_large_event_freezes_what_it_keeps(monkeypatch, unfrozen) -> None:
    event = _played("heap")
    # Six seat results: "large" for this test.
    monkeypatch.setattr(snapshots, "SETTLE_RESULTS", 6)
    data = standings_results.event_results(event=event, generation=1)
    assert len(data.results) == 6
    assert gc.get_freeze_count() > 0
    # Kept, yet out of the collector's reach: it is not among the objects it tracks.
    assert all(not any(r is o for o in gc.get_objects(generation=2)) for r in data.results[:1])


def test_a_small_event_is_left_to_the_collector(monkeypatch, unfrozen) -> None:
    event = _played("heap small")
    monkeypatch.setattr(snapshots, "SETTLE_RESULTS", 7)
    standings_results.event_results(event=event, generation=1)
    assert gc.get_freeze_count() == 0
