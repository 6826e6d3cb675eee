"""A traveller and a scorecard (page and CSV) show an artificial percentage and a weighted score
as the director gave them, each seat its own, with the points they score."""

from __future__ import annotations

import csv
import io
from fractions import Fraction as F

import pytest
from django.urls import reverse

from games.models import Game, Status
from tests.factories import duplicate_round
from tournaments.standings.rulings import adjusted_scores_set, weighted_score_set

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


def _world():
    event, _round, tables, (board,) = duplicate_round(tables=4, boards=1, seed="shown")
    for table, score in zip(
        tables, [{"S": 3, "E": -6, "W": 3}, {"S": -3, "E": 6, "W": -3}], strict=False
    ):
        Game.objects.create(
            table=table, board=board, record={}, status=Status.VERIFIED, score=score
        )
    adjusted_scores_set(
        table=tables[2],
        board=board,
        scores={"S": "61.8%", "E": "38.2%", "W": "38.2%"},
        reason="misinformation",
    )
    weighted_score_set(
        table=tables[3],
        board=board,
        results=[("1/2", {"S": 6, "E": -3, "W": -3}), ("1/2", {"S": -3, "E": 6, "W": -3})],
        reason="a revoke",
    )
    return event, tables, board


def test_the_traveller_shows_each_seats_percentage_and_possible_results(client) -> None:
    event, _tables, board = _world()
    page = client.get(reverse("public:traveller", args=[event.slug, board.number]))
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count("artificial 61.8%") == 1 and text.count("artificial 38.2%") == 2
    assert "weighted: 6 (1/2), -3 (1/2)" in text  # S at table 4
    assert "weighted: -3 (1/2), 6 (1/2)" in text  # E
    assert "weighted: -3 (1/2), -3 (1/2)" in text  # W


def test_the_scorecard_and_its_csv_show_the_weighted_score_and_its_points(client) -> None:
    event, tables, _board = _world()
    player = tables[3].seats.get(seat="S").player
    page = client.get(reverse("public:scorecard", args=[event.slug, player.pk]))
    assert "weighted: 6 (1/2), -3 (1/2)" in page.content.decode()
    body = client.get(reverse("public:scorecard_csv", args=[event.slug, player.pk]))
    (row,) = csv.DictReader(io.StringIO(body.content.decode()))
    assert row["adjusted"] == "1/2:6 1/2:-3"
    # S is compared at tables 1, 2 and 4 (table 3's percentage is out of the comparison):
    # ½·(2 + 2) for +6, ½·(0 + 1) for −3 = 5/2, Neuberg-scaled from 3 tables to 4:
    # (5/2 + 1)·4/3 − 1 = 11/3 of the top 6.
    assert (F(row["points"]), F(row["top"])) == (F(11, 3), 6)
    other = tables[2].seats.get(seat="S").player
    body = client.get(reverse("public:scorecard_csv", args=[event.slug, other.pk]))
    (row,) = csv.DictReader(io.StringIO(body.content.decode()))
    # 61.8 % of the top 6.
    assert (row["adjusted"], F(row["points"])) == ("61.8%", F(3708, 1000))
