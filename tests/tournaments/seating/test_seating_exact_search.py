"""The exact search of a small field (tournaments.seating.exact): the bounds it proves equal the
fewest repeats, then club meetings, of every movement (checked against all movements of tiny
fields), it finds a movement that has that few, 12 players over five rounds and 12 players of
four clubs over four rounds are settled, and a budget too small or a field too large leaves a
bound proved, never a wrong claim."""

from __future__ import annotations

from itertools import combinations, permutations, product

import pytest

from tournaments.seating import exact
from tournaments.seating import schedule as seating_schedule


def _splits(players: list[int], seats: int) -> list[list[tuple[int, ...]]]:
    """Every split of ``players`` into tables of ``seats``, found the long way: every order of
    the players cut into tables, the same split kept once."""
    seen: dict[frozenset[frozenset[int]], list[tuple[int, ...]]] = {}
    for order in permutations(players):
        tables = [tuple(order[i : i + seats]) for i in range(0, len(order), seats)]
        seen.setdefault(frozenset(frozenset(t) for t in tables), tables)
    return list(seen.values())


def _fewest(players: int, rounds: int, seats: int, clubs: dict[int, str]) -> tuple[int, int]:
    """(repeats, club meetings) of the best movement, by trying every movement."""
    sit_out = seating_schedule.sit_out_schedule(players, rounds, seats)
    choices = [
        _splits([p for p in range(1, players + 1) if p not in out], seats) for out in sit_out
    ]
    return min(
        (seating_schedule.repeat_pairs(m), seating_schedule.club_conflicts(m, clubs))
        for m in product(*choices)
    )


@pytest.mark.parametrize(
    ("players", "rounds", "seats", "clubs"),
    [
        (6, 3, 3, {}),
        (6, 3, 3, {1: "A", 2: "B", 3: "A", 4: "A", 5: "A", 6: "A"}),
        (6, 4, 3, {2: "A", 4: "A", 5: "A"}),
        (7, 3, 3, {}),  # one sits out each round
        (7, 4, 3, {1: "A", 2: "A", 4: "B", 5: "B", 7: "B"}),
        (6, 3, 2, {1: "A", 2: "B", 4: "A", 5: "B", 6: "B"}),
        (5, 4, 2, {1: "A", 2: "B", 3: "A", 5: "A"}),
        (8, 3, 4, {1: "B", 2: "A", 3: "A", 4: "B", 5: "B", 6: "A", 7: "A", 8: "A"}),
        (4, 3, 2, {1: "B", 2: "A", 3: "A", 4: "A"}),
    ],
)
def test_the_proved_bounds_are_the_fewest_of_every_movement(
    players: int, rounds: int, seats: int, clubs: dict[int, str]
) -> None:
    repeats, clashes = _fewest(players, rounds, seats, clubs)
    sit_out = seating_schedule.sit_out_schedule(players, rounds, seats)
    # Given a movement as bad as can be, from bounds of nothing.
    proof = exact.prove(
        players,
        sit_out,
        seats,
        clubs,
        repeats=99,
        clashes=99,
        repeat_floor=0,
        club_floor=0,
        steps=10**7,
    )
    assert (proof.repeat_bound, proof.club_bound) == (repeats, clashes)
    assert proof.complete and proof.repeats_optimal and proof.clubs_optimal
    assert proof.rounds is not None
    assert seating_schedule.repeat_pairs(proof.rounds) == repeats
    assert seating_schedule.club_conflicts(proof.rounds, clubs) == clashes
    for tables, out in zip(proof.rounds, sit_out, strict=True):
        assert sorted([p for t in tables for p in t] + out) == list(range(1, players + 1))


