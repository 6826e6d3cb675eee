"""A substitution recorded after its table entered some of its boards moves those results to
the substitute: right when the paperwork comes after the play, wrong when it was meant for the
boards still to come. The organizer is told which boards already entered now count for whom
(the trial's finding: it happened without a word). A substitute chosen and a reserve's name
typed at once is refused, not settled by taking the reserve."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import PlayerFactory, bot_record, duplicate_round, signed_in_client
from tournaments.models import Entry, EventRole, Role, Substitution
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    """Two tables, two boards; table 1 entered board 1."""
    event, _round, tables, boards = duplicate_round(tables=2, boards=2, seed="sub-after")
    game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
    organizer = get_user_model().objects.create_user("sub-after-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    return event, tables, signed_in_client(organizer)


def _post(client, event, **fields):
    data = {"table": "1", "seat": "E", **fields}
    answer = client.post(
        reverse("organizer:substitution_add", args=[event.slug, 1]), data, follow=True
    )
    assert answer.status_code == 200
    return answer.content.decode()


def test_a_whole_round_substitution_names_the_boards_already_entered(played) -> None:
    event, tables, client = played
    seated = tables[0].seats.get(seat="E").player.name
    page = _post(client, event, reserve_name="Rex")
    assert "Rex plays E at table 1" in page
    assert (
        f"Already entered at table 1: board 1. Its result at E now counts for Rex, "
        f"not {seated}" in page
    )


def test_a_substitution_for_boards_not_entered_says_nothing_more(played) -> None:
    event, _tables, client = played
    page = _post(client, event, reserve_name="Rex", first_board="2", last_board="2")
    assert "Rex plays E at table 1" in page
    assert "Already entered" not in page


def test_a_player_and_a_reserves_name_at_once_are_refused(played) -> None:
    event, _tables, client = played
    other = PlayerFactory(name="Zed-other")
    Entry.objects.create(event=event, player=other, reserve=True)
    page = _post(client, event, substitute=str(other.pk), reserve_name="Rex")
    assert "not both" in page
    assert not Substitution.objects.exists()
