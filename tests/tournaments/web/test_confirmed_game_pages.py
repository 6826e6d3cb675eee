"""A confirmed game as the pages show it: the entry pages of a table link and of a referee
refuse it up front (an organizer may still replace it, warned), and a player's link shows it
as confirmed, not as verified.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Status
from tests.factories import bot_record
from tournaments.links import tokens as link_tokens
from tournaments.tables.submission import game_submit

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"


def _token(url: str) -> str:
    return url.strip("/").split("/")[1]


def test_a_confirmed_game_is_refused_up_front_on_link_and_referee_pages(linked) -> None:
    world, tokens = linked
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    Game.objects.filter(pk=game.pk).update(status=Status.VERIFIED, confirmed_at=timezone.now())
    refusal = "This game is confirmed: it is replaced only after a chief referee"
    client = Client(HTTP_USER_AGENT=UA)
    quick = client.get(reverse("links:quick", args=[tokens[0], 1])).content.decode()
    assert refusal in quick and "replaces it" not in quick
    assert 'id="quick-form"' not in quick
    live = client.get(reverse("links:live", args=[tokens[0], 1])).content.decode()
    assert refusal in live and "replaces it" not in live
    assert 'id="entry-box"' not in live
    referee = Client()
    referee.force_login(world.users["referee1"])
    slug = world.event.slug
    quick = referee.get(reverse("referee:quick", args=[slug, table.pk, 1])).content.decode()
    assert refusal in quick and 'id="quick-form"' not in quick
    live = referee.get(reverse("referee:live", args=[slug, table.pk, 1])).content.decode()
    assert refusal in live and "replaces it" not in live
    # An organizer may replace it: the form is there, with the warning.
    organizer = Client()
    organizer.force_login(world.users["organizer"])
    quick = organizer.get(reverse("referee:quick", args=[slug, table.pk, 1])).content.decode()
    assert 'id="quick-form"' in quick and "replaces it" in quick


def test_the_player_link_shows_a_confirmed_game_as_confirmed(linked) -> None:
    world, _tokens = linked
    made = link_tokens.player_links_make(event=world.event, actor=world.users["organizer"])
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    Game.objects.filter(pk=game.pk).update(status=Status.VERIFIED, confirmed_at=timezone.now())
    seat = table.seats.get(seat="S")
    token = _token(next(m.url for m in made if m.player == seat.player))
    page = Client().get(reverse("links:player", args=[token])).content.decode()
    article = page.split(f'id="game-{game.pk}"')[1].split("</article>")[0]
    assert 'class="status status-confirmed">confirmed<' in article
    assert ">verified<" not in article


def test_a_confirmed_boards_live_entry_shows_the_stored_game_not_empty_seats(linked) -> None:
    # The page's seats, bidding and plays are filled by the entry script, which a closed page
    # does not load: what is left is the way to the stored game.
    world, tokens = linked
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=bot_record(board, table))
    Game.objects.filter(pk=game.pk).update(status=Status.VERIFIED, confirmed_at=timezone.now())
    referee = Client()
    referee.force_login(world.users["referee1"])
    pages = {
        reverse("referee:game", args=[world.event.slug, game.pk]): referee.get(
            reverse("referee:live", args=[world.event.slug, table.pk, 1])
        ),
        reverse("links:game", args=[tokens[0], game.pk]): Client(HTTP_USER_AGENT=UA).get(
            reverse("links:live", args=[tokens[0], 1])
        ),
    }
    for game_url, response in pages.items():
        page = response.content.decode()
        assert 'id="seats"' not in page and 'id="plays"' not in page
        assert f'href="{game_url}"' in page
