"""Series standings (tournaments.league.series): pure, exact; points by finishing place, best k of
n."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.league import series
from tournaments.league.series import EventPlaces

F = Fraction
SCALE = (F(10), F(8), F(6), F(5), F(4), F(3), F(2), F(1))


def test_worked_example_ties_share_the_points_of_the_places_they_cover() -> None:
    # By hand, on the scale 10 8 6 5 4 3 2 1: places 1, 2=, 2=, 4, 5=, 5=, 5=, 8, 9.
    # B and C cover places 2 and 3: (8 + 6) / 2 = 7 each. D: place 4, 5 points.
    # E, F, G cover places 5, 6, 7: (4 + 3 + 2) / 3 = 3 each. H: 1. I: off the scale, 0.
    places = {"A": 1, "B": 2, "C": 2, "D": 4, "E": 5, "F": 5, "G": 5, "H": 8, "I": 9}
    points = series.place_points(places, SCALE)
    assert points == {
        "A": 10,
        "B": 7,
        "C": 7,
        "D": 5,
        "E": 3,
        "F": 3,
        "G": 3,
        "H": 1,
        "I": 0,
    }
    assert all(isinstance(v, Fraction) for v in points.values())


def test_a_tie_across_the_end_of_the_scale_shares_what_is_left() -> None:
    # Two players tied 8th on an 8-place scale cover places 8 and 9: (1 + 0) / 2.
    assert series.place_points({"x": 8, "y": 8}, SCALE) == {"x": F(1, 2), "y": F(1, 2)}


def test_non_terminating_share_stays_exact() -> None:
    # Three tied first on 10 8 6 5: (10 + 8 + 6) / 3 = 8; on 10 8 5: 23/3, never 7.666….
    assert series.place_points({"a": 1, "b": 1, "c": 1}, (F(10), F(8), F(5))) == {
        "a": F(23, 3),
        "b": F(23, 3),
        "c": F(23, 3),
    }


def test_best_k_of_n_counts_the_best_k_events_only() -> None:
    # Three events; best 2 of 3. On the default-like scale 10 8 6 5:
    # A: 1st, 4th, 1st -> 10, 5, 10 -> best two 20.  B: 2nd, 1st, 2nd -> 8, 10, 8 -> 18.
    # C: 3rd, 2nd, (absent) -> 6, 8 -> 14.  D: 4th, 3rd, 3rd -> 5, 6, 6 -> 12.
    events = [
        EventPlaces("e1", {"A": 1, "B": 2, "C": 3, "D": 4}),
        EventPlaces("e2", {"B": 1, "C": 2, "D": 3, "A": 4}),
        EventPlaces("e3", {"A": 1, "B": 2, "D": 3}),
    ]
    rows = series.series_standings(events, scale=(F(10), F(8), F(6), F(5)), best_of=2)
    assert [(r.rank, r.player, r.total) for r in rows] == [
        ("1", "A", 20),
        ("2", "B", 18),
        ("3", "C", 14),
        ("4", "D", 12),
    ]
    a = rows[0]
    assert a.points == (F(10), F(5), F(10))
    assert a.counted == (True, False, True)
    assert a.played == 3
    c = rows[2]
    assert c.points == (F(6), F(8), None)
    assert c.counted == (True, True, False)
    # Without best_of every event counts: A 25, B 26.
    everything = series.series_standings(events, scale=(F(10), F(8), F(6), F(5)))
    assert [(r.player, r.total) for r in everything][:2] == [("B", 26), ("A", 25)]


def test_equal_totals_share_a_rank_without_tiebreaks() -> None:
    events = [EventPlaces("e1", {"A": 1, "B": 2}), EventPlaces("e2", {"B": 1, "A": 2})]
    rows = series.series_standings(events, scale=SCALE)
    assert [(r.rank, r.player, r.total) for r in rows] == [("1=", "A", 18), ("1=", "B", 18)]


def test_tiebreaks_best_event_then_head_to_head_then_lot() -> None:
    # A: 10 + 3 = 13; B: 8 + 5 = 13; best single event decides: A (10) above B (8).
    events = [
        EventPlaces("e1", {"A": 1, "B": 2}),
        EventPlaces("e2", {"x": 1, "y": 2, "z": 3, "B": 4, "q": 5, "A": 6}),
    ]
    rows = series.series_standings(events, scale=SCALE, tiebreaks=["best_event"])
    top = [(r.rank, r.player, r.decided_by) for r in rows if r.player in "AB"]
    assert top == [("1", "A", "best_event"), ("2", "B", "best_event")]
    # Head to head: in e1 A finished above B, in e2 B above A; e3 A above B -> A 2 wins.
    h2h = [
        EventPlaces("e1", {"A": 1, "B": 2}),
        EventPlaces("e2", {"B": 1, "A": 2}),
        EventPlaces("e3", {"C": 1, "A": 2, "B": 3, "D": 4}),
        EventPlaces("e4", {"C": 1, "B": 2, "A": 3}),
    ]
    # A: 10+8+8+6 = 32; B: 8+10+6+8 = 32; equal best event (10); A finished above B in e1
    # and e3, B above A in e2 and e4: head to head is equal too, so the lot decides.
    rows = series.series_standings(
        h2h, scale=SCALE, tiebreaks=["best_event", "head_to_head", "lot"], seed="s"
    )
    ab = [r for r in rows if r.player in "AB"]
    assert {r.decided_by for r in ab} == {"lot"}
    lots = sorted("AB", key=lambda p: series.lot_value("s", p))
    assert [r.player for r in ab] == lots
    assert [r.rank for r in ab] == ["1", "2"]


def test_head_to_head_decides_between_the_tied() -> None:
    # On 10 8 6 5: A 10 + 6 + 8 = 24, B 8 + 10 + 6 = 24, best event 10 each. Where they met,
    # A finished above B in e1 and e3, B above A in e2: A 2, B 1, so A ranks above B.
    events = [
        EventPlaces("e1", {"A": 1, "B": 2}),
        EventPlaces("e2", {"B": 1, "C": 2, "A": 3}),
        EventPlaces("e3", {"C": 1, "A": 2, "B": 3}),
    ]
    scale = (F(10), F(8), F(6), F(5))
    rows = series.series_standings(events, scale=scale, tiebreaks=["best_event", "head_to_head"])
    assert [(r.rank, r.player, r.total, r.decided_by) for r in rows] == [
        ("1", "A", 24, "head_to_head"),
        ("2", "B", 24, "head_to_head"),
        ("3", "C", 18, ""),
    ]
    # Without tie-breaks they share the rank.
    rows = series.series_standings(events, scale=scale)
    assert [(r.rank, r.player) for r in rows][:2] == [("1=", "A"), ("1=", "B")]


def test_bad_input_is_refused() -> None:
    with pytest.raises(series.SeriesError):
        series.place_points({"a": 0}, SCALE)
    with pytest.raises(series.SeriesError):
        series.series_standings([], scale=SCALE, best_of=0)
    with pytest.raises(series.SeriesError):
        series.series_standings([], scale=SCALE, tiebreaks=["lot"])
    with pytest.raises(series.SeriesError):
        series.series_standings([], scale=SCALE, tiebreaks=["coin"])
    with pytest.raises(series.SeriesError):
        series.parse_scale("10, 8, x")
    with pytest.raises(series.SeriesError):
        series.parse_scale("10, -1")


def test_parse_and_format_scale_round_trip() -> None:
    assert series.parse_scale("10, 8 6,5.5 1/3") == (F(10), F(8), F(6), F(11, 2), F(1, 3))
    assert series.format_scale((F(10), F(11, 2), F(1, 3))) == "10, 11/2, 1/3"
    assert series.parse_scale(series.format_scale(series.DEFAULT_SCALE)) == series.DEFAULT_SCALE


places_st = st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=12)


def _competition(places: list[int]) -> dict[int, int]:
    """Competition places (1, 2, 2, 4) from arbitrary scores: player i has score places[i]."""
    order = sorted(range(len(places)), key=lambda i: places[i])
    out = {}
    for pos, i in enumerate(order):
        first = next(p for p, j in enumerate(order) if places[j] == places[i])
        out[i] = first + 1 if pos >= first else pos + 1
    return out


@given(places_st, st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=12))
def test_sharing_conserves_the_points_of_the_places_covered(
    scores: list[int], scale_ints: list[int]
) -> None:
    scale = tuple(F(v) for v in sorted(scale_ints, reverse=True))
    places = _competition(scores)
    points = series.place_points(places, scale)
    # The points handed out are those of places 1..n, whatever the ties.
    n = len(places)
    assert sum(points.values()) == sum(scale[:n])
    # Tied players get the same; a better place never gets fewer points.
    for a in places:
        for b in places:
            if places[a] == places[b]:
                assert points[a] == points[b]
            if places[a] < places[b]:
                assert points[a] >= points[b]


@given(
    st.lists(st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=6), max_size=5),
    st.integers(min_value=1, max_value=5),
)
def test_best_k_total_is_the_sum_of_the_k_largest(events_scores: list[list[int]], k: int) -> None:
    events = [
        EventPlaces(f"e{i}", {p: place for p, place in _competition(s).items()})
        for i, s in enumerate(events_scores)
    ]
    rows = series.series_standings(events, scale=SCALE, best_of=k)
    for row in rows:
        played = [p for p in row.points if p is not None]
        assert row.total == sum(sorted(played, reverse=True)[:k])
        assert sum(row.counted) == min(k, len(played))
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)
    assert [r.position for r in rows] == list(range(1, len(rows) + 1))
