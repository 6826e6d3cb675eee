"""The rating's recomputation through a real Celery worker on Redis and PostgreSQL: the
worker stores exactly what a recompute from scratch in another process computes (the same on
any machine), and a late correction to an old event recomputes the events after it."""

from __future__ import annotations

import pytest

from tests.conftest import Worker, wait_for
from tests.factories import PlayerFactory
from tests.tournaments.ratings.test_ratings_stored import _event
from tournaments.core import rating_requests
from tournaments.models import RatingEntry, RatingState
from tournaments.ratings import service as ratings
from tournaments.standings.rulings import adjustment_set
from tournaments.tasks import ratings_recompute

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _rows() -> dict[tuple[int, int], tuple[int, float, float, float]]:
    return {
        (p, e): (pos, mu, sigma, o)
        for p, e, pos, mu, sigma, o in RatingEntry.objects.values_list(
            "player_id", "event_id", "position", "mu", "sigma", "ordinal"
        )
    }


def _settled() -> bool:
    state = RatingState.objects.filter(pk=ratings.STATE_PK).first()
    return state is not None and state.done >= state.requested and not state.queued


def test_the_worker_rates_deterministically_and_recomputes_after_a_late_correction(
    celery_worker: Worker,
) -> None:
    players = [PlayerFactory() for _ in range(9)]
    old, old_round, td = _event(players, seed="w-old")
    new, _round, _td = _event(players[::-1], seed="w-new")
    wait_for(lambda: len(_rows()) == 18 and _settled(), what="the worker to rate both events")
    assert "tournaments.tasks.ratings_recompute" in celery_worker.log()
    stored = _rows()
    # Computed again in this process: the very same floats.
    assert stored == ratings.ratings_compute()

    # Asked again, and the task sent once more by hand: nothing changes (the rows keep their
    # ids and values).
    ids = sorted(RatingEntry.objects.values_list("pk", flat=True))
    runs = RatingState.objects.get().runs
    rating_requests.ratings_request(old.pk)
    ratings_recompute.delay()
    wait_for(lambda: RatingState.objects.get().runs > runs and _settled())
    assert RatingState.objects.get().changed == 0
    assert _rows() == stored and sorted(RatingEntry.objects.values_list("pk", flat=True)) == ids

    # A ruling in the old event: the worker recomputes its standings, then the rating of the
    # old event and of the new one after it.
    before_new = {k: v for k, v in stored.items() if k[1] == new.pk}
    adjustment_set(
        table=old_round.tables.get(number=1),
        board=old.boards.get(number=2),
        seat="W",
        kind="avg-",
        actor=td,
    )
    wait_for(
        lambda: {k: v for k, v in _rows().items() if k[1] == new.pk} != before_new and _settled(),
        what="the worker to recompute the rating after the correction",
    )
    assert _rows() == ratings.ratings_compute()
