"""Category rankings and the prize rule (tournaments.results.prizes): a category's ranking is the
one stored standings filtered to the players in it, in the same order, placed 1..n (players tied
in the standings share their place); one prize per player, the overall prizes first, then each
category's in the event's order, a player already given one passed over for the next; players
tied for a place share the prizes of the places they cover; a place without a prize gives none."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, PlayerFactory
from tournaments.models import Entry, Prize, Standing
from tournaments.results import prizes

pytestmark = pytest.mark.django_db

# The worked example: six players, two tied for second; their declared categories.
FIELD = [
    ("Ann", "1", ["women"]),
    ("Bo", "2=", ["youth"]),
    ("Chen", "2=", ["women", "youth"]),
    ("Dana", "4", []),
    ("Eli", "5", ["women"]),
    ("Fang", "6", ["youth"]),
]


@pytest.fixture
def event():
    event = EventFactory(categories=["women", "youth"])
    for position, (name, rank, categories) in enumerate(FIELD, start=1):
        player = PlayerFactory(name=name)
        Entry.objects.create(event=event, player=player, categories=categories)
        Standing.objects.create(
            event=event,
            player=player,
            method="matchpoints",
            position=position,
            rank=rank,
            total=str(100 - position),
            boards=6,
        )
    return event


def _names(ranking: prizes.Ranking) -> list[tuple[str, str]]:
    return [(row.standing.player.name, row.place) for row in ranking.rows]


def test_a_category_ranking_is_the_overall_order_filtered(event) -> None:
    overall, women, youth = prizes.rankings(event)
    assert _names(overall) == [(name, rank) for name, rank, _c in FIELD]
    # Chen was tied for second overall with Bo, who is no woman: she is second alone here.
    assert _names(women) == [("Ann", "1"), ("Chen", "2"), ("Eli", "3")]
    # Bo and Chen, tied overall, are both youth: they share the first place.
    assert _names(youth) == [("Bo", "1="), ("Chen", "1="), ("Fang", "3")]
    # The same rows, never recomputed: every category row is an overall row, in its order.
    for ranking in (women, youth):
        positions = [row.standing.position for row in ranking.rows]
        assert positions == sorted(positions)
        assert {row.standing.pk for row in ranking.rows} <= {r.standing.pk for r in overall.rows}


def test_one_prize_per_player_the_first_listed(event) -> None:
    for category, place, text in [
        ("", 1, "Cup"),
        ("", 2, "¥500"),
        ("women", 1, "Rose"),
        ("women", 2, "Book"),
        ("youth", 1, "Medal"),
        ("youth", 5, "Pen"),  # more prizes than players left: not given
    ]:
        Prize.objects.create(event=event, category=category, place=place, description=text)
    ranked = prizes.final_results(event)
    won = {
        (a.category, a.standing.player.name): (a.place, [p.description for p in a.prizes], a.shared)
        for a in prizes.awards(ranked)
    }
    assert won == {
        ("", "Ann"): ("1", ["Cup"], False),
        # Bo and Chen, tied for second, cover places 2 and 3: they share the one prize there
        # (nothing tells them apart: the event has no tie-break).
        ("", "Bo"): ("2=", ["¥500"], True),
        ("", "Chen"): ("2=", ["¥500"], True),
        # Ann and Chen have prizes already: the women's first prize goes to the next woman,
        # Eli; nobody is left for the second.
        ("women", "Eli"): ("3", ["Rose"], False),
        # Bo and Chen have prizes already: the youth medal goes to Fang.
        ("youth", "Fang"): ("3", ["Medal"], False),
    }
    players = [a.standing.player_id for a in prizes.awards(ranked)]
    assert len(players) == len(set(players))  # nobody twice
    women = ranked[1]
    assert [p.description for p in women.prizes] == ["Rose", "Book"]
    # The unawarded prize is still listed with its ranking.
    youth = ranked[2]
    assert [p.description for p in youth.prizes] == ["Medal", "Pen"]


def test_places_of_a_ranking_follow_the_standings_ties() -> None:
    class Row:
        def __init__(self, rank: str) -> None:
            self.rank = rank

    assert prizes.category_places([Row("1="), Row("1="), Row("1="), Row("4")]) == [
        "1=",
        "1=",
        "1=",
        "4",
    ]
    assert prizes.category_places([Row("3"), Row("7")]) == ["1", "2"]
    assert prizes.category_places([]) == []


def test_a_place_without_a_prize_gives_none_and_tied_players_share_what_they_cover(event) -> None:
    """Prizes for places 1 and 4 only: the second place's tied pair covers places 2 and 3, which
    have no prize; Dana, fourth, gets the fourth prize (never the pair's, nor moved up)."""
    Prize.objects.create(event=event, category="", place=1, description="Cup")
    Prize.objects.create(event=event, category="", place=4, description="Book")
    won = {
        a.standing.player.name: [p.description for p in a.prizes]
        for a in prizes.awards(prizes.final_results(event))
    }
    assert won == {"Ann": ["Cup"], "Dana": ["Book"]}
    # A prize for the places 2 and 3 the pair covers is theirs to share, both of them.
    Prize.objects.create(event=event, category="", place=3, description="Pen")
    Prize.objects.create(event=event, category="", place=2, description="Mug")
    won = {
        a.standing.player.name: ([p.description for p in a.prizes], a.shared)
        for a in prizes.awards(prizes.final_results(event))
    }
    assert won["Bo"] == won["Chen"] == (["Mug", "Pen"], True)
