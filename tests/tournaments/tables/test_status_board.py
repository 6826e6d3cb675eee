"""The referees' status board: the boards of an event of imported games each in its cell
(page and API), and its counts naming the submitted state in Chinese.
"""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game, Status
from tests.factories import EventFactory
from tests.paths import DATA_DIR, ROOT_DIR
from tournaments.archive.records import records_import
from tournaments.models import EventRole, Role
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

DATA = DATA_DIR


def _organizer(event):
    user = get_user_model().objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=user, role=Role.ORGANIZER)
    return user


def _zh(client: Client) -> Client:
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    return client


def test_the_status_board_shows_the_boards_of_imported_games() -> None:
    lines = (DATA / "rlcard_rule_agents.jsonl").read_text(encoding="utf-8").splitlines()[:2]
    again = json.dumps({**json.loads(lines[0]), "id": "the-first-deal-played-again"})
    event = EventFactory(rules=None)
    report = records_import(event=event, lines=[*lines, again])
    assert report.stored == 3
    for game in Game.objects.all():
        game_verify(game_id=game.pk)
    assert Game.objects.filter(status=Status.VERIFIED).count() == 3
    td = _organizer(event)

    # The first deal was played at tables 1 and 2, the second at table 1: three verified cells.
    api = APIClient()
    api.force_authenticate(td)
    rows = api.get(reverse("api:tables", args=[event.slug])).json()
    cells = {row["number"]: [(c["board"], c["state"]) for c in row["cells"]] for row in rows}
    assert cells == {1: [(1, "verified"), (2, "verified")], 2: [(1, "verified")]}

    client = Client()
    client.force_login(td)
    page = client.get(reverse("referee:status", args=[event.slug])).content.decode()
    assert "verified: 3" in page
    assert page.count('data-state="verified"') == 3


def test_the_status_boards_counts_name_the_submitted_state_in_chinese() -> None:
    import re

    event = EventFactory()
    td = _organizer(event)
    client = _zh(Client())
    client.force_login(td)
    page = client.get(reverse("referee:status", args=[event.slug])).content.decode()
    counts = re.search(r'<p id="status-counts">(.*?)</p>', page, re.S)
    assert counts
    text = re.sub(r"<[^>]+>", "", counts.group(1))
    # "submitted" is the state (waiting for the engine), not the time of submission.
    assert "已提交: 0" in text and "提交时间" not in text


def test_the_board_says_when_it_was_read_in_the_events_zone() -> None:
    """The "refreshed" stamp was the browser's clock in the browser's zone, with no zone
    named: a referee's laptop in UTC read 06:00 where the hall's clocks said 14:00. The
    board now says when the server read it, in the event's zone, the zone named, like every
    other time on the officials' pages."""
    from datetime import UTC, datetime, timedelta

    from django.utils import formats

    from tournaments.models import Event

    event = EventFactory()
    Event.objects.filter(pk=event.pk).update(time_zone="Asia/Shanghai")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(_organizer(event))
    for url in (
        reverse("referee:status", args=[event.slug]),
        reverse("referee:status", args=[event.slug]) + "?fragment=1",
    ):
        before = datetime.now(UTC)
        page = client.get(url).content.decode()
        after = datetime.now(UTC)
        # Shanghai is UTC+8 all year; the read falls between the two clock readings.
        said = {
            formats.date_format((t + timedelta(hours=8)).replace(tzinfo=None), "DATETIME_FORMAT")
            + " (Asia/Shanghai)"
            for t in (before, after)
        }
        assert any(f"As of {s}" in page for s in said), said
    script = (ROOT_DIR / "games" / "static" / "games" / "status_board.js").read_text()
    assert "toLocaleTimeString" not in script
