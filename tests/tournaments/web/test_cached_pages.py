"""Cached pages never carry a person.

Every public page that is served from the cache (the standings page, the event home and the
live standings fragment they both embed) is opened by a signed-in visitor first and then by a
stranger: the stranger's copy must carry neither the first visitor's name nor a CSRF token,
and the other way round a signed-in visitor must never get the stranger's copy (with "Sign in"
instead of his name).
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import bot_record, duplicate_round
from tournaments.models import Event, Stage
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

NAME = "visitor-with-a-name"


@pytest.fixture
def event() -> Event:
    event, round_, tables, boards = duplicate_round(tables=2, boards=1, seed="cached")
    round_.stage = Stage.objects.create(event=event, number=1, name="Q")
    round_.save()
    board = boards[0]
    for table in tables:
        game = game_submit(table=table, board=board, record=bot_record(board, table))
        game_verify(game_id=game.pk)
    standings_recompute(event_id=event.pk)
    return Event.objects.get(pk=event.pk)


def _signed_in() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user(NAME, password="not-used"))
    return client


CACHED = [
    ("public:standings", ""),
    ("public:standings", "?stage=1"),
    ("public:event", ""),
    ("public:standings_live", ""),
]


@pytest.mark.parametrize("name, query", CACHED)
def test_a_stranger_never_gets_the_signed_in_visitors_copy(event, name, query) -> None:
    url = reverse(name, kwargs={"slug": event.slug}) + query
    mine = _signed_in().get(url)
    assert mine.status_code == 200
    if name != "public:standings_live":  # the fragment has no header at all
        assert NAME in mine.content.decode()
    for _ in range(2):  # the first copy, then the one a cache would keep
        theirs = Client().get(url)
        body = theirs.content.decode()
        assert theirs.status_code == 200
        assert NAME not in body
        assert "csrfmiddlewaretoken" not in body
        assert "csrftoken" not in theirs.cookies


@pytest.mark.parametrize("name, query", CACHED)
def test_a_signed_in_visitor_never_gets_the_strangers_copy(event, name, query) -> None:
    url = reverse(name, kwargs={"slug": event.slug}) + query
    assert Client().get(url).status_code == 200
    mine = _signed_in().get(url)
    assert mine.status_code == 200
    if name != "public:standings_live":
        body = mine.content.decode()
        assert NAME in body and "csrfmiddlewaretoken" in body
        assert reverse("account_login") + "?next=" not in body


def test_the_strangers_standings_page_is_still_served_from_the_cache(
    event, django_assert_max_num_queries
) -> None:
    url = reverse("public:standings", kwargs={"slug": event.slug})
    _signed_in().get(url)
    stranger = Client()
    stranger.get(url)
    # A copy for strangers answers without the database (the version stamp is cached too).
    with django_assert_max_num_queries(0):
        assert stranger.get(url).status_code == 200


def test_a_signed_in_visitors_standings_page_is_the_cached_page_with_his_own_header(
    event, django_assert_max_num_queries
) -> None:
    """A signed-in visitor's page is as cheap as a stranger's but for his
    session and account (two reads): the cached page with his own header (name, sign-out form
    and CSRF token) put in place of the stranger's, even when no stranger came first."""
    url = reverse("public:standings", kwargs={"slug": event.slug})
    first, second = _signed_in(), Client()
    second.force_login(get_user_model().objects.create_user("second-visitor", password="x"))
    first.get(url)
    with django_assert_max_num_queries(2):
        page = second.get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert "second-visitor" in body and NAME not in body
    assert body.count("csrfmiddlewaretoken") == 1
    assert reverse("account_login") + "?next=" not in body
    # The page is the stranger's page but for the header.
    stranger = Client().get(url).content.decode()
    header = slice(body.index('id="account"'), body.index("</header>"))
    assert body[: header.start] == stranger[: header.start]
    assert body[body.index("</header>") :] == stranger[stranger.index("</header>") :]
    # And the sign-out form works with the token the page carried.
    token = body.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    second_csrf = Client(enforce_csrf_checks=True)
    second_csrf.cookies = second.cookies
    out = second_csrf.post(reverse("account_logout"), {"csrfmiddlewaretoken": token})
    assert out.status_code in (200, 302)
