"""A closed round's results are final: no ruling changes them, no draft is saved outside a
round in play, the entry pages of a closed round say so and offer no entry, and its table
links are no longer offered for revoking on the dashboard.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import bot_record, duplicate_round, round_fill
from tournaments.events import round_states
from tournaments.links import tokens as link_tokens
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


def test_the_dashboard_shows_no_revoke_for_links_of_a_closed_round(linked) -> None:
    world, tokens = linked
    round_ = world.tables[0].round
    link = link_tokens.table_link_find(tokens[0])
    client = Client()
    client.force_login(world.users["organizer"])
    slug = world.event.slug
    revoke = reverse("officials:revoke", args=[slug, "table", link.pk])
    assert revoke in client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    round_fill(round_)
    round_states.round_close(round_=round_, actor=world.users["organizer"])
    dash = client.get(reverse("organizer:dashboard", args=[slug])).content.decode()
    assert revoke not in dash
    assert "No table link in force." in dash
