"""Movements (tournaments.seating) as properties: every round seats each playing player once,
no repeats wherever a resolvable design exists, repeats never below the proven bound, seats
and sit-outs spread evenly, clubs kept apart, Swiss and team rounds as specified."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.seating import designs, movements, swiss
from tournaments.seating import schedule as seating_schedule


def _check_shape(
    schedule: seating_schedule.Schedule, players: int, rounds: int, seats: int
) -> None:
    assert len(schedule.rounds) == rounds
    for tables, out in zip(schedule.rounds, schedule.sit_out, strict=True):
        seated = [p for t in tables for p in t]
        assert all(len(t) == seats for t in tables)
        assert sorted(seated + out) == list(range(1, players + 1))
    assert schedule.repeat_pairs == seating_schedule.repeat_pairs(schedule.rounds)
    assert schedule.repeat_pairs >= schedule.lower_bound


@pytest.mark.parametrize(
    ("players", "rounds", "seats"),
    [
        (9, 4, 3),
        (15, 7, 3),
        (21, 10, 3),
        (27, 13, 3),
        (16, 5, 4),
        (25, 6, 5),
        (4, 3, 2),
        (10, 9, 2),
        (33, 5, 3),
    ],
)
def test_designs_give_no_repeats(players: int, rounds: int, seats: int) -> None:
    schedule = movements.movement(players, rounds, seats=seats)
    _check_shape(schedule, players, rounds, seats)
    assert schedule.method == "design"
    assert schedule.repeat_pairs == 0
    # Every pair meets exactly once over a full design: C(N, 2) meetings.
    met = {pair for r in schedule.rounds for t in r for pair in combinations(sorted(t), 2)}
    full = rounds * (seats - 1) == players - 1
    if full:
        assert len(met) == players * (players - 1) // 2
    # R rounds at k seats: each player holds each seat ⌊R/k⌋ or ⌈R/k⌉ times.
    assert schedule.seat_imbalance == (0 if rounds % seats == 0 else 1)


def test_kirkman_fifteen_and_twenty_one_are_resolvable() -> None:
    for n, r in ((15, 7), (21, 10)):
        design = designs.kirkman(n)
        assert design is not None and len(design) == r
        for round_ in design:
            assert sorted(p for t in round_ for p in t) == list(range(1, n + 1))
        pairs = Counter(pair for rr in design for t in rr for pair in combinations(sorted(t), 2))
        assert len(pairs) == n * (n - 1) // 2 and set(pairs.values()) == {1}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 5),
    players=st.integers(2, 40),
    rounds=st.integers(1, 8),
    seed=st.integers(0, 10**6),
)
def test_any_movement_is_well_formed_and_fair(
    seats: int, players: int, rounds: int, seed: int
) -> None:
    if players < seats:
        with pytest.raises(seating_schedule.SeatingError):
            movements.movement(players, rounds, seats=seats)
        return
    schedule = movements.movement(players, rounds, seats=seats, seed=seed, steps=30_000)
    _check_shape(schedule, players, rounds, seats)
    sat = Counter(p for out in schedule.sit_out for p in out)
    counts = [sat[p] for p in range(1, players + 1)]
    assert max(counts) - min(counts) <= 1
    # Few enough rounds that a player meets at most everyone once: zero repeats are possible
    # and the search must find them when there is plenty of room (at most a third of the field).
    if (seats - 1) * rounds * 3 <= players - 1:
        assert schedule.repeat_pairs == 0
    # Each player holds each seat ⌊m/k⌋ or ⌈m/k⌉ times over the m rounds he plays.
    for p in range(1, players + 1):
        held = Counter(t.index(p) for r in schedule.rounds for t in r if p in t)
        m = sum(held.values())
        assert all(m // seats <= held[s] <= -(-m // seats) for s in range(seats))
    exact = rounds % seats == 0 and players % seats == 0
    assert schedule.seat_imbalance <= (0 if exact else 1)


def test_a_single_table_repeats_exactly_as_the_bound_says() -> None:
    schedule = movements.movement(3, 4, seats=3)
    assert schedule.repeat_pairs == schedule.lower_bound == 3 * 3
    assert schedule.seat_imbalance == 1  # 4 rounds over 3 seats: 2, 1, 1


def test_lower_bound_counts_meetings() -> None:
    # 9 players, 5 rounds of three tables: 45 meetings, 36 pairs: at least 9 repeats.
    assert seating_schedule.lower_bound(9, 5, 3) == 9
    # 10 players at tables of 3 (one sits out): 9 play each round; player bound 2·R − 9.
    assert seating_schedule.lower_bound(10, 4, 3) == 0
    assert seating_schedule.lower_bound(6, 3, 3) == 3 * 3 * 2 - 15


def test_clubs_are_kept_apart_when_a_design_allows() -> None:
    clubs = {p: "Red" if p <= 3 else "Blue" if p <= 6 else "" for p in range(1, 10)}
    schedule = movements.movement(9, 2, seats=3, clubs=clubs)
    assert schedule.repeat_pairs == 0
    # Three players of a club can all be kept apart in two rounds of the design.
    assert schedule.club_conflicts == 0
    assert seating_schedule.club_conflicts(schedule.rounds, clubs) == 0


def test_clubs_are_kept_apart_by_the_search() -> None:
    clubs = {p: f"C{p % 4}" for p in range(1, 25)}
    schedule = movements.movement(24, 3, seats=3, clubs=clubs)
    assert schedule.repeat_pairs == 0 and schedule.club_conflicts == 0


def test_swiss_groups_by_standing_and_avoids_repeats() -> None:
    ranking = [9, 8, 7, 6, 5, 4, 3, 2, 1]
    tables, out = swiss.swiss_round(ranking, [], seats=3)
    assert out == [] and [sorted(t) for t in tables] == [[7, 8, 9], [4, 5, 6], [1, 2, 3]]
    # After they met, the top three are split up, each with the nearest players by rank.
    tables, _out = swiss.swiss_round(ranking, [[(9, 8, 7), (6, 5, 4), (3, 2, 1)]], seats=3)
    assert seating_schedule.repeat_pairs([[(9, 8, 7), (6, 5, 4), (3, 2, 1)], tables]) == 0
    assert 9 in tables[0] and 6 in tables[0]


def test_swiss_sit_outs_go_to_who_sat_out_least_lowest_first() -> None:
    ranking = [1, 2, 3, 4]
    _tables, out = swiss.swiss_round(ranking, [], seats=3)
    assert out == [4]
    _tables, out = swiss.swiss_round(ranking, [], seats=3, sat_out={4: 1})
    assert out == [3]


def test_team_rounds_give_each_team_each_seat_once() -> None:
    for k in (2, 3, 4, 5):
        teams = [tuple(range(t * k + 1, t * k + k + 1)) for t in range(k)]
        tables = swiss.team_round(teams)
        team_of = {p: i for i, t in enumerate(teams) for p in t}
        for team in range(k):
            held = sorted(s for t in tables for s, p in enumerate(t) if team_of[p] == team)
            assert held == list(range(k))


def test_team_match_gives_each_team_every_hand_once() -> None:
    x, y = (1, 2, 3), (4, 5, 6)
    for r in range(3):
        t1, t2 = swiss.team_match_round(x, y, r)
        assert t1[0] in x and set(t1[1:]) <= set(y)
        assert t2[0] in y and set(t2[1:]) <= set(x)
    with pytest.raises(seating_schedule.SeatingError):
        swiss.team_match_round((1, 2, 3), (3, 4, 5))
