"""`manage.py ddz_simulate` on real PostgreSQL, Redis and the
workers it starts itself: every game of the burst is stored once, verified, and in the stored
standings, which equal a full recompute. The figures it prints are the benchmark's, never
asserted here."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from games.models import Game, Status
from tests.conftest import _database_url
from tournaments.models import Event
from tournaments.standings import cache, results

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers the command starts read the test database."""
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "ddz_site.settings_test")
    monkeypatch.setenv("DATABASE_URL", _database_url())


def _run(**options: object) -> dict:
    out = io.StringIO()
    call_command("ddz_simulate", stdout=out, stderr=io.StringIO(), **options)
    return json.loads(out.getvalue())


def _check(result: dict, *, tables: int, boards: int, rounds: int) -> None:
    event = Event.objects.get()
    last = Game.objects.filter(board__round__number=rounds)
    assert result["games"] == tables * boards == last.count()
    assert not last.exclude(status=Status.VERIFIED).exists()
    assert Game.objects.count() == tables * boards * rounds  # nothing lost or doubled
    assert cache.stored_rows(event=event) == results.computed_rows(event=event)


def test_a_burst_is_stored_once_verified_and_ranked(worker_env: None) -> None:
    result = _run(players=9, rounds=2, boards=2, burst=True, workers=1, clients=2)
    _check(result, tables=3, boards=2, rounds=2)
    assert 0 <= result["lag_s"]["p50"] <= result["lag_s"]["p95"] <= result["lag_s"]["max"]


def test_drain_submits_first_then_measures_the_workers_alone(worker_env: None) -> None:
    """--drain: the burst is queued with no worker running, then the workers start: the
    verification rate is the workers' own, not the clients'."""
    result = _run(players=9, rounds=2, boards=2, burst=True, workers=2, clients=2, drain=True)
    _check(result, tables=3, boards=2, rounds=2)
    drain = result["drain"]
    assert drain["workers"] == 2
    assert drain["verification_games_per_s"] >= 0
    # (Not "> 0 after the launch": in the whole suite a worker an earlier test started serves
    # the same queue and may verify the burst first; the benchmark's machine runs none.)
    assert drain["ranked_after_s"] >= drain["verified_after_s"]


def test_an_event_larger_than_one_players_file_is_imported_in_several(
    worker_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """10,000 players are more than one players file takes (players_csv.MAX_ROWS,
    5,000): the command imports them in several files, as an organizer would."""
    from tournaments.events import players_csv

    monkeypatch.setattr(players_csv, "MAX_ROWS", 4)
    result = _run(players=9, rounds=1, boards=1, burst=True, workers=1, clients=2)
    _check(result, tables=3, boards=1, rounds=1)
    assert Event.objects.get().entries.count() == 9
    assert result["verified_after_s"]["p50"] <= result["verified_after_s"]["max"]


def test_the_recomputes_printed_are_the_runs_own(worker_env: None) -> None:
    """The event is built once and played again: each run prints its own recomputes (at most
    one per game verified, at least one), not the event's counter since it was built."""
    for _ in range(3):
        result = _run(players=9, rounds=2, boards=2, burst=True, workers=1, clients=2)
        assert 1 <= result["recomputes"] <= result["games"], result
