"""The chief referee's status board and confirmation queue show the round in play by default
(the round the room plays: tournaments.events.clock.current_round), with links to every round
and to all of them; ``?round=all`` and ``?round=N`` choose, anything else is no page (404).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import EventFactory, duplicate_round, round_fill
from tournaments.models import EventRole, Role, Round, RoundState

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

# A row of the status table: its round, then its table.
ROW = re.compile(r"<tr[^>]*>\s*<td[^>]*>(\d+)</td>\s*<td[^>]*>(\d+)</td>")


@pytest.fixture
def two_rounds():
    """Round 1 (two tables, one board) played and closed; round 2 (three tables, one board)
    in play and played: every game verified, none confirmed. The chief referee signed in."""
    world = build_world(seed="lists-fit", tables=2, boards=1)
    first = world.tables[0].round
    _event, second, _tables, _boards = duplicate_round(tables=3, boards=1, event=world.event)
    round_fill(first)
    round_fill(second)
    Round.objects.filter(pk=first.pk).update(state=RoundState.CLOSED)
    client = Client()
    client.force_login(world.users["chief"])
    return world, client


def _status(world, client: Client, query: str = "") -> tuple[list[tuple[int, int]], str]:
    answer = client.get(reverse("referee:status", args=[world.event.slug]) + query)
    assert answer.status_code == 200
    page = answer.content.decode()
    return [(int(r), int(t)) for r, t in ROW.findall(page)], page


def _confirmable(world, client: Client, query: str = "") -> set[int]:
    answer = client.get(reverse("referee:confirm", args=[world.event.slug]) + query)
    assert answer.status_code == 200
    return {int(v) for v in re.findall(r'name="game" value="(\d+)"', answer.content.decode())}


def _games_of(number: int) -> set[int]:
    return set(
        Game.objects.filter(table__round__number=number, replaced_at__isnull=True).values_list(
            "pk", flat=True
        )
    )


def test_the_status_board_shows_the_round_in_play_by_default(two_rounds) -> None:
    world, client = two_rounds
    rows, page = _status(world, client)
    assert rows == [(2, 1), (2, 2), (2, 3)]
    # The counts are the round's: three verified games, not five.
    assert "verified: 3" in page
    # A way to every round and to all of them.
    base = reverse("referee:status", args=[world.event.slug])
    assert f'href="{base}?round=all"' in page
    assert f'href="{base}?round=1"' in page


def test_the_status_board_shows_all_rounds_or_the_round_asked_for(two_rounds) -> None:
    world, client = two_rounds
    rows, page = _status(world, client, "?round=all")
    assert rows == [(1, 1), (1, 2), (2, 1), (2, 2), (2, 3)]
    assert "verified: 5" in page
    rows, page = _status(world, client, "?round=1")
    assert rows == [(1, 1), (1, 2)]
    assert "verified: 2" in page


def test_the_status_boards_refresh_keeps_the_round_chosen(two_rounds) -> None:
    world, client = two_rounds
    _shown, page = _status(world, client, "?round=1")
    url = re.search(r'id="status-board" data-url="([^"]+)"', page)
    assert url
    fragment = client.get(url.group(1).replace("&amp;", "&"))
    assert fragment.status_code == 200
    assert [(int(r), int(t)) for r, t in ROW.findall(fragment.content.decode())] == [
        (1, 1),
        (1, 2),
    ]


def test_the_confirmation_queue_shows_the_round_in_play_by_default(two_rounds) -> None:
    world, client = two_rounds
    assert _confirmable(world, client) == _games_of(2)
    assert _confirmable(world, client, "?round=all") == _games_of(1) | _games_of(2)
    assert _confirmable(world, client, "?round=1") == _games_of(1)
    page = client.get(reverse("referee:confirm", args=[world.event.slug])).content.decode()
    base = reverse("referee:confirm", args=[world.event.slug])
    assert f'href="{base}?round=all"' in page and f'href="{base}?round=1"' in page
    # Round 1's two games are not forgotten: the page says they wait.
    assert "2 more results wait in other rounds." in page


def test_confirming_returns_to_the_round_chosen(two_rounds) -> None:
    world, client = two_rounds
    url = reverse("referee:confirm", args=[world.event.slug])
    chosen = sorted(_games_of(1))[:1]
    answer = client.post(f"{url}?round=1", {"game": [str(g) for g in chosen]})
    assert answer.status_code == 302
    assert answer["Location"] == f"{url}?round=1"
    assert Game.objects.get(pk=chosen[0]).confirmed_at is not None


@pytest.mark.parametrize("query", ["?round=7", "?round=abc", "?round=-1", "?round=%D9%A3"])
def test_a_round_that_is_not_one_is_no_page(two_rounds, query: str) -> None:
    world, client = two_rounds
    for name in ("referee:status", "referee:confirm"):
        assert client.get(reverse(name, args=[world.event.slug]) + query).status_code == 404


def test_an_event_without_rounds_shows_empty_lists() -> None:
    event = EventFactory()
    chief = User.objects.create_user("chief-no-rounds", password="x")
    EventRole.objects.create(event=event, user=chief, role=Role.CHIEF_REFEREE)
    client = Client()
    client.force_login(chief)
    for name in ("referee:status", "referee:confirm"):
        assert client.get(reverse(name, args=[event.slug])).status_code == 200
        assert client.get(reverse(name, args=[event.slug]) + "?round=all").status_code == 200
        assert client.get(reverse(name, args=[event.slug]) + "?round=1").status_code == 404


def test_confirming_nothing_or_another_events_game_says_so(two_rounds) -> None:
    # A trial sent a game number of another event: "Table 1, board 1: There is no such
    # game", naming that event's table; and pressing Confirm with nothing ticked said nothing.
    world, client = two_rounds
    url = reverse("referee:confirm", args=[world.event.slug])
    nothing = client.post(url, {}, follow=True).content.decode()
    assert "Tick the games to confirm first." in nothing
    odd = client.post(url, {"game": ["1e27", "-1", "abc"]}, follow=True).content.decode()
    assert "3 values sent are no game numbers: they were passed over." in odd
    other_event, _round, tables, boards = duplicate_round(tables=1, boards=1, seed="other-ev")
    round_fill(tables[0].round, seed="other-ev")
    foreign = Game.objects.filter(board__event=other_event).first()
    assert foreign is not None
    said = client.post(url, {"game": [str(foreign.pk)]}, follow=True).content.decode()
    assert f"Game {foreign.pk}: There is no such game in this event." in said
    assert "Table 1, board 1" not in said
    foreign.refresh_from_db()
    assert foreign.confirmed_at is None
