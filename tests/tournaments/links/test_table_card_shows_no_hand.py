"""The printed table card the players sit at opens no hand but the scanning seat's own.

The card carries one seat link per seat; the table's link (the referee device, which shows the
hand of the seat to act) is printed on the referees' sheet only. Every link on a player's card,
opened, shows that seat's dealt hand and no other seat's cards.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.notation import rank_cards
from tests.entry_personas import build_world

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://[^\s<\"]+/(?:t|s|p)/[A-Za-z0-9_-]{43}/")


def _sections(html: str, cls: str) -> list[str]:
    return re.findall(rf'<section class="sheet {cls}"[^>]*>(.*?)</section>', html, re.S)


def _cards_page():
    world = build_world(seed="card-hands")
    client = Client()
    client.force_login(world.users["organizer"])
    page = client.post(
        reverse("officials:table_links", args=[world.event.slug]), {"round": "1"}
    ).content.decode()
    return world, page


def test_the_table_card_carries_a_seat_link_per_seat_and_no_table_link() -> None:
    world, page = _cards_page()
    cards = _sections(page, "table-card")
    assert len(cards) == len(world.tables) == 2
    for card in cards:
        links = set(LINK.findall(card))
        assert not [u for u in links if "/t/" in u], "a table link on the players' card"
        # Classic rules: three seats, one link each, in the seats' order.
        assert len([u for u in links if "/s/" in u]) == 3
        assert re.findall(r'data-seat="([A-Z])"', card) == ["S", "E", "W"]
    # The referee device's links are on the referees' sheet, one per table.
    (sheet,) = _sections(page, "referee-sheet")
    assert len({u for u in LINK.findall(sheet) if "/t/" in u}) == 2


def test_each_seat_link_on_the_card_shows_its_own_hand_and_no_other() -> None:
    world, page = _cards_page()
    board = world.boards[0]
    hands = {seat: rank_cards(cards) for seat, cards in board.hands.items()}
    card = _sections(page, "table-card")[0]
    for url in dict.fromkeys(LINK.findall(card)):
        seat_page = Client().get(url.split("testserver", 1)[-1], follow=True)
        assert seat_page.status_code == 200
        html = seat_page.content.decode()
        view = json.loads(
            re.search(
                r'<script id="device-view" type="application/json">(.*?)</script>', html, re.S
            ).group(1)
        )
        seat = view["seat"]
        assert view["hand"]["seat"] == seat and rank_cards(view["hand"]["dealt"]) == hands[seat]
        # No other seat's cards anywhere on the page: neither as dealt (suited) nor by rank.
        for other, cards in board.hands.items():
            if other != seat:
                assert cards not in html and f'"{hands[other]}"' not in html
        assert "hands" not in view


def test_the_organizer_revokes_one_seats_link_and_the_others_keep_theirs() -> None:
    from tournaments.links import tokens
    from tournaments.models import SeatLink

    world, page = _cards_page()
    client = Client()
    client.force_login(world.users["organizer"])
    dashboard = client.get(reverse("organizer:dashboard", args=[world.event.slug])).content
    first = SeatLink.objects.filter(revoked_at=None).order_by("pk").first()
    revoke = reverse("officials:revoke", args=[world.event.slug, "seat", first.pk])
    assert revoke.encode() in dashboard
    assert client.post(revoke).status_code == 302
    first.refresh_from_db()
    assert first.revoked_at is not None
    others = SeatLink.objects.filter(table_link=first.table_link).exclude(pk=first.pk)
    assert others.count() == 2 and not others.exclude(revoked_at=None).exists()
    # A second revoke of the same link changes nothing and says so.
    assert tokens.link_revoke(link=first, actor=world.users["organizer"]) is False
