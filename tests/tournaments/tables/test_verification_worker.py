"""The whole write path through a real Celery worker process on Redis and PostgreSQL.

These tests commit (transaction=True) so that the worker, another process, sees their data.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Game, Status
from tests.conftest import Worker, wait_for
from tests.factories import bot_record, duplicate_round
from tournaments.models import Standing, StandingsState
from tournaments.tables.submission import game_submit
from tournaments.tasks import recompute_standings, verify_game

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _all_verified(event) -> bool:
    games = Game.objects.filter(board__event=event)
    return games.exists() and not games.filter(status=Status.PENDING).exists()


def test_a_submitted_game_reaches_the_standings_page_by_way_of_the_worker(
    celery_worker: Worker, client
) -> None:
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="worker")
    board = boards[0]
    games = [
        game_submit(table=table, board=board, record=bot_record(board, table)) for table in tables
    ]
    # Nothing in this process verifies: the games stay pending until the worker runs.
    wait_for(lambda: _all_verified(event), what="the worker to verify the games")
    wait_for(
        lambda: Standing.objects.filter(event=event).count() == 9,
        what="the worker to recompute the standings",
    )
    statuses = set(
        Game.objects.filter(pk__in=[g.pk for g in games]).values_list("status", flat=True)
    )
    assert statuses == {Status.VERIFIED}

    page = client.get(reverse("public:event", kwargs={"slug": event.slug}))
    assert page.status_code == 200
    html = page.content.decode()
    best = Standing.objects.filter(event=event).order_by("position").select_related("player")[0]
    assert best.player.name in html and f"<td>{best.rank}</td>" in html

    log = celery_worker.log()
    assert "games.tasks.verify_game" in log and "succeeded" in log
    # The standings were recomputed by the worker: at once after its verification, or as a
    # task (tournaments.standings.requests.standings_request).
    assert StandingsState.objects.get(event=event).runs >= 1


def test_tasks_run_twice_change_nothing(celery_worker: Worker) -> None:
    event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="twice")
    board = boards[0]
    for table in tables:
        game_submit(table=table, board=board, record=bot_record(board, table))
    wait_for(lambda: _all_verified(event) and Standing.objects.filter(event=event).count() == 9)
    before_games = list(Game.objects.order_by("pk").values("pk", "status", "score", "verified_at"))
    before_rows = list(Standing.objects.order_by("pk").values())
    for game in before_games:
        verify_game.delay(game["pk"])
    recompute_standings.delay(event.pk)
    marker = verify_game.delay(10**9)  # processed after the others (one solo worker, FIFO)
    wait_for(
        lambda: f"{marker.id}] succeeded" in celery_worker.log(), what="the repeated tasks to run"
    )
    assert list(Game.objects.order_by("pk").values("pk", "status", "score", "verified_at")) == (
        before_games
    )
    assert list(Standing.objects.order_by("pk").values()) == before_rows


def test_a_bad_game_never_crashes_the_task(celery_worker: Worker, client) -> None:
    event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="bad")
    board = boards[0]
    record = bot_record(board, tables[0])
    seat = record["plays"][0][0]
    record["plays"][0] = [seat, "pass"]  # the landlord must lead (R-LEAD)
    game = game_submit(table=tables[0], board=board, record=record)
    wait_for(lambda: Game.objects.get(pk=game.pk).status != Status.PENDING)
    game.refresh_from_db()
    assert game.status == Status.ILLEGAL and game.error["index"] == 0
    page = client.get(reverse("public:game", kwargs={"pk": game.pk})).content.decode()
    assert 'id="engine-error"' in page and game.error["message"] in page
    assert "Traceback" not in celery_worker.log()
