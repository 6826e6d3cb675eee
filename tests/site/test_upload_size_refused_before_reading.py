"""A body announced larger than the site takes (its Content-Length) answers 413 before
anything reads it, whatever its content type: a multipart upload too (Django counts only a
multipart form's fields as it reads, so its files were read and spooled whole, then refused
by the view). The largest upload the site takes, the players file, still goes through.

No test here sends a big body: the Content-Length says 30 MB and the body holds a few bytes
that nothing may read.
"""

from __future__ import annotations

import io

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from ddz_site.web.middleware import refuse_too_big
from tests.factories import EventFactory
from tournaments.models import EventRole, Role
from tournaments.web.people.players import CSV_MAX_BYTES

THIRTY_MB = 30 * 1024 * 1024
SMALL_MULTIPART = (
    b"--BoUnDaRy\r\n"
    b'Content-Disposition: form-data; name="file"; filename="big.bin"\r\n'
    b"Content-Type: application/octet-stream\r\n\r\n"
    b"x\r\n"
    b"--BoUnDaRy--\r\n"
)
CONTENT_TYPES = (
    "multipart/form-data; boundary=BoUnDaRy",
    "application/octet-stream",
    "text/csv",
    "",
)


class _UnreadStream(io.BytesIO):
    """A request body that records whether anything read it."""

    read_at_all = False

    def read(self, *args: object) -> bytes:
        self.read_at_all = True
        return super().read(*args)  # type: ignore[arg-type]

    def readline(self, *args: object) -> bytes:
        self.read_at_all = True
        return super().readline(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
def test_a_body_announced_too_large_never_reaches_the_view(content_type: str) -> None:
    called: list[HttpRequest] = []

    def view(request: HttpRequest) -> HttpResponse:
        called.append(request)
        return HttpResponse("read")

    stream = _UnreadStream(SMALL_MULTIPART)
    request = RequestFactory().generic(
        "POST",
        "/organizer/events/cup/players/",
        SMALL_MULTIPART,
        content_type=content_type,
        CONTENT_LENGTH=str(THIRTY_MB),
        **{"wsgi.input": stream},
    )
    answer = refuse_too_big(view)(request)
    assert answer.status_code == 413
    assert called == [] and not stream.read_at_all


@pytest.mark.django_db
def test_an_anonymous_multipart_upload_to_the_token_door_answers_413_unread() -> None:
    stream = _UnreadStream(SMALL_MULTIPART)
    answer = Client().generic(
        "POST",
        reverse("api:token"),
        SMALL_MULTIPART,
        content_type="multipart/form-data; boundary=BoUnDaRy",
        CONTENT_LENGTH=str(THIRTY_MB),
        **{"wsgi.input": stream},
    )
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "too_large"
    assert not stream.read_at_all


def _organizer_client() -> tuple[Client, str]:
    event = EventFactory()
    user = get_user_model().objects.create_user("td-upload", password="pw")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    client = Client()
    client.force_login(user)
    return client, reverse("organizer:players", args=[event.slug])


@pytest.mark.django_db
def test_a_players_file_announced_too_large_answers_the_413_page_unread() -> None:
    client, url = _organizer_client()
    stream = _UnreadStream(SMALL_MULTIPART)
    answer = client.generic(
        "POST",
        url,
        SMALL_MULTIPART,
        content_type="multipart/form-data; boundary=BoUnDaRy",
        CONTENT_LENGTH=str(THIRTY_MB),
        **{"wsgi.input": stream},
    )
    assert answer.status_code == 413
    text = answer.content.decode()
    assert "too large" in text and "<html" in text
    assert not stream.read_at_all


def test_the_largest_upload_fits_the_sites_body_limit() -> None:
    # The players file (1 MB) with its form around it (the CSRF token, the boundaries).
    assert CSV_MAX_BYTES + 64 * 1024 <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE


@pytest.mark.django_db
def test_a_players_file_of_the_largest_size_is_not_refused_as_too_large() -> None:
    client, url = _organizer_client()
    # One name far too long: the import refuses it (400), never the body's size.
    content = b"name,club\n" + b"a" * (CSV_MAX_BYTES - len(b"name,club\n") - 1) + b"\n"
    assert len(content) <= CSV_MAX_BYTES
    answer = client.post(url, {"file": SimpleUploadedFile("players.csv", content)})
    assert answer.status_code != 413
    assert "The file is larger than 1 MB." not in answer.content.decode()
