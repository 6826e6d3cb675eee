"""The duplicate-aware rating's pure core (tournaments.ratings.model): openskill's Plackett–Luce
model over (board, seat) groups ranked by the sign of the raw score (won, passed out, lost),
ties as ties, each table's entry its holder's side against the other side, adjusted results
left out, deterministic."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from tournaments.ratings import model as rating
from tournaments.ratings.model import Group, RatedSeat


def test_a_group_ranks_its_players_by_the_sign_of_their_raw_score_ties_as_ties() -> None:
    # Four tables held the same hand: +10, +5, -3, -6. Won, won, lost, lost: the stakes
    # (bids, bombs) that make +10 of +5 were set by the whole table, so the group compares
    # who won with the hand (the duplicate comparison), ties as ties.
    after = rating.rate_group({}, [(1, 10), (2, 5), (3, -3), (4, -6)])
    assert after[1] == after[2] and after[3] == after[4]
    assert after[1].mu > rating.MU > after[3].mu
    # A passed-out hand (0) ranks between a win and a loss.
    after = rating.rate_group({}, [(1, 2), (2, 0), (3, -1)])
    assert after[1].mu > after[2].mu > after[3].mu
    # Without tablemates, the library's own model with competition ranks 1, 1, 3, 3 gives
    # the same figures (to rounding: the rating measures every member from mu 25).
    model = PlackettLuce()
    reference = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 1, 3, 3])
    after = rating.rate_group({}, [(1, 10), (2, 5), (3, -3), (4, -6)])
    assert [(t[0].mu, t[0].sigma) for t in reference] == [
        pytest.approx((after[i].mu, after[i].sigma), rel=1e-12) for i in (1, 2, 3, 4)
    ]


def test_the_tablemates_of_a_hand_are_found_by_the_sign_of_the_table_scores() -> None:
    # Board 1, table 1: S is the landlord and wins (+4), E and W the farmers (-2 each);
    # table 2: E is the landlord and loses (-4), S and W +2 (R-SC-MULT: landlord ±2u).
    # Table 3 passed out (R-PASSOUT: 0 for every seat): no side, both others are opponents.
    results = [
        RatedSeat(1, 1, 0, 10, 4),
        RatedSeat(1, 1, 1, 11, -2),
        RatedSeat(1, 1, 2, 12, -2),
        RatedSeat(1, 2, 0, 20, 2),
        RatedSeat(1, 2, 1, 21, -4),
        RatedSeat(1, 2, 2, 22, 2),
        RatedSeat(1, 3, 0, 30, 0),
        RatedSeat(1, 3, 1, 31, 0),
        RatedSeat(1, 3, 2, 32, 0),
    ]
    south, east, _west = rating.duplicate_groups(results)
    assert south.results == ((10, 4), (20, 2), (30, 0))
    assert south.tablemates == (((), (11, 12)), ((22,), (21,)), ((), (31, 32)))
    assert east.tablemates[0] == ((12,), (10,)) and east.tablemates[1] == ((), (20, 22))
    # An adjusted seat is no tablemate: his result was replaced by a ruling.
    results[2] = RatedSeat(1, 1, 2, 12, -2, adjusted=True)
    south, east, west = rating.duplicate_groups(results)
    assert south.tablemates[0] == ((), (11,)) and east.tablemates[0] == ((), (10,))
    assert [i for i, _s in west.results] == [22, 32]


def _win_of(opponents_mu: float) -> float:
    """Player 1's gain when he wins the hand that player 2 lost, both landlords, 1's two
    opponents rated `opponents_mu` and 2's rated 25."""
    start = {3: rating.Rating(opponents_mu, 1.0), 4: rating.Rating(opponents_mu, 1.0)}
    after = rating.rate_group(start, [(1, 4), (2, -4)], (((), (3, 4)), ((), (5, 6))))
    return after[1].mu - rating.MU


def test_a_win_against_stronger_tablemates_teaches_more() -> None:
    # The partner and the opponents differ per table: the entry of a table is its holder's
    # side against the other side (a team of openskill), so beating strong farmers is worth
    # more than beating weak ones, and the tablemates' ratings move with the result.
    assert _win_of(35.0) > _win_of(25.0) > _win_of(15.0) > 0
    results = [(1, 2), (2, -2)]
    tablemates = (((7,), (8,)), ((9,), (10,)))  # 1 and 7 won as farmers; 2 and 9 lost
    after = rating.rate_group({}, results, tablemates)
    assert after[1] == after[7] and after[1].mu > rating.MU
    assert after[8].mu < rating.MU  # the landlord who lost to 1 and 7
    assert after[2].mu < rating.MU and after[10].mu > rating.MU
    # A team is its side's mean against the other side's mean: the farmers of a side count a
    # half each, so one farmer's rating moves less than a lone landlord's.
    assert after[1].mu - rating.MU < after[10].mu - rating.MU


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
        RatedSeat(board=1, table=1, seat=0, player=1, score=6),
        RatedSeat(board=1, table=2, seat=0, player=2, score=-3),
        RatedSeat(board=1, table=3, seat=0, player=3, score=0, adjusted=True),
        RatedSeat(board=1, table=1, seat=1, player=4, score=-3),
    ]
    groups = rating.duplicate_groups(results)
    assert [(g.key, g.results) for g in groups] == [
        ((1, 0), ((1, 6), (2, -3))),
        ((1, 1), ((4, -3),)),
    ]
    assert groups[0].tablemates == (((), (4,)), ((), ()))
    (after,) = rating.rate_events([groups])
    assert set(after) == {1, 2, 4}  # player 3's only result was adjusted
    # Player 4 alone in his group learns nothing from it, but he is player 1's opponent at
    # table 1, where player 1 won: that moves him down.
    assert rating.rate_group({}, groups[1].results, groups[1].tablemates) == {}
    assert after[4].mu < rating.MU
    assert after[1].mu > rating.MU > after[2].mu


def test_the_baseline_ranks_each_table_by_its_table_scores() -> None:
    results = [
        RatedSeat(board=1, table=1, seat=0, player=1, score=6),
        RatedSeat(board=1, table=1, seat=1, player=2, score=-3),
        RatedSeat(board=1, table=1, seat=2, player=3, score=-3),
        RatedSeat(board=1, table=2, seat=0, player=4, score=-2),
    ]
    assert rating.table_groups(results) == [
        Group((1, 1), ((1, 6), (2, -3), (3, -3))),
        Group((1, 2), ((4, -2),)),
    ]


def _event(rng: random.Random, players: int = 9, boards: int = 3) -> list[RatedSeat[int]]:
    out = []
    for b in range(boards):
        order = rng.sample(range(players), players)
        for t in range(players // 3):
            for s in range(3):
                out.append(RatedSeat(b, t, s, order[3 * t + s], rng.choice([-6, -3, 3, 6, 12])))
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
    # The same as a tablemate: every table entry that holds him is left out.
    results = [(2, 3), (3, -3), (4, 0), (9, -1)]
    tablemates = (((1,), (5,)), ((), (1, 6)), ((), (7, 8)), ((), (10, 11)))
    assert set(rating.rate_group({}, results, tablemates)) == {4, 7, 8, 9, 10, 11}


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
