"""The standings page names a signed-in visitor from his session and a copy of his identity in
the shared cache (ddz_site.web.visitors), on a real Redis: no query once the copy is made,
and never a name Django itself would refuse. A password changed, an account deactivated,
renamed or deleted, a session whose hash is not the account's: the next page is a stranger's
(or carries the new name), as Django's own authentication would make it."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import HASH_SESSION_KEY, get_user_model
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from redis import Redis

from tests.factories import bot_record, duplicate_round
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

REDIS = os.environ.get("DDZ_TEST_SHARED_CACHE_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def shared_redis(settings):
    """The shared cache on Redis, private to this run, as a deployment with DDZ_CACHE_URL."""
    settings.CACHES = {
        **settings.CACHES,
        "shared": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS,
            "KEY_PREFIX": f"visitors-{os.getpid()}",
        },
    }
    settings.DDZ_SHARED_CACHE = True
    _forget_ours()
    yield caches["shared"]
    _forget_ours()


def _forget_ours() -> None:
    # This run's keys only: the cache's clear() would empty the whole Redis database, another
    # run's keys with it.
    redis = Redis.from_url(REDIS)
    for key in redis.scan_iter(f"visitors-{os.getpid()}:*"):
        redis.delete(key)


@pytest.fixture
def url() -> str:
    event, _round, tables, boards = duplicate_round(tables=2, boards=1, seed="visitor")
    for table in tables:
        game = game_submit(table=table, board=boards[0], record=bot_record(boards[0], table))
        game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    return reverse("public:standings", kwargs={"slug": event.slug})


@pytest.fixture
def visitor():
    user = get_user_model().objects.create_user("ada-visitor", password="first-password")
    client = Client()
    client.force_login(user)
    return user, client


def _named(client: Client, url: str, name: str) -> bool:
    body = client.get(url).content.decode()
    signed_in = f'<span class="who">{name}</span>' in body
    # A stranger's header offers to sign in; a visitor's never does.
    assert signed_in != (reverse("account_login") + "?next=" in body)
    return signed_in


def test_the_second_page_names_the_visitor_without_a_query(
    shared_redis, url, visitor, django_assert_num_queries
) -> None:
    _user, client = visitor
    assert _named(client, url, "ada-visitor")  # the first reads his row and keeps the copy
    # The session itself is in the database in the tests (no session cache): one query.
    with django_assert_num_queries(1):
        assert _named(client, url, "ada-visitor")


def test_a_changed_password_signs_the_other_sessions_out(shared_redis, url, visitor) -> None:
    user, client = visitor
    assert _named(client, url, "ada-visitor")
    user.set_password("second-password")
    user.save()
    assert not _named(client, url, "ada-visitor")


def test_a_deactivated_account_is_a_stranger_at_once(shared_redis, url, visitor) -> None:
    user, client = visitor
    assert _named(client, url, "ada-visitor")
    user.is_active = False
    user.save()
    assert not _named(client, url, "ada-visitor")


def test_a_renamed_account_shows_its_new_name(shared_redis, url, visitor) -> None:
    user, client = visitor
    assert _named(client, url, "ada-visitor")
    user.username = "ada-renamed"
    user.save()
    assert _named(client, url, "ada-renamed")


def test_a_deleted_account_is_a_stranger(shared_redis, url, visitor) -> None:
    user, client = visitor
    assert _named(client, url, "ada-visitor")
    user.delete()
    assert not _named(client, url, "ada-visitor")


def test_a_session_hash_not_the_accounts_is_refused(shared_redis, url, visitor) -> None:
    _user, client = visitor
    assert _named(client, url, "ada-visitor")
    session = client.session
    session[HASH_SESSION_KEY] = "0" * 64
    session.save()
    assert not _named(client, url, "ada-visitor")


def test_a_copy_left_by_a_bulk_update_expires(shared_redis, url, visitor) -> None:
    user, client = visitor
    assert _named(client, url, "ada-visitor")
    # A bulk update sends no signal: the copy is dropped by its own expiry (IDENTITY_SECONDS).
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    redis = Redis.from_url(REDIS)
    (key,) = redis.keys(f"visitors-{os.getpid()}:*:visitor-identity:{user.pk}")
    assert 0 < redis.ttl(key) <= 30
    shared_redis.delete(f"visitor-identity:{user.pk}")  # as the expiry would
    assert not _named(client, url, "ada-visitor")


def test_without_a_shared_cache_django_finds_the_visitor(
    settings, url, visitor, django_assert_num_queries
) -> None:
    settings.DDZ_SHARED_CACHE = False
    _user, client = visitor
    assert _named(client, url, "ada-visitor")
    with django_assert_num_queries(2):  # his session and his row, each time
        assert _named(client, url, "ada-visitor")


def test_a_shared_cache_that_does_not_answer_leaves_the_page_to_django(
    settings, url, visitor
) -> None:
    # Nothing listens on port 1: every read and write of the copy fails at once.
    settings.CACHES = {
        **settings.CACHES,
        "shared": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
    settings.DDZ_SHARED_CACHE = True
    user, client = visitor
    assert _named(client, url, "ada-visitor")
    # A change of his account is not refused for it, and still signs the session out.
    user.set_password("second-password")
    user.save()
    assert not _named(client, url, "ada-visitor")
