"""A burst of submissions sends one verification message while none is taken: a verification
takes the oldest pending games whichever game its message names, so the others would only find
their games verified already (1,148 of 1,200 such messages were still queued after the
600-player burst). The flag lives in the shared cache (a real Redis here); the worker that
takes the message lowers it, and one whose batch came full sends the next."""

from __future__ import annotations

import os

import pytest
from django.core.cache import caches

from ddz_site.kernel import dispatch
from games.models import Game, Status
from tests.factories import bot_record, duplicate_round
from tournaments.tables import verification
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared_redis(settings):
    settings.CACHES = {
        **settings.CACHES,
        "shared": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/13",
            "KEY_PREFIX": f"ddz-test-{os.getpid()}",
        },
    }
    caches["shared"].delete(verification.VERIFY_WAITING)
    yield caches["shared"]
    caches["shared"].delete(verification.VERIFY_WAITING)


@pytest.fixture
def sent(monkeypatch):
    """The messages published (the broker's door; what is under test is which are sent)."""
    out: list[tuple[str, tuple]] = []

    def publish(name, *args, countdown=None):
        out.append((name, args))
        return True

    monkeypatch.setattr(dispatch, "enqueue", publish)
    return out


def _submit_all(tables, board, capture) -> list[int]:
    ids = []
    with capture(execute=True):
        for table in tables:
            ids.append(game_submit(table=table, board=board, record=bot_record(board, table)).pk)
    return ids


def test_a_burst_sends_one_message_until_a_worker_takes_it(
    shared_redis, sent, django_capture_on_commit_callbacks
) -> None:
    _event, _round, tables, boards = duplicate_round(tables=5, boards=1, seed="coalesce")
    ids = _submit_all(tables[:4], boards[0], django_capture_on_commit_callbacks)
    assert sent == [(dispatch.VERIFY_GAME, (ids[0],))]  # one message for four games
    # The worker takes it: all four verified in one batch, and the flag is down.
    assert verification.verification_run(game_id=ids[0]) is True
    assert set(Game.objects.filter(pk__in=ids).values_list("status", flat=True)) == {
        Status.VERIFIED
    }
    # The next game sends a message of its own.
    more = _submit_all(tables[4:], boards[0], django_capture_on_commit_callbacks)
    assert sent[1:] == [(dispatch.VERIFY_GAME, (more[0],))]


def test_a_full_batch_sends_the_next_message(
    shared_redis, sent, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    monkeypatch.setattr(verification, "VERIFY_BATCH", 2)
    _event, _round, tables, boards = duplicate_round(tables=5, boards=1, seed="chain")
    ids = _submit_all(tables, boards[0], django_capture_on_commit_callbacks)
    assert len(sent) == 1
    verification.verification_run(game_id=ids[0])  # the two oldest; more wait
    assert len(sent) == 2
    verification.verification_run(game_id=ids[0])
    verification.verification_run(game_id=ids[0])  # the last one: a batch not full
    assert len(sent) == 3
    assert not Game.objects.filter(pk__in=ids, status=Status.PENDING).exists()


def test_without_a_shared_cache_every_game_sends(sent, django_capture_on_commit_callbacks) -> None:
    # Each process's memory cannot tell another that its message was taken.
    _event, _round, tables, boards = duplicate_round(tables=3, boards=1, seed="alone")
    ids = _submit_all(tables, boards[0], django_capture_on_commit_callbacks)
    assert sent == [(dispatch.VERIFY_GAME, (i,)) for i in ids]


def test_a_cache_that_does_not_answer_sends_as_without_one(
    settings, sent, django_capture_on_commit_callbacks
) -> None:
    settings.CACHES = {
        **settings.CACHES,
        "shared": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        },
    }
    _event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="down")
    ids = _submit_all(tables, boards[0], django_capture_on_commit_callbacks)
    assert sent == [(dispatch.VERIFY_GAME, (i,)) for i in ids]
