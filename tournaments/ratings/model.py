"""The duplicate-aware rating: pure, deterministic, without Django.

Vocabulary: a *group* is one (board, seat) of an event: the players who held that hand at
different tables, each with his *raw score* on it (DESIGN.md, Raw; the engine's table score,
R-SCORE), adjusted results left out. A group is one multiplayer match of the Plackett–Luce
model (openskill's PlackettLuce, Weng and Lin's Bayesian approximation) between its tables:
every player's rating is a *mean* mu and an *uncertainty* sigma, shown as the conservative
*ordinal* mu − 3·sigma (about 99.7 % of the belief is above it). A group of fewer than two
tables teaches nothing and is skipped.

The two choices that make the duplicate comparison beat table results on a simulated field
of known strengths (tournaments.ratings.sim; README, "Rating"):

- *Ranked by the sign of the raw score*: the holders who won with the hand, then those whose
  board passed out (0, R-PASSOUT), then those who lost, ties as ties. The size of a score is
  the stakes (bid, bombs, spring: R-SC-MULT), set by the whole table, not by the holder.
- *Each table's entry is a team*: the holder's side (he and his partners, the tablemates whose
  score has his sign) against the other side (his opponents): an openskill team whose members
  are the side's players at weight +1/len(side) and the opponents at −1/len(opponents), so the
  entry's strength is the mean of his side less the mean of the other (a passed-out table:
  the holder alone against both others). A negative or fractional weight c enters the model
  as a member rated c·(mu − 25) with uncertainty |c|·sigma, and its update is mapped back: the
  exact Gaussian update of a linear combination of ratings. Every member's rating moves.

The *baseline* (`table_groups`) ranks the players of one table by their table scores on a
board instead, each alone: what a rating sees without the duplicate comparison.

Determinism: `rate_events` takes the events in the order given (the caller's rating order:
tournaments.ratings.service.rated_events) and, inside an event, the groups sorted by (board, seat)
and
each group's tables by their holder's identity, so the same input gives the same floats on any
machine (IEEE-754 doubles, the same operations in the same order). Ratings start at
openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) and carry from event to event.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from openskill.models import PlackettLuce, PlackettLuceRating

# A player's identity: a player id, an external id, a person id (sortable, for determinism).
Identity = TypeVar("Identity", int, str)
Score = int | float | Fraction

# The model with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): named once
# so that every recompute on every machine uses the same parameters.
MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
TAU = MODEL.tau
# The same model without its dynamics: rate_group adds tau to each player once per group
# itself (as the library does), before a weight scales his uncertainty.
_STATIC = PlackettLuce(tau=0.0)
# The conservative figure: mu − Z·sigma.
Z = 3.0


@dataclass(frozen=True)
class Rating:
    """One player's rating: mean `mu`, uncertainty `sigma`; `ordinal` = mu − 3·sigma."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma


INITIAL = Rating(MU, SIGMA)


# The tablemates of one holder at his table: (partners, opponents), identities in order.
Tablemates = tuple[tuple[Identity, ...], tuple[Identity, ...]]


@dataclass(frozen=True)
class Group(Generic[Identity]):
    """One (board, seat) of an event: `results` are (identity, raw score) pairs and
    `tablemates`, when given, each holder's (partners, opponents) at his table, in the same
    order (empty: every holder alone, as the baseline's tables).

    `key` orders the groups of an event (any sortable value: (board number, seat index))."""

    key: tuple[int, int]
    results: tuple[tuple[Identity, Score], ...]
    tablemates: tuple[Tablemates[Identity], ...] = ()


def rate_group(
    ratings: Mapping[Identity, Rating],
    results: Sequence[tuple[Identity, Score]],
    tablemates: Sequence[Tablemates[Identity]] = (),
) -> dict[Identity, Rating]:
    """The new ratings of the players of one group after it: `results` are (identity, raw
    score) pairs, ranked by the sign of the score (won, passed out, lost; equal signs tie);
    `tablemates` each holder's (partners, opponents), in the order of `results`, or empty
    (each holder alone). Each table is one entry: the holder's side against the other side
    (module docstring). Players absent from `ratings` start at INITIAL. Tables are taken in
    the order of their holders' identities (determinism). An identity met twice in the group
    (one person seated at two tables: a data error the rating does not judge) leaves out
    every table that holds him: he cannot be compared with himself.

    Raises:
        ValueError: `tablemates` given but not one per result.
    """
    if tablemates and len(tablemates) != len(results):
        raise ValueError("rate_group needs one (partners, opponents) per result")
    # One entry per table: (holder, sign of his score, his side, the other side).
    tables: list[tuple[Identity, int, tuple[Identity, ...], tuple[Identity, ...]]] = []
    for k, result in enumerate(results):
        holder = result[0]
        partners: tuple[Identity, ...] = tablemates[k][0] if tablemates else ()
        opponents: tuple[Identity, ...] = tablemates[k][1] if tablemates else ()
        tables.append((holder, _sign(result[1]), (holder,) + partners, opponents))
    count: Counter[Identity] = Counter()
    for entry in tables:
        count.update(entry[2] + entry[3])
    kept = [e for e in tables if all(count[i] == 1 for i in e[2] + e[3])]
    kept.sort(key=lambda e: e[0])
    if len(kept) < 2:
        return {}
    members: list[list[tuple[Identity, float]]] = [
        [(i, 1 / len(own)) for i in own] + [(i, -1 / len(against)) for i in against]
        for _holder, _sign_of, own, against in kept
    ]
    teams = [[_member(ratings.get(i, INITIAL), weight) for i, weight in m] for m in members]
    # Ranks: lower is better, equal ranks are ties (openskill); exact signs, never rounded.
    signs = [entry[1] for entry in kept]
    ranks = [float(1 + sum(1 for better in signs if better > sign)) for sign in signs]
    new = _STATIC.rate(teams, ranks=ranks)
    return {
        i: _player(rated, weight)
        for m, team in zip(members, new, strict=True)
        for (i, weight), rated in zip(m, team, strict=True)
    }


