"""The nine-player Kirkman movement (tournaments.seating): pure, tested without a database."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from tournaments.seating.designs import kirkman_nine
from tournaments.seating.schedule import repeat_pairs, seat_imbalance


def test_every_pair_meets_at_exactly_one_table() -> None:
    movement = kirkman_nine()
    met = Counter(
        pair for round_ in movement for table in round_ for pair in combinations(sorted(table), 2)
    )
    assert set(met) == set(combinations(range(1, 10), 2))
    assert set(met.values()) == {1}
    assert repeat_pairs(movement) == 0


def test_four_rounds_of_three_tables_each_player_once_per_round() -> None:
    movement = kirkman_nine()
    assert len(movement) == 4
    for round_ in movement:
        assert len(round_) == 3
        assert sorted(p for table in round_ for p in table) == list(range(1, 10))


def test_seats_are_balanced() -> None:
    assert seat_imbalance(kirkman_nine()) == 1


def test_repeat_pairs_counts_extra_meetings() -> None:
    assert repeat_pairs([[(1, 2, 3)], [(1, 2, 4)], [(1, 2, 5)]]) == 2
