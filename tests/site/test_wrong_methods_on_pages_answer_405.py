"""A method no page takes (PUT, PATCH, DELETE, OPTIONS, TRACE, CONNECT) answers 405 with an
Allow header, the site's own page in the reader's language (the API's error shape at the
private links' JSON doors), instead of a CSRF refusal or the page itself. The API keeps
DRF's own answers (its OPTIONS describes the endpoint).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

WRONG = ("PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT")


@pytest.mark.parametrize("method", WRONG)
@pytest.mark.parametrize("url", ["/", "/organizer/", "/admin/login/"])
def test_a_method_no_page_takes_answers_405_with_allow(method: str, url: str) -> None:
    answer = Client(enforce_csrf_checks=True).generic(method, url)
    assert answer.status_code == 405
    allowed = {m.strip() for m in answer["Allow"].split(",")}
    assert {"GET", "HEAD", "POST"} <= allowed and method not in allowed
    text = answer.content.decode()
    assert "<html" in text and "does not take that method" in text


def test_the_405_page_speaks_the_readers_language() -> None:
    answer = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").put("/")
    assert answer.status_code == 405
    assert "不接受该请求方法" in answer.content.decode()


def test_a_json_door_answers_405_in_the_apis_shape(table_token, world) -> None:
    url = f"/t/{table_token}/boards/{world.boards[0].number}/entry/"
    answer = Client(enforce_csrf_checks=True).delete(url)
    assert answer.status_code == 405 and "Allow" in answer
    assert answer.json()["error"]["code"] == "method_not_allowed"


def test_pages_still_answer_get_head_and_post() -> None:
    client = Client()
    assert client.get("/").status_code == 200
    assert client.head("/").status_code == 200
    assert client.post(reverse("account_login"), {}).status_code == 200


def test_the_api_keeps_drfs_answers() -> None:
    client = Client()
    options = client.options(reverse("api:token"))
    assert options.status_code == 200
    put = client.put(reverse("api:token"), "{}", content_type="application/json")
    assert put.status_code == 405
    assert put.json()["error"]["code"] == "method_not_allowed"


@pytest.fixture
def world():
    from tests.entry_personas import build_world

    return build_world(seed="trial-methods")


def test_opening_a_buttons_address_answers_the_sites_page_with_a_way_back() -> None:
    """A button's address (POST only) opened as a page, as a sign-in's ``next`` does after a
    form was sent signed out: the site's 405 page in the reader's language, with a way back to
    the event (a trial saw Chromium's blank "HTTP ERROR 405")."""
    from django.contrib.auth import get_user_model

    from tests.factories import EventFactory
    from tournaments.models import EventRole, Role

    event = EventFactory()
    td = get_user_model().objects.create_user("button-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.force_login(td)
    answer = client.get(f"/organizer/events/{event.slug}/finish/")
    assert answer.status_code == 405
    assert answer["Allow"] == "POST"
    text = answer.content.decode()
    assert "<html" in text and "不接受该请求方法" in text
    assert f'href="/events/{event.slug}/"' in text  # back to the event


def test_the_405_page_names_the_signed_in_visitor() -> None:
    """A trial's organizer sent a PUT signed in and got a page whose header offered to sign in:
    the refusal came before the visitor was known."""
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("method-td", password="x")
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(get_user_model().objects.get(username="method-td"))
    answer = client.put("/")
    assert answer.status_code == 405
    assert "method-td" in answer.content.decode()


@pytest.mark.parametrize(
    "name", ["standings", "event", "standings_live", "standings_csv", "archive"]
)
def test_a_post_to_a_page_that_only_shows_answers_405_not_expired(name: str) -> None:
    """A POST to a page that only shows (the standings) was refused as "This page has
    expired" (the CSRF check came first), which sends a visitor reloading in vain; it is a
    method the page does not take."""
    from tests.factories import EventFactory

    event = EventFactory()
    answer = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en").post(
        reverse(f"public:{name}", args=[event.slug]), {"x": "1"}
    )
    assert answer.status_code == 405
    assert {m.strip() for m in answer["Allow"].split(",")} == {"GET", "HEAD"}
    assert "expired" not in answer.content.decode()


def test_a_post_to_the_other_pages_that_only_show_answers_405() -> None:
    """Clubs, series, profiles, the ratings' CSV and the deals' page answered a POST with the
    page itself (the second trial of the session)."""
    from tests.factories import EventFactory, PlayerFactory

    event, player = EventFactory(), PlayerFactory()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    for url in (
        reverse("league:person", args=[player.pk]),
        reverse("league:person_csv", args=[player.pk]),
        reverse("ratings:csv"),
        reverse("deals:event", args=[event.slug]),
    ):
        answer = client.post(url, {"x": "1"})
        assert answer.status_code == 405, url
