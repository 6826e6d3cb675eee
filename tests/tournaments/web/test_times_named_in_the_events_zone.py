"""The times on the officials' pages are the event's (Event.time_zone, tournaments.core.zones),
with the zone named: a game's versions and its audit, the refusal of a second result for a
table's board ("already has a game … entered at …"), the private links made and when they
expire, the registrations received, and the printed cards' "valid until". The trial's finding:
they showed UTC unlabelled, 8 hours off for an event in Shanghai."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game
from tests.factories import bot_record, duplicate_round, signed_in_client
from tournaments.models import CheckKind, EventRole, Registration, ResultCheck, Role
from tournaments.tables.submission import GameRejected, game_submit

pytestmark = pytest.mark.django_db

# 06:03:05 UTC is 14:03:05 in Shanghai (UTC+8, no summer time).
AT = datetime(2030, 1, 12, 6, 3, 5, tzinfo=UTC)


@pytest.fixture
def shanghai():
    event, round_, tables, boards = duplicate_round(tables=2, boards=1, seed="zones")
    event.time_zone = "Asia/Shanghai"
    event.save(update_fields=["time_zone"])
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    Game.objects.filter(pk=game.pk).update(submitted_at=AT)
    organizer = get_user_model().objects.create_user("zone-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    return event, round_, tables, boards, game, signed_in_client(organizer)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_games_versions_are_shown_in_the_events_zone(shanghai) -> None:
    event, _round, _tables, _boards, game, client = shanghai
    page = client.get(reverse("referee:game", args=[event.slug, game.pk]))
    assert page.status_code == 200
    text = _text(page.content.decode())
    assert "Submitted (Asia/Shanghai)" in text
    assert "14:03:05" in text and "06:03:05" not in text
    assert "Audit log (Asia/Shanghai)" in text


def test_a_second_result_is_refused_with_the_first_ones_time_in_the_events_zone(
    shanghai,
) -> None:
    _event, _round, tables, boards, _game, _client = shanghai
    with pytest.raises(GameRejected) as refused:
        game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    assert "at 14:03:05 (Asia/Shanghai)" in str(refused.value)


def test_the_registrations_received_are_shown_in_the_events_zone(shanghai) -> None:
    event, _round, _tables, _boards, _game, client = shanghai
    registration = Registration.objects.create(event=event, name="Lin Mei")
    Registration.objects.filter(pk=registration.pk).update(created_at=AT)
    page = client.get(reverse("registration:registrations", args=[event.slug]))
    assert page.status_code == 200
    text = _text(page.content.decode())
    assert "Received (Asia/Shanghai)" in text
    assert "2030-01-12 14:03" in text and "06:03" not in text


def test_the_table_links_are_dated_in_the_events_zone(shanghai) -> None:
    event, round_, _tables, _boards, _game, client = shanghai
    cards = client.post(
        reverse("officials:table_links", args=[event.slug]),
        {"round": round_.number, "hours": "12"},
    )
    assert cards.status_code == 200
    # The printed cards' "valid until" names the zone.
    assert "(Asia/Shanghai)" in _text(cards.content.decode())
    dashboard = _text(
        client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    )
    assert "Made (Asia/Shanghai)" in dashboard and "Expires (Asia/Shanghai)" in dashboard


def test_a_problem_signalled_by_a_player_is_timed_in_the_events_zone(shanghai) -> None:
    event, _round, tables, _boards, game, client = shanghai
    seat = tables[0].seats.get(seat="S")
    ResultCheck.objects.create(
        game=game, player=seat.player, seat="S", kind=CheckKind.PROBLEM, note="wrong score", at=AT
    )
    page = client.get(reverse("referee:flagged", args=[event.slug]))
    assert page.status_code == 200
    assert "14:03 (Asia/Shanghai)" in _text(page.content.decode())


def test_a_replaced_versions_page_says_it_is_not_the_one_shown(shanghai) -> None:
    """The address of a replaced version (from a link, the audit, a bookmark) showed the current
    version's result and record with no word that it was another one (the trial's finding): it
    now says which version was asked for, when it was replaced and which is shown, and links its
    record; each version of the list links its own."""
    event, _round, tables, boards, first, client = shanghai
    second = game_submit(
        table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]), replaces=1
    )
    Game.objects.filter(pk=first.pk).update(replaced_at=AT)
    page = client.get(reverse("referee:game", args=[event.slug, first.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    text = _text(html)
    assert (
        "You asked for version 1, replaced at 14:03:05 (Asia/Shanghai): the current version, "
        "2, is shown. Version 1's record" in text
    )
    assert first.get_absolute_url() in html and second.get_absolute_url() in html
    current = _text(
        client.get(reverse("referee:game", args=[event.slug, second.pk])).content.decode()
    )
    assert "You asked for version" not in current
