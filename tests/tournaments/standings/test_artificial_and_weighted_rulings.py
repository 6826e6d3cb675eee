"""A director's adjusted scores as bridge gives them, through the database
(tournaments.standings.rulings, tournaments.standings.results): an artificial percentage for
each seat (the landlord's side and the farmers' side, or any seat), and a weighted score, the
table's possible results with exact weights, each seat scoring its own part of each; the
stored standings worked out by hand from DESIGN.md's scoring methods."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction as F

import pytest

from games.models import Board, Game, Status
from tests.factories import EventFactory, PlayerFactory
from tournaments.events.setup import round_seat
from tournaments.models import Adjustment, AuditEntry, Standing
from tournaments.standings.results import computed_rows
from tournaments.standings.rulings import (
    RulingRejected,
    adjusted_scores_set,
    adjustment_remove,
    adjustment_set,
    weighted_score_set,
)
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db

# One board at four tables, tables 1 to 3 played (each table zero-sum: the landlord ±2u, the
# farmers ∓u): S +3, −3, +6; E −6, +6, −3; W +3, −3, −3.
PLAYED = [{"S": 3, "E": -6, "W": 3}, {"S": -3, "E": 6, "W": -3}, {"S": 6, "E": -3, "W": -3}]
# Table 4's possible results, each with weight ½: S the landlord making +6, or E the landlord
# making +6.
POSSIBLE = [("1/2", {"S": 6, "E": -3, "W": -3}), ("1/2", {"S": -3, "E": 6, "W": -3})]


def _world(scoring_method: str = "matchpoints", **settings):
    event = EventFactory(scoring_method=scoring_method, **settings)
    players = [PlayerFactory(name=f"t{t}{s}") for t in range(1, 5) for s in "SEW"]
    round_ = round_seat(
        event=event, number=1, tables=[players[3 * t : 3 * t + 3] for t in range(4)]
    )
    board = Board.objects.create(
        event=event, round=round_, number=1, hands={}, bottom="", deal_key="k1"
    )
    tables = list(round_.tables.order_by("number"))
    for table, score in zip(tables, PLAYED, strict=False):
        Game.objects.create(
            table=table, board=board, record={}, status=Status.VERIFIED, score=score
        )
    return event, tables, board


def _totals(event) -> dict[str, tuple[F, F | None]]:
    standings_recompute(event_id=event.pk)
    return {
        r.player.name: (F(r.total), F(r.top) if r.top else None)
        for r in Standing.objects.filter(event=event, stage=None).select_related("player")
    }


def test_a_weighted_score_through_the_stored_standings() -> None:
    event, tables, board = _world()
    made = weighted_score_set(
        table=tables[3], board=board, results=POSSIBLE, reason="a revoke: either side's contract"
    )
    assert sorted(a.seat for a in made) == ["E", "S", "W"]
    totals = _totals(event)
    # S: +3, −3, +6 and ½ (+6), ½ (−3): 3, ½, 11/2 and ½·5 + ½·1 = 3.
    # E: −6, +6, −3 and ½ (−3), ½ (+6): −6 beats nothing: 0; +6: 2 + 2 + ½·2 + ½·1 = 11/2;
    #    −3: 2 + 0 + ½·1 = 5/2; table 4: ½·(2 + 0 + 1) + ½·(2 + 1 + 2) = 4.
    # W: +3, −3, −3 and −3 either way: 6, 2, 2, 2.
    expected = {
        "t1S": 3, "t2S": F(1, 2), "t3S": F(11, 2), "t4S": 3,
        "t1E": 0, "t2E": F(11, 2), "t3E": F(5, 2), "t4E": 4,
        "t1W": 6, "t2W": 2, "t3W": 2, "t4W": 2,
    }  # fmt: skip
    assert totals == {name: (F(mp), F(6)) for name, mp in expected.items()}
    # Every seat's matchpoints still sum to n(n − 1) = 12 over the four tables.
    for seat in "SEW":
        assert sum(totals[f"t{t}{seat}"][0] for t in range(1, 5)) == 12
    # The standings kept equal a recompute from nothing.
    Standing.objects.filter(event=event).delete()
    assert _totals(event) == totals


def test_a_weighted_score_in_datum_is_its_weighted_mean() -> None:
    event, tables, board = _world("datum")
    weighted_score_set(table=tables[3], board=board, results=POSSIBLE, reason="revoke")
    totals = _totals(event)
    # S: 3, −3, 6 and (6 − 3)/2 = 3/2; the datum is 15/8.
    assert [totals[f"t{t}S"][0] for t in range(1, 5)] == [F(9, 8), F(-39, 8), F(33, 8), F(-3, 8)]


def test_the_landlords_side_and_the_farmers_side_as_percentages() -> None:
    event, tables, board = _world()
    adjusted_scores_set(
        table=tables[3],
        board=board,
        scores={"S": "61.8%", "E": "38.2%", "W": "38.2%"},
        reason="misinformation by the farmers",
    )
    totals = _totals(event)
    # 61.8 % and 38.2 % of the top 6; the three played results Neuberg-scaled from 3 to 4
    # tables, (MP + 1)·4/3 − 1: S +3, −3, +6 → 2, 0, 4 → 3, 1/3, 17/3.
    assert totals["t4S"] == (F(3708, 1000), 6)
    assert totals["t4E"] == totals["t4W"] == (F(2292, 1000), 6)
    assert [totals[f"t{t}S"][0] for t in (1, 2, 3)] == [3, F(1, 3), F(17, 3)]
    stored = {a.seat: (a.kind, a.percentage) for a in Adjustment.objects.all()}
    assert stored == {
        "S": ("pct", Decimal("61.80")),
        "E": ("pct", Decimal("38.20")),
        "W": ("pct", Decimal("38.20")),
    }


def test_a_percentage_in_datum_is_u_times_p_minus_50_over_10() -> None:
    event, tables, board = _world("datum", adjustment_unit=5)
    adjusted_scores_set(
        table=tables[3], board=board, scores={"S": "61.8%", "E": "avg+", "W": "0%"}, reason="x"
    )
    totals = _totals(event)
    # u·(p − 50)/10: 5·(61.8 − 50)/10 = 5.9; avg+ is +u = 5; 0 % is 5·(0 − 50)/10 = −25.
    assert (totals["t4S"][0], totals["t4E"][0], totals["t4W"][0]) == (F(59, 10), 5, -25)


def test_adjustment_set_takes_one_seats_percentage() -> None:
    event, tables, board = _world()
    adjustment_set(
        table=tables[3], board=board, seat="S", kind="pct", percentage="55.5", reason="x"
    )
    assert Adjustment.objects.get().percentage == Decimal("55.50")
    # The table's other seats are ruled on too: the board opens once every seat of table 4
    # has its adjusted score (tournaments.core.embargo).
    for seat in "EW":
        adjustment_set(table=tables[3], board=board, seat=seat, kind="avg", reason="x")
    assert _totals(event)["t4S"] == (F(333, 100), 6)  # 55.5 % of 6


@pytest.mark.parametrize(
    "scores",
    [
        {"S": "100.01%"},
        {"S": "-1%"},
        {"S": "61.825%"},
        {"S": "abc"},
        {"S": "NaN%"},
        {"S": "6 0%"},
        {"S": "60"},
        {"S": "weighted"},
        {"N": "avg"},
        {},
    ],
)
def test_bad_percentages_and_seats_are_refused_and_nothing_is_stored(scores) -> None:
    _event, tables, board = _world()
    with pytest.raises(RulingRejected):
        adjusted_scores_set(table=tables[3], board=board, scores=scores, reason="x")
    assert not Adjustment.objects.exists()


def test_a_percentage_needs_its_kind_and_a_reason() -> None:
    _event, tables, board = _world()
    for kind, percentage, reason in [
        ("pct", None, "x"),
        ("avg+", "60", "x"),
        ("pct", "60", "  "),
        ("pct", "1e1", "x"),
        ("pct", "inf", "x"),
        ("weighted", None, "x"),
    ]:
        with pytest.raises(RulingRejected):
            adjustment_set(
                table=tables[3],
                board=board,
                seat="S",
                kind=kind,
                percentage=percentage,
                reason=reason,
            )
    assert not Adjustment.objects.exists()


@pytest.mark.parametrize(
    ("results", "says"),
    [
        ([], "at least one possible result"),
        ([("1/2", PLAYED[0]), ("1/3", PLAYED[1])], "sum to 1 (these sum to 5/6)"),
        ([("3/2", PLAYED[0]), ("-1/2", PLAYED[1])], "above 0"),
        ([("1", PLAYED[0]), ("0", PLAYED[1])], "above 0"),
        ([("one", PLAYED[0])], "above 0"),
        ([("1", {"S": 6, "E": -3})], "every seat"),
        ([("1", {"S": 6, "E": -3, "W": -3, "N": 0})], "every seat"),
        ([("1", {"S": 6, "E": -3, "W": "-3.5"})], "whole number"),
        ([("1", {"S": 6, "E": -3, "W": True})], "whole number"),
        ([("1", {"S": 6, "E": -3, "W": -2})], "sum to 0"),
        ([("1/7", PLAYED[0])] * 7, "at most 6"),
        # The same result twice is one result whose weight was split (the trial's finding:
        # accepted, and shown as two).
        (
            [("1/2", PLAYED[0]), ("1/4", PLAYED[1]), ("1/4", PLAYED[0])],
            "Possible results 1 and 3 give the same scores: give that result once, "
            "with their weights added (3/4).",
        ),
    ],
)
def test_bad_weighted_scores_are_refused_and_nothing_is_stored(results, says: str) -> None:
    _event, tables, board = _world()
    with pytest.raises(RulingRejected, match=re.escape(says)):
        weighted_score_set(table=tables[3], board=board, results=results, reason="x")
    with pytest.raises(RulingRejected, match="reason"):
        weighted_score_set(table=tables[3], board=board, results=POSSIBLE, reason=" ")
    assert not Adjustment.objects.exists()


def test_weights_may_be_fractions_decimals_or_percentages() -> None:
    event, tables, board = _world()
    made = weighted_score_set(
        table=tables[3],
        board=board,
        results=[("0.25", POSSIBLE[0][1]), ("75%", POSSIBLE[1][1])],
        reason="x",
    )
    by_seat = {a.seat: a.weighted for a in made}
    assert by_seat["S"] == [{"score": 6, "weight": "1/4"}, {"score": -3, "weight": "3/4"}]
    # S: ¼·5 + ¾·1 = 2 matchpoints.
    assert _totals(event)["t4S"] == (F(2), 6)


def test_a_weighted_score_is_the_whole_tables_and_replaces_its_seats_rulings() -> None:
    event, tables, board = _world()
    adjusted_scores_set(table=tables[3], board=board, scores={"S": "avg+", "E": "avg"}, reason="x")
    weighted_score_set(table=tables[3], board=board, results=POSSIBLE, reason="y")
    assert sorted(Adjustment.objects.values_list("seat", "kind")) == [
        ("E", "weighted"),
        ("S", "weighted"),
        ("W", "weighted"),
    ]
    # One seat of a weighted table cannot be given a score of its own: the table's result is
    # one ruling.
    with pytest.raises(RulingRejected, match="weighted score"):
        adjusted_scores_set(table=tables[3], board=board, scores={"W": "avg-"}, reason="z")
    # Removing one seat's part removes the table's weighted score.
    removed = Adjustment.objects.get(seat="E")
    assert adjustment_remove(adjustment_id=removed.pk) is True
    assert not Adjustment.objects.exists()
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", flat=True))
    assert actions[-2:] == ["adjustment.set", "adjustment.remove"]
    assert computed_rows(event=event)[None] == []  # the board is under embargo again


def test_a_weighted_score_with_one_result_of_weight_1_is_that_result() -> None:
    event, tables, board = _world()
    weighted_score_set(table=tables[3], board=board, results=[("1", POSSIBLE[0][1])], reason="x")
    weighted = _totals(event)
    Adjustment.objects.all().delete()
    Game.objects.create(
        table=tables[3], board=board, record={}, status=Status.VERIFIED, score=POSSIBLE[0][1]
    )
    assert _totals(event) == weighted