def _member(r: Rating, weight: float) -> PlackettLuceRating:
    """A player as a member of weight `weight` of a team, his dynamics (tau) added first:
    rated weight·(mu − MU), so that every table's entry is measured from the same origin
    (the entry of a side against the other has no intercept, whatever the sizes of the
    sides; the model depends only on the differences between entries)."""
    sigma = math.sqrt(r.sigma * r.sigma + TAU * TAU)
    return _STATIC.rating(mu=weight * (r.mu - MU), sigma=abs(weight) * sigma)


def _player(member: PlackettLuceRating, weight: float) -> Rating:
    """The inverse of `_member` (after the update): the player's own rating."""
    return Rating(MU + member.mu / weight, member.sigma / abs(weight))


def _sign(score: Score) -> int:
    exact = Fraction(score)
    return (exact > 0) - (exact < 0)


def rate_events(
    events: Iterable[Sequence[Group[Identity]]],
    *,
    start: Mapping[Identity, Rating] | None = None,
) -> list[dict[Identity, Rating]]:
    """Rate `events` in the order given, each a list of groups; one dict per event: the rating
    after that event of every player who played in it (a player keeps his rating between the
    events he plays). `start`: the ratings before the first event (default: everyone INITIAL).
    """
    current: dict[Identity, Rating] = dict(start or {})
    out: list[dict[Identity, Rating]] = []
    for groups in events:
        played: set[Identity] = set()
        for group in sorted(groups, key=lambda g: g.key):
            current.update(rate_group(current, group.results, group.tablemates))
            played.update(i for i, _s in group.results)
        out.append({i: current.get(i, INITIAL) for i in sorted(played)})
    return out


@dataclass(frozen=True)
class RatedSeat(Generic[Identity]):
    """One seat of one table on one board: the input of `duplicate_groups` and
    `table_groups`. `board` and `table` are sortable ids, `seat` its index in the rules'
    seats (R-SEAT); `adjusted` results (a referee's ruling replaced the game) are left out."""

    board: int
    table: int
    seat: int
    player: Identity
    score: Score
    adjusted: bool = False


def duplicate_groups(results: Iterable[RatedSeat[Identity]]) -> list[Group[Identity]]:
    """The (board, seat) groups of one event: for each board and seat, the players who held
    that hand at its tables with their raw scores and their tablemates (adjusted results left
    out, as holders and as tablemates). A holder's partners are the tablemates whose score has
    his sign (R-SC-MULT: the farmers share the result), his opponents the others (all of them
    at a passed-out table, R-PASSOUT); each in the order of identities."""
    kept = [r for r in results if not r.adjusted]
    at: dict[tuple[int, int], list[RatedSeat[Identity]]] = defaultdict(list)
    for r in kept:
        at[(r.board, r.table)].append(r)
    by: dict[tuple[int, int], list[tuple[tuple[Identity, Score], Tablemates[Identity]]]]
    by = defaultdict(list)
    for r in kept:
        others = [o for o in at[(r.board, r.table)] if o is not r]
        sign = _sign(r.score)
        partners = sorted(o.player for o in others if sign and _sign(o.score) == sign)
        opponents = sorted(o.player for o in others if not sign or _sign(o.score) != sign)
        by[(r.board, r.seat)].append(((r.player, r.score), (tuple(partners), tuple(opponents))))
    return [
        Group(
            key,
            tuple(result for result, _t in by[key]),
            tuple(tablemates for _r, tablemates in by[key]),
        )
        for key in sorted(by)
    ]


def table_groups(results: Iterable[RatedSeat[Identity]]) -> list[Group[Identity]]:
    """The baseline's groups of one event: for each board and table, the table's players,
    each alone, ranked by their table scores (by sign, as every group: the winning side above
    the losing side; no comparison with the other tables)."""
    by: dict[tuple[int, int], list[tuple[Identity, Score]]] = defaultdict(list)
    for r in results:
        if not r.adjusted:
            by[(r.board, r.table)].append((r.player, r.score))
    return [Group(key, tuple(by[key])) for key in sorted(by)]


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b between two scorings of the same items (ties allowed in either):
    (concordant − discordant) / sqrt((n0 − n1)(n0 − n2)), n1, n2 the pairs tied in x, in y.

    >>> kendall_tau_b([1, 2, 3], [1, 2, 3]), kendall_tau_b([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(kendall_tau_b([1, 1, 2, 2], [1, 2, 3, 4]), 4)  # 4 concordant of 6, 2 tied in x
    0.8165

    Raises:
        ValueError: sequences of different lengths, or one that is constant.
    """
    if len(x) != len(y):
        raise ValueError("kendall_tau_b needs two sequences of the same length")
    concordant = discordant = tied_x = tied_y = pairs = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            pairs += 1
            dx, dy = x[i] - x[j], y[i] - y[j]
            if dx == 0:
                tied_x += 1
            if dy == 0:
                tied_y += 1
            if dx * dy > 0:
                concordant += 1
            elif dx * dy < 0:
                discordant += 1
    denominator = math.sqrt((pairs - tied_x) * (pairs - tied_y))
    if denominator == 0:
        raise ValueError("kendall_tau_b of a constant sequence")
    return (concordant - discordant) / denominator
