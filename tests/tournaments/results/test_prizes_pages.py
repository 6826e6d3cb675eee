"""The pages of prizes and final results (tournaments.web.people.prizes): the organizer's prize
formset (hostile lines answered 400 with the reason, nothing stored), the final results page
(hidden from the public until the event is finished or its last round published, linked from
the event page then), and the certificates' print page (one per prize winner, or per player)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import EventFactory, PlayerFactory
from tournaments.models import (
    Entry,
    EventRole,
    EventStatus,
    Prize,
    Role,
    Round,
    RoundState,
    Standing,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    event = EventFactory(categories=["women"], status=EventStatus.IN_PLAY)
    td = get_user_model().objects.create_user("pages-td", password="x")
    EventRole.objects.create(event=event, user=td, role=Role.ORGANIZER)
    for position, (name, women) in enumerate([("Ann", True), ("Bo", False), ("Cy", True)], 1):
        player = PlayerFactory(name=name)
        Entry.objects.create(event=event, player=player, categories=["women"] if women else [])
        Standing.objects.create(
            event=event,
            player=player,
            method="matchpoints",
            position=position,
            rank=str(position),
            total="10",
            top="20",
            percentage=str(70 - 10 * position),
            boards=2,
        )
    Round.objects.create(event=event, number=1, state=RoundState.IN_PLAY)
    organizer = Client()
    organizer.force_login(td)
    return {"event": event, "td": td, "organizer": organizer}


def _formset(lines: list[tuple[str, str, str]]) -> dict[str, str]:
    data = {
        "form-TOTAL_FORMS": str(len(lines)),
        "form-INITIAL_FORMS": "0",
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "1000",
    }
    for i, (category, place, text) in enumerate(lines):
        data |= {
            f"form-{i}-category": category,
            f"form-{i}-place": place,
            f"form-{i}-description": text,
        }
    return data


def test_the_organizer_sets_prizes_through_the_formset(world) -> None:
    url = reverse("prizes:prizes", args=[world["event"].slug])
    page = world["organizer"].get(url)
    assert page.status_code == 200 and 'name="form-0-place"' in page.content.decode()
    done = world["organizer"].post(
        url, _formset([("", "1", "¥500 and a trophy"), ("women", "1", "Rose"), ("", "", "")])
    )
    assert done.status_code == 302
    assert sorted(Prize.objects.values_list("category", "place", "description")) == [
        ("", 1, "¥500 and a trophy"),
        ("women", 1, "Rose"),
    ]


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ([("", "0", "Nothing")], "greater than or equal to 1"),
        ([("", "1", "Cup"), ("", "1", "Plate")], "Two prizes for place 1"),
        ([("seniors", "1", "Cane")], "seniors is not one of the available choices"),
        ([("", "2", "")], "Say what the prize for this place is"),
        ([("", "x", "Cup")], "Enter a whole number"),
    ],
)
def test_hostile_lines_answer_400_and_store_nothing(world, lines, words) -> None:
    url = reverse("prizes:prizes", args=[world["event"].slug])
    page = world["organizer"].post(url, _formset(lines), HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 400
    assert words in page.content.decode()
    assert not Prize.objects.exists()


def test_the_final_results_are_public_once_finished(world, client) -> None:
    event = world["event"]
    Prize.objects.create(event=event, category="", place=1, description="Cup")
    Prize.objects.create(event=event, category="women", place=1, description="Rose")
    url = reverse("prizes:results", args=[event.slug])
    assert client.get(url).status_code == 404
    assert 'id="final-results-link"' not in client.get(event.get_absolute_url()).content.decode()
    assert world["organizer"].get(url).status_code == 200  # the organizer sees it before
    Round.objects.filter(event=event).update(state=RoundState.PUBLISHED)
    page = client.get(url).content.decode()
    assert 'id="not-finished"' in page
    event.status = EventStatus.FINISHED
    event.save(update_fields=["status"])
    page = client.get(url).content.decode()
    assert 'id="not-finished"' not in page
    # Ann wins overall; the women's rose passes to Cy, the next woman (one prize per player).
    overall = page.split('id="ranking-overall"')[1].split("</section>")[0]
    women = page.split('id="ranking-women"')[1].split("</section>")[0]
    assert overall.index("Ann") < overall.index("Cup") < overall.index("Bo")
    assert women.index("Ann") < women.index("Cy") < women.index("Rose")
    assert 'id="final-results-link"' in client.get(event.get_absolute_url()).content.decode()


def test_certificates_one_per_winner_or_per_player(world, client) -> None:
    event = world["event"]
    Prize.objects.create(event=event, category="", place=1, description="Cup")
    Prize.objects.create(event=event, category="women", place=1, description="Rose")
    url = reverse("prizes:certificates", args=[event.slug])
    stranger = get_user_model().objects.create_user("pages-stranger", password="x")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    page = world["organizer"].get(url).content.decode()
    assert page.count('class="sheet certificate"') == 2
    assert 'data-player="Ann"' in page and 'data-player="Cy"' in page
    every = world["organizer"].get(url + "?all=1").content.decode()
    assert every.count('class="sheet certificate"') == 3


def test_the_final_results_say_where_before_the_status(world, client) -> None:
    """The header read "Dec. 20, 2026 · Hall · finished · 1 Road": the venue's address after
    the status (the third trial's finding). It follows the venue's name."""
    import re

    event = world["event"]
    Round.objects.filter(event=event).update(state=RoundState.PUBLISHED)
    event.status = EventStatus.FINISHED
    event.venue_name, event.venue_address = "Hall", "1 Road"
    event.save(update_fields=["status", "venue_name", "venue_address"])
    page = client.get(reverse("prizes:results", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="en")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.content.decode()))
    assert "Hall, 1 Road · finished" in text
