"""Movements: who sits at which table, in which seat, in every round of a stage.

Pure: plain values in, plain values out, no Django.

Vocabulary (DESIGN.md): a *movement* is a list of rounds; a round is a list of tables; a table
is a tuple of players (numbered 1..N) in seat order (R-SEAT: S, E, W at three players; any
table size k from 2 to 5 works the same way, k = len(RuleSet.seats)). Every table of a round
plays the round's boards. Players who share a table *meet*; `repeat_pairs` counts every meeting
of a pair beyond its first, and `seat_imbalance` is the largest, over players, of (most − fewest
times in one of the k seats). When N is not a multiple of k, N mod k players *sit out* each
round, chosen in a fixed cyclic order so that any two players' sit-out counts differ by at most
one (how a sit-out scores is the event's scoring method's business, not this module's).

Designs: when a *resolvable design* exists for N players in tables of k, its parallel classes
are rounds in which every pair meets at most once over the whole schedule (repeat_pairs 0):

- the nine-player Kirkman triple system of the affine plane AG(2, 3) (`kirkman_nine`, 4 rounds),
  and the affine planes AG(2, k) for k = 2, 3, 4, 5 (N = k², k + 1 rounds);
- Kirkman triple systems for N = 3q, q odd (N ≡ 3 mod 6: 15 players 7 rounds, 21 players 10
  rounds, …), found by a search for a *base parallel class* on Z_q × {0, 1, 2} developed by
  Z_q, together with (q − 1)/2 classes fixed by Z_q (`kirkman`);
- at two seats, the round robin by the circle method (N even, N − 1 rounds).

Otherwise a greedy start is improved by two searches, each counted in *steps* and never in
seconds, so that the same seed gives the same movement on any machine (no clock is read): where
counting allows a movement in which nobody meets twice nor meets a club-mate, a depth-first
search for one (`ApartSearch`); then, if still needed, a local search (simulated annealing over
swaps of two players of one round) for as few repeats as it can, then as few club meetings
(a weight below a repeat's). A small field then goes to the exact search (`exact.prove`), which
proves the fewest repeats, then club meetings, any movement can have, or the best bound its
steps reach, and hands over a better movement when it finds one. The result carries those
bounds (`lower_bound`, by counting where the exact search does not run; `club_lower_bound`),
and `round_checks` lists each round's repeats and club clashes. Seats are
given last, by an edge colouring (`_balance`)
that makes every player hold each seat ⌊m/k⌋ or ⌈m/k⌉ times over his m rounds. Swiss rounds
(`swiss_round`) group players by current standing, avoiding repeats. Team rounds
(`team_round`, `team_match_round`) seat teams so that each team holds each hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import permutations

from tournaments.seating import exact
from tournaments.seating.designs import resolvable_design
from tournaments.seating.schedule import (
    Movement,
    Schedule,
    SeatingError,
    Table,
    club_conflicts,
    club_floor,
    lower_bound,
    repeat_pairs,
    seat_imbalance,
    sit_out_schedule,
)
from tournaments.seating.search import (
    REPEAT_WEIGHT,
    SEARCH_STEPS,
    ApartSearch,
    Search,
    apart_possible,
    greedy_round,
    movement_cost,
    relabel_for_clubs,
)


def assign_seats(
    tables: Sequence[Sequence[int]], held: dict[int, list[int]], seats: int
) -> list[Table]:
    """Seat order for each table of one round, given each player's seat counts so far
    (``held[p][s]``, updated in place): the order that keeps the counts flattest (least sum
    of squares after the round; ties broken towards the order given)."""
    out: list[Table] = []
    for t in tables:
        best: tuple[int, ...] | None = None
        best_cost = 0
        for order in permutations(t):
            cost = 0
            for s, p in enumerate(order):
                c = held.setdefault(p, [0] * seats)[s]
                cost += 2 * c + 1
            if best is None or cost < best_cost:
                best, best_cost = order, cost
        assert best is not None
        for s, p in enumerate(best):
            held[p][s] += 1
        out.append(tuple(best))
    return out


def _balance(rounds: Sequence[Sequence[Sequence[int]]], seats: int) -> Movement:
    """Seat orders for every round such that each player holds each seat ⌊m/k⌋ or ⌈m/k⌉ times
    over the m rounds he plays (seat_imbalance ≤ 1, and 0 when k divides every m).

    A player's rounds are cut into chunks of k in round order; the bipartite multigraph of
    (player, chunk) nodes and (round, table) nodes, an edge per seat taken, has degree at most
    k, so by König's theorem its edges can be coloured with the k seats, the colours at every
    node distinct: each table gets one player per seat and each chunk holds distinct seats.
    The colouring is the classical one: give an edge a colour free at both ends, after
    swapping two colours along an alternating path when needed.
    """
    Node = tuple[int, int, int]
    colour_at: dict[Node, dict[int, int]] = {}
    ends: list[tuple[Node, Node]] = []
    colour: list[int] = []
    played: Counter[int] = Counter()

    def place(e: int, c: int) -> None:
        colour[e] = c
        for node in ends[e]:
            colour_at.setdefault(node, {})[c] = e

    def lift(e: int) -> None:
        for node in ends[e]:
            del colour_at[node][colour[e]]

    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            for p in table:
                left: Node = (0, p, played[p] // seats)
                played[p] += 1
                right: Node = (1, r, t)
                e = len(ends)
                ends.append((left, right))
                colour.append(-1)
                at_left = colour_at.setdefault(left, {})
                at_right = colour_at.setdefault(right, {})
                a = next(c for c in range(seats) if c not in at_left)
                if a in at_right:
                    b = next(c for c in range(seats) if c not in at_right)
                    # The a/b path from the right end never reaches the left end (bipartite).
                    path, node, want = [], right, a
                    while want in colour_at.get(node, {}):
                        f = colour_at[node][want]
                        path.append(f)
                        u, v = ends[f]
                        node = u if v == node else v
                        want = b if want == a else a
                    for f in path:
                        lift(f)
                    for f in path:
                        place(f, b if colour[f] == a else a)
                place(e, a)
    seated: Movement = []
    e = 0
    for tables in rounds:
        out: list[Table] = []
        for table in tables:
            order = [0] * len(table)
            for p in table:
                order[colour[e]] = p
                e += 1
            out.append(tuple(order))
        seated.append(out)
    return seated


def movement(
    players: int,
    rounds: int,
    *,
    seats: int = 3,
    seed: int | str = 0,
    clubs: Mapping[int, str] | None = None,
    steps: int = SEARCH_STEPS,
) -> Schedule:
    """A movement for players 1..N over R rounds at tables of k seats.

    A resolvable design when one is known with at least R rounds (repeat_pairs 0, players then
    renamed to keep clubs apart); else a greedy start. Where club-mates still meet or pairs
    meet twice, and counting allows a movement without either, a depth-first search for one
    (at most half the steps left); then the local search until it meets the lower bounds or
    the ``steps`` are spent (``Schedule.extra["steps"]``: the steps taken). Then, for a small
    field not at its counting bounds, the exact search (exact.prove) with
    exact.STEPS_PER_SEARCH_STEP × ``steps`` steps (``extra["exact_steps"]``): its movement
    when better (method "exact"), its bounds in ``lower_bound`` and ``club_lower_bound``. The
    same arguments give the same movement on any machine: no clock is read, only steps
    counted. ``clubs`` maps a player to his club (empty: none).

    Raises:
        SeatingError: k outside 2..5, fewer players than seats, R < 1 or negative steps.
    """
    _check_movement(players, rounds, seats, steps)
    rng = random.Random(f"ddz-seating:{seed}:{players}:{rounds}:{seats}")
    clubs = {p: c for p, c in (clubs or {}).items() if c}
    sit_out = sit_out_schedule(players, rounds, seats)
    bound = lower_bound(players, rounds, seats)
    clubs_bound = club_floor(clubs, sit_out, players, seats)
    floor = REPEAT_WEIGHT * bound + clubs_bound
    design = resolvable_design(players, seats) if players % seats == 0 else None
    method = "search"
    used = 0
    tables: list[list[list[int]]]
    if design is not None and len(design) >= rounds:
        method = "design"
        tables = [[list(t) for t in r] for r in design[:rounds]]
        if clubs:
            used = relabel_for_clubs(tables, players, clubs, rng, steps // 2)
    else:
        tables = _greedy_start(players, seats, sit_out, clubs, rng)
    if (
        movement_cost(tables, clubs) > floor
        and floor == 0
        and apart_possible(players, seats, sit_out, clubs)
    ):
        # Nobody need meet twice nor meet a club-mate: an exhaustive search finds such a
        # movement where the local search, whose moves trade one for the other, seldom does.
        playing = [[p for p in range(1, players + 1) if p not in set(out)] for out in sit_out]
        apart = ApartSearch(playing, players, seats, clubs, rng)
        found = apart.solve((steps - used) // 2)
        used += apart.spent
        if found is not None:
            tables, method = found, "search"
    if movement_cost(tables, clubs) > floor and method == "search":
        search = Search(tables, players, clubs, rng)
        used += search.run(steps - used, floor)
    proof = _prove(players, sit_out, seats, clubs, tables, (bound, clubs_bound), steps)
    if proof.rounds is not None:
        tables, method = proof.rounds, "exact"
    seated = _balance(tables, seats)
    return Schedule(
        rounds=seated,
        sit_out=sit_out,
        repeat_pairs=repeat_pairs(seated),
        lower_bound=proof.repeat_bound,
        seat_imbalance=seat_imbalance(seated, seats),
        club_conflicts=club_conflicts(seated, clubs),
        method=method,
        extra={"steps": used, "exact_steps": proof.steps},
        club_lower_bound=proof.club_bound,
    )


def _prove(
    players: int,
    sit_out: list[list[int]],
    seats: int,
    clubs: Mapping[int, str],
    tables: list[list[list[int]]],
    floors: tuple[int, int],
    steps: int,
) -> exact.Proof:
    """The exact search (exact.prove) of the movement ``tables``, from the counting ``floors``
    (repeats, club meetings), with exact.STEPS_PER_SEARCH_STEP × ``steps`` steps."""
    return exact.prove(
        players,
        sit_out,
        seats,
        clubs,
        repeats=repeat_pairs(tables),
        clashes=club_conflicts(tables, clubs),
        repeat_floor=floors[0],
        club_floor=floors[1],
        steps=exact.STEPS_PER_SEARCH_STEP * steps,
    )


def _check_movement(players: int, rounds: int, seats: int, steps: int) -> None:
    """Refuse the arguments movement cannot seat.

    Raises:
        SeatingError: k outside 2..5, fewer players than seats, R < 1 or negative steps.
    """
    if not 2 <= seats <= 5:
        raise SeatingError("tables have 2 to 5 seats")
    if players < seats:
        raise SeatingError(f"a table of {seats} needs at least {seats} players")
    if rounds < 1:
        raise SeatingError("a movement has at least one round")
    if steps < 0:
        raise SeatingError("the search's steps are not negative")


def _greedy_start(
    players: int,
    seats: int,
    sit_out: Sequence[Sequence[int]],
    clubs: Mapping[int, str],
    rng: random.Random,
) -> list[list[list[int]]]:
    """The rounds built one by one by greedy_round, each from the players not sitting out,
    counting the meetings of the rounds before (the start of the local search)."""
    count = [[0] * (players + 1) for _ in range(players + 1)]
    tables: list[list[list[int]]] = []
    for out_of_round in sit_out:
        out = set(out_of_round)
        tables.append(
            greedy_round(
                [p for p in range(1, players + 1) if p not in out], seats, count, clubs, rng
            )
        )
    return tables
