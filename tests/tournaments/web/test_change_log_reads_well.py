"""The change log of an event, on its dashboard (the last entries) and on its own page (every
entry, newest first, a page at a time), for its organizers only: its times in the event's zone
(named once, in the heading), who made each change (a user, a private link, an online
entrant's device, or the system: a robot finishing a board, the window's close), and what
changed where a label alone says too little (a public name: old → new)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.entry_personas import build_world
from tests.factories import EventFactory, PlayerFactory, online_board_play, online_event
from tournaments.core.audit import audit_record
from tournaments.models import AuditEntry, Event, EventRole, Role

pytestmark = pytest.mark.django_db

NOON_UTC = datetime(2030, 1, 12, 12, 0, tzinfo=UTC)


def _organizer(event: Event) -> User:
    td = User.objects.create_user(f"td-{event.slug}", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    return td


def _get(user: User | None, url: str, language: str = "en") -> tuple[int, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    answer = client.get(url)
    return answer.status_code, answer.content.decode()


def _log(page: str) -> str:
    return page[page.index('id="audit"') :]


def _rows(page: str) -> list[str]:
    """The What of each row of the log's table, in page order."""
    return re.findall(r'<td class="text">([^<]*)', _log(page))


@pytest.mark.parametrize("where", ["dashboard", "changes"])
def test_the_times_are_in_the_events_zone_named_once_in_the_heading(where: str) -> None:
    event = EventFactory(time_zone="Asia/Shanghai")
    td = _organizer(event)
    entry = audit_record(event=event, actor=td, action="round.publish")
    AuditEntry.objects.filter(pk=entry.pk).update(at=NOON_UTC)
    status, page = _get(td, reverse(f"organizer:{where}", args=[event.slug]))
    assert status == 200
    log = _log(page)
    assert "2030-01-12 20:00:00" in log and "12:00:00" not in log
    heading = log[log.index("<h2") : log.index("</h2>")]
    assert "Asia/Shanghai" in heading
    assert log.count("Asia/Shanghai") == 1


def test_an_event_without_a_zone_names_the_sites(settings) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    event = EventFactory(time_zone="")
    td = _organizer(event)
    entry = audit_record(event=event, actor=td, action="round.publish")
    AuditEntry.objects.filter(pk=entry.pk).update(at=NOON_UTC)
    _status, page = _get(td, reverse("organizer:dashboard", args=[event.slug]))
    log = _log(page)
    assert "2030-01-12 13:00:00" in log and "Europe/Paris" in log


def test_the_dashboard_links_to_the_whole_log() -> None:
    event = EventFactory()
    td = _organizer(event)
    _status, page = _get(td, reverse("organizer:dashboard", args=[event.slug]))
    assert f'href="{reverse("organizer:changes", args=[event.slug])}"' in _log(page)


def test_the_whole_log_is_paginated_newest_first() -> None:
    from tournaments.web import audit_log

    event = EventFactory()
    td = _organizer(event)
    count = audit_log.PER_PAGE + 5
    for n in range(count):
        entry = audit_record(event=event, actor=td, action="round.publish", changes={"n": n})
        AuditEntry.objects.filter(pk=entry.pk).update(at=NOON_UTC + timedelta(minutes=n))
    url = reverse("organizer:changes", args=[event.slug])
    _status, first = _get(td, url)
    assert len(_rows(first)) == audit_log.PER_PAGE
    # Newest first: the last entry made heads the first page.
    assert f"2030-01-12 12:{count - 1:02d}:00" in _log(first).split("</tr>")[1]
    assert 'href="?page=2"' in first
    _status, second = _get(td, url + "?page=2")
    assert len(_rows(second)) == 5
    assert "2030-01-12 12:00:00" in _log(second)  # the oldest, last
    assert 'href="?page=1"' in second
    # A page past the last shows the last; garbage the first.
    last = _get(td, url + "?page=99")[1]
    assert len(_rows(last)) == 5 and "2030-01-12 12:00:00" in _log(last)
    assert _get(td, url + "?page=x")[0] == 200


def test_the_whole_log_is_for_the_organizers_only() -> None:
    world = build_world(seed="change-log")
    url = reverse("organizer:changes", args=[world.event.slug])
    assert _get(world.users["organizer"], url)[0] == 200
    for persona in ("chief", "referee1", "player"):
        assert _get(world.users[persona], url)[0] == 403, persona
    stranger = User.objects.create_user("stranger", password="x")
    assert _get(stranger, url)[0] == 403
    assert _get(None, url)[0] == 302  # to the sign-in page
    assert _get(world.users["organizer"], reverse("organizer:changes", args=["nope"]))[0] == 404


def test_a_game_stored_at_an_online_table_names_who_stored_it() -> None:
    """No account stored it: the entrant's own device (his link) when his step ended it, else
    the system (a robot's step); never a dash."""
    event, td, (ann,) = online_event(entrants=1, boards=1)
    online_board_play(event, ann, 1)
    stored = AuditEntry.objects.filter(event=event, action="game.submit")
    assert stored.exists() and all(e.actor_id is None for e in stored)
    by_device = any(e.changes.get("via", {}).get("link") == "online" for e in stored)
    for language, system in (("en", "the system"), ("zh-hans", "系统")):
        _status, page = _get(td, reverse("organizer:dashboard", args=[event.slug]), language)
        cells = re.findall(r"<tr><td[^>]*>[^<]*</td><td>([^<]*)</td>", _log(page))
        assert "—" not in cells
        assert ("Entrant 1" if by_device else system) in cells


def test_who_names_the_system_when_no_one_and_no_link_made_the_change() -> None:
    event = EventFactory()
    entry = audit_record(event=event, actor=None, action="game.submit")
    assert entry.who == "the system"
    assert str(entry).split(" ", 2)[2].startswith("the system ")


def test_a_public_name_change_shows_the_old_and_the_new_name() -> None:
    event = EventFactory()
    td = _organizer(event)
    player = PlayerFactory(name="Annie")
    audit_record(
        event=event,
        actor=td,
        action="player.name",
        obj=player,
        changes={"name": ["Ann", "Annie"]},
    )
    for where in ("dashboard", "changes"):
        _status, page = _get(td, reverse(f"organizer:{where}", args=[event.slug]))
        assert "public name changed by the player · Ann → Annie" in _log(page), where
