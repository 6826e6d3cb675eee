"""Sign-in and API tokens.

- Wrong passwords are counted per account and address (django-axes, AXES_FAILURE_LIMIT, the
  environment's DDZ_LOGIN_FAILURE_LIMIT): at the limit the sign-in page and the token door
  answer 429, even to the right password, for that account from that address only; another
  address, or another account from the same address, still signs in. A sign-in that succeeds
  clears the account's count at its address.
- ``POST /api/auth/token/`` also answers 429 to more requests from one address than
  DDZ_TOKEN_REQUESTS_PER_MINUTE, whatever the accounts (a DRF throttle).
- API tokens (django-rest-knox) are stored hashed and expire (DDZ_API_TOKEN_HOURS): the door
  answers ``{"token": "…", "expiry": "ISO 8601"}``.
- The API's default permission is "authenticated"; the public read views opt out by name.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.settings import api_settings
from rest_framework.test import APIClient

from tests.entry_personas import build_world
from tournaments.api import urls as api_urls

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

PASSWORD = "the-right-password-1"
HERE, THERE = "203.0.113.7", "198.51.100.9"  # documentation addresses (RFC 5737)


@pytest.fixture
def users():
    make = get_user_model().objects.create_user
    return make("sign-in-a", password=PASSWORD), make("sign-in-b", password=PASSWORD)


def _page(client: Client, username: str, password: str, address: str):
    # The one sign-in page (django-allauth's): its field takes a user name or an address.
    return client.post(
        reverse("account_login"),
        {"login": username, "password": password},
        REMOTE_ADDR=address,
    )


def _token(client: APIClient, username: str, password: str, address: str):
    return client.post(
        reverse("api:token"),
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def test_the_sign_in_page_locks_an_account_at_one_address(users) -> None:
    a, b = users
    limit = settings.AXES_FAILURE_LIMIT
    assert limit >= 3
    for _ in range(limit - 1):
        wrong = _page(Client(), a.username, "wrong", HERE)
        assert wrong.status_code == 200 and "did not match" in wrong.content.decode()
    assert _page(Client(), a.username, "wrong", HERE).status_code == 429
    # Locked: even the right password from that address, and nobody is signed in.
    locked = Client()
    assert _page(locked, a.username, PASSWORD, HERE).status_code == 429
    assert "_auth_user_id" not in locked.session
    # The same account from another address, another account from this one: still open.
    assert _page(Client(), a.username, PASSWORD, THERE).status_code == 302
    assert _page(Client(), b.username, PASSWORD, HERE).status_code == 302


def test_the_lockout_page_says_why_in_the_site(users) -> None:
    a, _b = users
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = _page(Client(), a.username, "wrong", HERE)
    assert response.status_code == 429
    body = response.content.decode()
    assert "Too many failed sign-ins" in body and "<header>" in body
    # For how long, as the README says (DDZ_LOGIN_LOCKOUT_MINUTES), not "a while".
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    assert f"locked from this address for {minutes} minutes" in body
    chinese = _page(Client(HTTP_ACCEPT_LANGUAGE="zh-CN"), a.username, "wrong", HERE)
    assert f"锁定 {minutes} 分钟" in chinese.content.decode()


def test_a_successful_sign_in_clears_the_count(users) -> None:
    a, _b = users
    limit = settings.AXES_FAILURE_LIMIT
    for _round in range(3):
        for _ in range(limit - 1):
            assert _page(Client(), a.username, "wrong", HERE).status_code == 200
        assert _page(Client(), a.username, PASSWORD, HERE).status_code == 302


def test_the_token_door_locks_an_account_at_one_address(users) -> None:
    a, b = users
    limit = settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        wrong = _token(APIClient(), a.username, "wrong", HERE)
        assert wrong.status_code == 400 and wrong.json()["error"]["code"] == "invalid"
    locked = _token(APIClient(), a.username, "wrong", HERE)
    assert locked.status_code == 429 and locked.json()["error"]["code"] == "throttled"
    assert _token(APIClient(), a.username, PASSWORD, HERE).status_code == 429
    assert _token(APIClient(), a.username, PASSWORD, THERE).status_code == 200
    assert _token(APIClient(), b.username, PASSWORD, HERE).status_code == 200
    # The page and the door count together: the page is locked for a at HERE too.
    assert _page(Client(), a.username, PASSWORD, HERE).status_code == 429


def test_the_token_door_throttles_one_address_whatever_the_accounts(users) -> None:
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["token"]
    count, per = rate.split("/")
    assert per == "minute"
    # Each request names a new account, so no lockout is reached: only the address counts.
    for i in range(int(count)):
        assert _token(APIClient(), f"nobody-{i}", "wrong", HERE).status_code == 400
    flood = _token(APIClient(), "nobody-else", "wrong", HERE)
    assert flood.status_code == 429 and flood.json()["error"]["code"] == "throttled"
    assert "Retry-After" in flood
    assert _token(APIClient(), users[1].username, PASSWORD, THERE).status_code == 200


def test_tokens_are_stored_hashed_and_expire(users) -> None:
    from knox.models import AuthToken

    a, _b = users
    before = timezone.now()
    answer = _token(APIClient(), a.username, PASSWORD, HERE)
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"token", "expiry"}
    token, expiry = body["token"], parse_datetime(body["expiry"])
    hours = timedelta(hours=settings.REST_KNOX["TOKEN_TTL"].total_seconds() / 3600)
    assert before + hours <= expiry <= timezone.now() + hours
    stored = AuthToken.objects.get(user=a)
    assert token not in (stored.digest, stored.token_key) and token.startswith(stored.token_key)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get(reverse("api:schema")).status_code == 200
    world_free = reverse("api:flagged", kwargs={"slug": "no-such-event"})
    assert client.get(world_free).status_code == 404  # authenticated: past the permission
    AuthToken.objects.filter(pk=stored.pk).update(expiry=timezone.now() - timedelta(seconds=1))
    expired = client.get(world_free)
    assert expired.status_code == 401
    assert expired.json()["error"]["code"] == "authentication_failed"


# The API's public read views: everything else needs an authenticated user.
# The event (its announcement: dates, venue, status, registration) is as public as its page.
PUBLIC = {"token", "event", "game", "board-games", "schema", "swagger", "redoc"}


def test_the_api_is_authenticated_by_default() -> None:
    assert [IsAuthenticated] == api_settings.DEFAULT_PERMISSION_CLASSES
    for pattern in api_urls.urlpatterns:
        assert isinstance(pattern, URLPattern)
        view = pattern.callback.cls  # type: ignore[attr-defined]
        classes = list(view.permission_classes)
        if pattern.name in PUBLIC:
            assert classes == [AllowAny], pattern.name
        else:
            assert IsAuthenticated in classes, pattern.name


def test_public_reads_stay_open_and_the_rest_answers_401() -> None:
    from tests.factories import bot_record
    from tournaments.tables.submission import game_submit
    from tournaments.tables.verification import game_verify

    world = build_world(seed="sign-in")
    board = world.boards[0]
    games = [
        game_submit(table=table, board=board, record=bot_record(board, table))
        for table in world.tables
    ]
    for game in games:
        game_verify(game_id=game.pk)
    anonymous = APIClient()
    for name in ("schema", "swagger", "redoc"):
        assert anonymous.get(reverse(f"api:{name}")).status_code == 200, name
    # Every table has played the board, so its games are public.
    kwargs = {"slug": world.event.slug, "number": board.number}
    listed = anonymous.get(reverse("api:board-games", kwargs=kwargs))
    assert listed.status_code == 200 and len(listed.json()) == len(world.tables)
    assert anonymous.get(reverse("api:game", kwargs={"pk": games[0].pk})).status_code == 200
    for name, kwargs in [
        ("tables", {"slug": world.event.slug}),
        ("flagged", {"slug": world.event.slug}),
        ("audit", {"slug": world.event.slug}),
        ("confirm", {"pk": games[0].pk}),
    ]:
        call = anonymous.post if name == "confirm" else anonymous.get
        response = call(reverse(f"api:{name}", kwargs=kwargs))
        assert response.status_code == 401, name
        assert response.json()["error"]["code"] == "not_authenticated"


def test_a_user_name_longer_than_any_account_is_refused_like_a_wrong_one(users) -> None:
    """A user name of 300 characters is no server error on any sign-in door (django-axes
    stores the attempt's name in a varchar(255) on PostgreSQL, and SQLite would store names
    of megabytes): the attempt is counted under the name cut to the longest an account can
    have, and refused as any wrong name."""
    from axes.models import AccessAttempt

    long = "u" * 300
    page = _page(Client(), long, "x", HERE)
    assert page.status_code == 200 and 'name="login"' in page.content.decode()
    token = _token(APIClient(), long, "x", HERE)
    assert token.status_code == 400, token.content
    admin = Client().post("/admin/login/", {"username": long, "password": "x"}, REMOTE_ADDR=HERE)
    assert admin.status_code == 200
    names = set(AccessAttempt.objects.values_list("username", flat=True))
    assert names == {"u" * 150}


@pytest.mark.parametrize("path", ["/api/clubs/", "/api/games/1/", "/api/ratings/"])
def test_a_token_that_is_not_utf8_is_refused_as_a_wrong_token(path: str) -> None:
    """`Authorization: Token \\xff\\xfe` is refused as a wrong token in the API's error shape,
    never a server error, on every API endpoint, public reads included."""
    answer = Client().get(path, HTTP_AUTHORIZATION=b"Token \xff\xfe".decode("latin-1"))
    assert answer.status_code == 401, answer.content
    assert json.loads(answer.content)["error"]["code"] == "authentication_failed"
