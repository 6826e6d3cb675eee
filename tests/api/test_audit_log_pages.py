"""The audit log of the API comes a page at a time: ``limit`` entries (1 or more) from
``offset`` (0 or more), the count of all and the links beside; a limit or offset that is not
such a number is refused, 400 naming it, never read as the first page."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def audit():
    """The chief referee's client and the audit URL of an event with three entries."""
    world = build_world(seed="audit-pages")
    for table in world.tables:
        game_submit(table=table, board=world.boards[0], record=bot_record(world.boards[0], table))
    game_submit(
        table=world.tables[0],
        board=world.boards[1],
        record=bot_record(world.boards[1], world.tables[0]),
    )
    client = APIClient()
    client.force_authenticate(world.users["chief"])
    return client, reverse("api:audit", kwargs={"slug": world.event.slug})


def test_a_page_of_the_log(audit) -> None:
    client, url = audit
    page = client.get(url, {"limit": 2, "offset": 1}).json()
    assert page["count"] == 3 and len(page["results"]) == 2
    assert page["previous"] is not None and page["next"] is None
    # At most 500 a page (more is refused: test_audit_limit_above_500_refused); an offset
    # past the log, however long its number, is an empty page.
    many = client.get(url, {"limit": "500"})
    assert many.status_code == 200, many.content[:300]
    assert len(many.json()["results"]) == 3
    past = client.get(url, {"offset": "9" * 1000})
    assert past.status_code == 200 and past.json()["results"] == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("limit", "0"),
        ("limit", "-1"),
        ("limit", "abc"),
        ("limit", ""),
        ("offset", "-1"),
        ("offset", "null"),
        ("offset", "1.5"),
        ("offset", "٣"),  # a digit, but not one the schema's integer is written with
    ],
)
def test_a_limit_or_offset_that_is_not_a_whole_number_is_refused(audit, name, value) -> None:
    client, url = audit
    response = client.get(url, {name: value})
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid" and list(error["fields"]) == [name]
