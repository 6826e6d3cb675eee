"""A request too large (a 5 MB body, or a form of too many fields) answers 413 in the
site's own shape: the API's error shape at the JSON doors, an error page in the reader's
language for a form (never Django's debug page, even with DEBUG on); nothing is stored.
"""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db

FIVE_MB = 5 * 1024 * 1024


def test_an_oversized_body_answers_413_in_the_apis_shape(linked, django_user_model) -> None:
    world, tokens = linked
    body = b'{"a": "' + b"x" * FIVE_MB + b'"}'
    client = Client()
    for url in (
        reverse("api:token"),
        reverse("links:entry", args=[tokens[0], 1]),
        reverse("links:games", args=[tokens[0], 1]),
        f"/api/events/{world.event.slug}/tables/1/boards/1/games/",
    ):
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == 413, url
        error = answer.json()["error"]
        assert error["code"] == "too_large", url
        assert "too large" in error["message"], url
    assert Game.objects.count() == 0


def test_an_oversized_form_answers_an_error_page_in_both_languages(linked) -> None:
    world, tokens = linked
    body = "landlord=S&bid=1&winner=farmers&bombs=" + "x" * FIVE_MB
    url = reverse("links:quick", args=[tokens[0], 1])
    for language, words in (("en", "too large"), ("zh-hans", "太大")):
        answer = Client(HTTP_ACCEPT_LANGUAGE=language).post(
            url, body, content_type="application/x-www-form-urlencoded"
        )
        assert answer.status_code == 413
        text = answer.content.decode()
        assert words in text and "<html" in text and "Traceback" not in text
    assert Game.objects.count() == 0


@override_settings(DEBUG=True)
def test_an_oversized_form_is_no_debug_page_with_debug_on(linked) -> None:
    _world, tokens = linked
    body = "note=" + "x" * FIVE_MB
    answer = Client().post(
        reverse("links:quick", args=[tokens[0], 1]),
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 413
    assert "RequestDataTooBig" not in answer.content.decode()


def test_a_form_of_too_many_fields_answers_an_error_page(linked) -> None:
    _world, tokens = linked
    body = "&".join(f"f{i}=1" for i in range(1500))  # over DATA_UPLOAD_MAX_NUMBER_FIELDS
    answer = Client().post(
        reverse("links:quick", args=[tokens[0], 1]),
        body,
        content_type="application/x-www-form-urlencoded",
    )
    assert answer.status_code == 413
    text = answer.content.decode()
    assert "too many fields" in text and "<html" in text
    assert Game.objects.count() == 0
