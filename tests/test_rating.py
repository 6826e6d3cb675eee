"""The duplicate-aware rating's pure core (tournaments.rating): openskill's Plackett–Luce
model over (board, seat) groups ranked by raw score, ties as ties, adjusted results left out,
deterministic."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from tournaments import rating
from tournaments.rating import Group, SeatResult


def test_a_group_ranks_its_players_by_raw_score_with_ties_as_ties() -> None:
    # Four tables held the same hand: +10, +5, +5, -3 (issue 14: ranked by raw score).
    after = rating.rate_group({}, [(1, 10), (2, 5), (3, 5), (4, -3)])
    assert after[1].mu > rating.MU > after[4].mu
    assert after[2] == after[3]  # equal raw scores are a tie
    assert after[1].mu > after[2].mu > after[4].mu
    # The library's own model with competition ranks 1, 2, 2, 4 gives the same figures.
    model = PlackettLuce()
    reference = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 2, 2, 4])
    assert [(t[0].mu, t[0].sigma) for t in reference] == [
        (after[i].mu, after[i].sigma) for i in (1, 2, 3, 4)
    ]


def test_the_conservative_figure_is_mu_less_three_sigma() -> None:
    assert rating.INITIAL.mu == 25 and rating.INITIAL.sigma == pytest.approx(25 / 3)
    assert rating.INITIAL.ordinal == pytest.approx(0)
    r = rating.Rating(30.0, 2.0)
    assert r.ordinal == 24.0


def test_exact_scores_decide_ties_never_floats() -> None:
    from fractions import Fraction

    after = rating.rate_group({}, [(1, Fraction(1, 3)), (2, Fraction(2, 6)), (3, 0)])
    assert after[1] == after[2]


def test_adjusted_results_are_left_out_and_a_lone_player_learns_nothing() -> None:
    results = [
        SeatResult(board=1, table=1, seat=0, player=1, score=6),
        SeatResult(board=1, table=2, seat=0, player=2, score=-3),
        SeatResult(board=1, table=3, seat=0, player=3, score=0, adjusted=True),
        SeatResult(board=1, table=1, seat=1, player=4, score=-3),
    ]
    groups = rating.duplicate_groups(results)
    assert groups == [Group((1, 0), ((1, 6), (2, -3))), Group((1, 1), ((4, -3),))]
    (after,) = rating.rate_events([groups])
    assert set(after) == {1, 2, 4}  # player 3's only result was adjusted
    assert after[4] == rating.INITIAL
    assert after[1].mu > rating.MU > after[2].mu


def test_the_baseline_ranks_each_table_by_its_table_scores() -> None:
    results = [
        SeatResult(board=1, table=1, seat=0, player=1, score=6),
        SeatResult(board=1, table=1, seat=1, player=2, score=-3),
        SeatResult(board=1, table=1, seat=2, player=3, score=-3),
        SeatResult(board=1, table=2, seat=0, player=4, score=-2),
    ]
    assert rating.table_groups(results) == [
        Group((1, 1), ((1, 6), (2, -3), (3, -3))),
        Group((1, 2), ((4, -2),)),
    ]


def _event(rng: random.Random, players: int = 9, boards: int = 3) -> list[SeatResult[int]]:
    out = []
    for b in range(boards):
        order = rng.sample(range(players), players)
        for t in range(players // 3):
            for s in range(3):
                out.append(SeatResult(b, t, s, order[3 * t + s], rng.choice([-6, -3, 3, 6, 12])))
    return out


def test_the_same_results_in_any_order_give_the_same_ratings() -> None:
    rng = random.Random(14)
    events = [_event(rng) for _ in range(3)]
    first = rating.rate_events([rating.duplicate_groups(e) for e in events])
    for _ in range(5):
        shuffled = []
        for e in events:
            groups = rating.duplicate_groups(rng.sample(e, len(e)))
            shuffled.append(rng.sample(groups, len(groups)))
        assert rating.rate_events(shuffled) == first


def test_ratings_carry_from_event_to_event_and_restart_from_a_stored_state() -> None:
    rng = random.Random(3)
    a, b = (rating.duplicate_groups(_event(rng)) for _ in range(2))
    whole = rating.rate_events([a, b])
    (after_a,) = rating.rate_events([a])
    (after_b,) = rating.rate_events([b], start=after_a)
    assert after_a == whole[0] and after_b == whole[1]
    # Events are rated in the order given: another order, other figures.
    assert rating.rate_events([b, a])[1] != whole[1]


def test_a_player_met_twice_in_one_group_is_left_out_of_it() -> None:
    assert rating.rate_group({}, [(1, 3), (1, 6)]) == {}
    after = rating.rate_group({}, [(1, 3), (1, 6), (2, 0), (3, 9)])
    assert set(after) == {2, 3} and after == rating.rate_group({}, [(2, 0), (3, 9)])


def test_kendall_tau_b_of_a_worked_example() -> None:
    # x = 1 1 2 2, y = 1 2 3 4: of the 6 pairs, 2 are tied in x and the 4 others concordant,
    # so tau_b = (4 - 0) / sqrt((6 - 2) * (6 - 0)).
    assert rating.kendall_tau_b([1, 1, 2, 2], [1, 2, 3, 4]) == pytest.approx(4 / 24**0.5)
    with pytest.raises(ValueError):
        rating.kendall_tau_b([1, 1], [1, 2])


def test_docstring_examples() -> None:
    import doctest

    failures, tried = doctest.testmod(rating)
    assert tried > 0 and failures == 0