def test_twelve_players_over_five_rounds_meet_at_least_three_times_again() -> None:
    # Counting allows 0 (60 meetings, 66 pairs; 10 of 11 each); no nearly Kirkman triple
    # system on 12 points exists, and the search finds none with 1 or 2 either.
    sit_out = seating_schedule.sit_out_schedule(12, 5, 3)
    assert seating_schedule.lower_bound(12, 5, 3) == 0
    proof = exact.prove(
        12, sit_out, 3, {}, repeats=3, clashes=0, repeat_floor=0, club_floor=0, steps=10**7
    )
    assert (proof.repeat_bound, proof.repeats_optimal, proof.complete) == (3, True, True)
    assert proof.rounds is None  # the movement given is already optimal
    # Given a worse movement, it hands over one with 3.
    better = exact.prove(
        12, sit_out, 3, {}, repeats=6, clashes=0, repeat_floor=0, club_floor=0, steps=10**7
    )
    assert better.rounds is not None and seating_schedule.repeat_pairs(better.rounds) == 3


def test_four_clubs_of_three_over_four_rounds_clash_at_least_three_times() -> None:
    clubs = {p: "ABCD"[(p - 1) // 3] for p in range(1, 13)}
    sit_out = seating_schedule.sit_out_schedule(12, 4, 3)
    assert seating_schedule.club_floor(clubs, sit_out, 12, 3) == 0
    proof = exact.prove(
        12, sit_out, 3, clubs, repeats=0, clashes=5, repeat_floor=0, club_floor=0, steps=10**7
    )
    assert proof.complete and proof.repeats_optimal and proof.clubs_optimal
    assert (proof.repeat_bound, proof.club_bound) == (0, 3)
    assert proof.rounds is not None
    assert seating_schedule.repeat_pairs(proof.rounds) == 0
    assert seating_schedule.club_conflicts(proof.rounds, clubs) == 3


def test_a_budget_too_small_leaves_a_bound_proved_and_claims_nothing_more() -> None:
    sit_out = seating_schedule.sit_out_schedule(12, 5, 3)

    def run() -> exact.Proof:
        return exact.prove(
            12, sit_out, 3, {}, repeats=3, clashes=0, repeat_floor=0, club_floor=0, steps=20_000
        )

    proof = run()
    assert not proof.complete and not proof.repeats_optimal
    assert 0 <= proof.repeat_bound < 3 and proof.rounds is None
    assert proof.steps == 20_000
    assert run() == proof  # steps, not seconds: the same proof on any machine


def test_a_large_field_keeps_its_counting_bounds() -> None:
    sit_out = seating_schedule.sit_out_schedule(18, 8, 3)
    proof = exact.prove(
        18, sit_out, 3, {}, repeats=4, clashes=0, repeat_floor=0, club_floor=0, steps=10**6
    )
    assert proof == exact.Proof(0, False, 0, True, None, True, 0)
    # Nine players over more rounds than the search goes deep: counting only.
    rounds = exact.MAX_ROUNDS + 1
    floor = seating_schedule.lower_bound(9, rounds, 3)
    proof = exact.prove(
        9,
        seating_schedule.sit_out_schedule(9, rounds, 3),
        3,
        {},
        repeats=floor + 1,
        clashes=0,
        repeat_floor=floor,
        club_floor=0,
        steps=10**6,
    )
    assert (proof.repeat_bound, proof.repeats_optimal, proof.steps) == (floor, False, 0)


def test_negative_steps_are_refused() -> None:
    with pytest.raises(ValueError):
        exact.prove(6, [[]], 3, {}, repeats=1, clashes=0, repeat_floor=0, club_floor=0, steps=-1)


def test_seatings_are_every_split_once() -> None:
    for players, seats in ((6, 3), (6, 2), (8, 4), (9, 3)):
        found = list(exact.seatings(range(1, players + 1), seats))
        assert (
            len(found)
            == exact.seating_count(players, seats)
            == len(_splits(list(range(1, players + 1)), seats))
        )
        assert len({frozenset(frozenset(t) for t in s) for s in found}) == len(found)
        assert all(a < b for s in found for t in s for a, b in combinations(t, 2))
