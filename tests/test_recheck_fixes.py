"""Fixes from the last new-user re-check: a closed round's results cannot be changed by a
ruling, drafts are refused outside a round in play, an import never fills in another event's
player's blank club, an event's name has no control characters."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EventFactory, bot_record, duplicate_round
from tournaments.events import players_csv
from tournaments.events.setup import EventRejected, event_create
from tournaments.models import EventRole, Role, Round, RoundState
from tournaments.tables.review import StateConflict, draft_save, game_confirm, game_resolve
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def _user(name: str, event, role: str):
    user = get_user_model().objects.create_user(name, password="pw")
    EventRole.objects.create(event=event, user=user, role=role)
    return user


def test_no_ruling_changes_a_closed_round() -> None:
    event, round_, tables, boards = duplicate_round(tables=3, boards=1, seed="closed")
    chief = _user("chief", event, Role.CHIEF_REFEREE)
    game = game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    game_verify(game_id=game.pk)
    game_confirm(game_id=game.pk, actor=chief)
    Round.objects.filter(pk=round_.pk).update(state=RoundState.CLOSED)
    with pytest.raises(StateConflict, match="closed"):
        game_resolve(game_id=game.pk, actor=chief, decision="reject", note="late protest")
    game.refresh_from_db()
    assert game.resolution == "" and game.resolved_at is None


def test_a_draft_is_refused_outside_a_round_in_play() -> None:
    event, round_, tables, boards = duplicate_round(tables=1, boards=1, seed="draft")
    Round.objects.filter(pk=round_.pk).update(state=RoundState.PUBLISHED)
    with pytest.raises(StateConflict, match="closed"):
        draft_save(table=tables[0], board=boards[0], steps=["1"], actor=None)


def test_an_import_never_fills_in_another_events_blank_club() -> None:
    td = get_user_model().objects.create_user("td", password="pw", is_staff=True)
    spring, autumn = EventFactory(), EventFactory()
    for event in (spring, autumn):
        EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    players_csv.players_csv_import(event=spring, text="name,club\nAnn,\n", actor=td)
    with pytest.raises(players_csv.CsvRejected):
        players_csv.players_csv_import(event=autumn, text="name,club\nAnn,NewClub\n", actor=td)
    ann = spring.entries.get().player
    ann.refresh_from_db()
    assert ann.club == ""


@pytest.mark.parametrize("name", ["\x00", "Cup\x00", "A\x07B", "x" * 201])
def test_an_event_name_with_control_characters_is_refused(name: str) -> None:
    with pytest.raises(EventRejected):
        event_create(name=name, rules="classic")


@pytest.mark.parametrize("name", ["referee:live", "referee:quick"])
def test_the_entry_pages_of_a_closed_round_say_so_and_offer_no_entry(client, name: str) -> None:
    from django.urls import reverse

    event, round_, tables, boards = duplicate_round(tables=1, boards=1, seed="closed-page")
    organizer = _user("org", event, Role.ORGANIZER)
    Round.objects.filter(pk=round_.pk).update(state=RoundState.CLOSED)
    client.force_login(organizer)
    url = reverse(
        name, kwargs={"slug": event.slug, "table_id": tables[0].pk, "number": boards[0].number}
    )
    html = client.get(url).content.decode()
    assert 'id="round-closed"' in html and "results are final" in html
    assert 'id="quick-form"' not in html and "games/entry.js" not in html
