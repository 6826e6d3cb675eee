"""A board every seat of a table has an adjusted score for is finished at that table without
a game (tournaments.core.embargo, the close rule): the officials' pages say "adjusted scores"
there, not "not started", and offer no entry of it; some seats only is still not started.
The trial's finding: the status board, the API and the referee's page showed a fully adjusted
board as not started after its round had closed, and offered to enter it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import duplicate_round, signed_in_client
from tournaments.models import EventRole, Role
from tournaments.standings.rulings import adjusted_scores_set
from tournaments.tables import selectors

pytestmark = pytest.mark.django_db


@pytest.fixture
def ruled():
    """Two tables, two boards; at table 2, board 1 has adjusted scores at every seat and board
    2 at South only."""
    event, _round, tables, boards = duplicate_round(tables=2, boards=2, seed="fully-adjusted")
    adjusted_scores_set(
        table=tables[1],
        board=boards[0],
        scores={"S": "avg+", "E": "avg", "W": "avg-"},
        actor=None,
    )
    adjusted_scores_set(table=tables[1], board=boards[1], scores={"S": "avg"}, actor=None)
    chief = get_user_model().objects.create_user("fully-adjusted-chief", password="x")
    EventRole.objects.create(event=event, user=chief, role=Role.CHIEF_REFEREE)
    return event, tables, boards, signed_in_client(chief)


def test_the_status_board_and_the_api_say_adjusted_scores(ruled) -> None:
    event, _tables, _boards, client = ruled
    api = client.get(reverse("api:tables", kwargs={"slug": event.slug})).json()
    states = {(row["number"], cell["board"]): cell["state"] for row in api for cell in row["cells"]}
    assert states == {
        (1, 1): "not_started",
        (1, 2): "not_started",
        (2, 1): "adjusted",
        (2, 2): "not_started",  # one seat of three ruled on: still to be played or ruled on
    }
    board = client.get(reverse("referee:status", args=[event.slug]))
    assert 'data-board="1" data-state="adjusted"' in board.content.decode()


def test_the_referees_page_offers_no_entry_of_a_fully_adjusted_board(ruled) -> None:
    event, tables, _boards, client = ruled
    page = client.get(reverse("referee:event", args=[event.slug])).content.decode()
    assert f'href="{reverse("referee:live", args=[event.slug, tables[1].pk, 1])}"' not in page
    assert f'href="{reverse("referee:live", args=[event.slug, tables[1].pk, 2])}"' in page
    assert "1: adjusted scores" in page
    # And the next board to enter at table 2 is board 2, at table 1 board 1.
    assert selectors.next_board_to_enter(tables[1]) == 2
    assert selectors.next_board_to_enter(tables[0]) == 1


def test_the_entry_pages_of_a_fully_adjusted_board_say_a_result_counts_for_no_seat(
    ruled,
) -> None:
    # The second trial's finding: the quick result took a game for it without a word.
    event, tables, _boards, client = ruled
    for name in ("referee:quick", "referee:live"):
        adjusted = client.get(reverse(name, args=[event.slug, tables[1].pk, 1]))
        assert 'id="adjusted-everywhere"' in adjusted.content.decode()
        partly = client.get(reverse(name, args=[event.slug, tables[1].pk, 2]))
        assert 'id="adjusted-everywhere"' not in partly.content.decode()
