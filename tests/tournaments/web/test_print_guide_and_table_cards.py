"""Paper people keep: each player's guide card (her table and seat in every round seated so
far) and the table cards with the boards to play and where each seat goes next round."""

from __future__ import annotations

import random
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.engine import RuleSet, deal_random
from tests.factories import EventFactory, PlayerFactory
from tournaments.events.boards import board_create
from tournaments.events.setup import round_seat
from tournaments.models import EventRole, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_rounds():
    """Six players at two tables, seated in R-SEAT's order S E W: round 1 T1 A B C, T2 D E F;
    round 2 T1 E A F, T2 C D B. Round 1 plays boards 1 and 2."""
    event = EventFactory()
    a, b, c, d, e, f = (PlayerFactory(name=n) for n in "ABCDEF")
    first = round_seat(event=event, number=1, tables=[[a, b, c], [d, e, f]])
    round_seat(event=event, number=2, tables=[[e, a, f], [c, d, b]])
    rng = random.Random("paper")
    for _n in (1, 2):
        deal = deal_random(RuleSet.from_spec("classic"), rng, first_bidder="S")
        board_create(
            event=event, round=first, hands=deal.hands, bottom=deal.bottom, first_bidder="S"
        )
    organizer = get_user_model().objects.create_user("paper-organizer", password="x")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    client = Client()
    client.force_login(organizer)
    return event, client


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def test_each_players_guide_card_names_her_table_and_seat_in_every_round(two_rounds) -> None:
    event, client = two_rounds
    page = client.get(reverse("organizer:guide_cards", args=[event.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    cards = dict(
        re.findall(r'<section class="guide-card" data-player="([^"]+)">(.*?)</section>', html, re.S)
    )
    assert sorted(cards) == list("ABCDEF")
    rows = {
        name: re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td><td>(\w+)</td></tr>", card)
        for name, card in cards.items()
    }
    assert rows["A"] == [("1", "1", "S"), ("2", "1", "E")]
    assert rows["B"] == [("1", "1", "E"), ("2", "2", "W")]
    assert rows["F"] == [("1", "2", "W"), ("2", "1", "W")]


def test_a_table_card_lists_its_boards_and_where_each_seat_goes_next(two_rounds) -> None:
    event, client = two_rounds
    page = client.get(reverse("organizer:print", args=[event.slug, 1, "table-cards"]))
    html = page.content.decode()
    first = html.split('class="sheet table-card"')[1].split("</section>")[0]
    assert "Boards 1, 2" in _text(first)
    goes = dict(re.findall(r'<tr data-seat="(\w+)">.*?<td class="next">(.*?)</td>', first, re.S))
    assert {seat: _text(where) for seat, where in goes.items()} == {
        "S": "Round 2: table 1, seat E",
        "E": "Round 2: table 2, seat W",
        "W": "Round 2: table 2, seat S",
    }


def test_the_last_rounds_table_cards_send_no_one_anywhere(two_rounds) -> None:
    event, client = two_rounds
    html = client.get(reverse("organizer:print", args=[event.slug, 2, "table-cards"])).content
    assert b'class="next"' not in html


def test_only_the_organizer_prints_the_guide_cards(two_rounds) -> None:
    event, _client = two_rounds
    assert Client().get(reverse("organizer:guide_cards", args=[event.slug])).status_code in (
        302,
        403,
    )


def test_the_dashboard_leads_to_the_guide_cards(two_rounds) -> None:
    event, client = two_rounds
    page = client.get(reverse("organizer:dashboard", args=[event.slug])).content.decode()
    assert reverse("organizer:guide_cards", args=[event.slug]) in page
