"""The duplicate-aware rating: pure, deterministic, without Django.

Vocabulary: a *group* is one (board, seat) of an event: the players who held that hand at
different tables, each with his *raw score* on it (DESIGN.md, Raw; the engine's table score,
R-SCORE), adjusted results left out. Ranked by raw score (ties as ties), a group is one
multiplayer match of the Plackett–Luce model (openskill's PlackettLuce, Weng and Lin's
Bayesian approximation): every player's rating is a *mean* mu and an *uncertainty* sigma,
shown as the conservative *ordinal* mu − 3·sigma (about 99.7 % of the belief is above it).
A group of fewer than two players teaches nothing and is skipped.

The *baseline* (`table_groups`) ranks the players of one table by their table scores on a
board instead: what a rating sees without the duplicate comparison.

Determinism: `rate_events` takes the events in the order given (the caller's rating order:
tournaments.ratings.rated_events) and, inside an event, the groups sorted by (board, seat) and
each group's players by identity, so the same input gives the same floats on any machine
(IEEE-754 doubles, the same operations in the same order). Ratings start at openskill's
defaults (mu 25, sigma 25/3) and carry from event to event.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

# A player's identity: a player id, an external id, a person id (sortable, for determinism).
Identity = TypeVar("Identity", int, str)
Score = int | float | Fraction

# The model with openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): named once
# so that every recompute on every machine uses the same parameters.
MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
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


@dataclass(frozen=True)
class Group(Generic[Identity]):
    """One (board, seat) of an event: `results` are (identity, raw score) pairs.

    `key` orders the groups of an event (any sortable value: (board number, seat index))."""

    key: tuple[int, int]
    results: tuple[tuple[Identity, Score], ...]


def rate_group(
    ratings: Mapping[Identity, Rating], results: Sequence[tuple[Identity, Score]]
) -> dict[Identity, Rating]:
    """The new ratings of the players of one group after it: `results` are (identity, raw
    score) pairs, higher is better, equal scores tie; players absent from `ratings` start at
    INITIAL. Players are taken in the order of their identities (determinism). An identity
    met twice in the group (one person seated at two tables: a data error the rating does not
    judge) is left out of it: he cannot be compared with himself.
    """
    count = Counter(identity for identity, _score in results)
    ordered = sorted((r for r in results if count[r[0]] == 1), key=lambda r: r[0])
    ids = [identity for identity, _score in ordered]
    if len(ordered) < 2:
        return {}
    teams = [
        [MODEL.rating(mu=ratings.get(i, INITIAL).mu, sigma=ratings.get(i, INITIAL).sigma)]
        for i in ids
    ]
    # Ranks: lower is better, equal ranks are ties (openskill); exact scores, never rounded.
    ranks = [float(_rank_of(score, ordered)) for _identity, score in ordered]
    new = MODEL.rate(teams, ranks=ranks)
    return {i: Rating(team[0].mu, team[0].sigma) for i, team in zip(ids, new, strict=True)}


def _rank_of(score: Score, ordered: Sequence[tuple[object, Score]]) -> int:
    """1 + the number of results strictly better than `score` (competition ranking)."""
    return 1 + sum(1 for _i, other in ordered if Fraction(other) > Fraction(score))


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
            current.update(rate_group(current, group.results))
            played.update(i for i, _s in group.results)
        out.append({i: current.get(i, INITIAL) for i in sorted(played)})
    return out


@dataclass(frozen=True)
class SeatResult(Generic[Identity]):
    """One seat of one table on one board: the input of `duplicate_groups` and
    `table_groups`. `board` and `table` are sortable ids, `seat` its index in the rules'
    seats (R-SEAT); `adjusted` results (a referee's ruling replaced the game) are left out."""

    board: int
    table: int
    seat: int
    player: Identity
    score: Score
    adjusted: bool = False


def duplicate_groups(results: Iterable[SeatResult[Identity]]) -> list[Group[Identity]]:
    """The (board, seat) groups of one event: for each board and seat, the players who held
    that hand at its tables with their raw scores (adjusted results left out)."""
    by: dict[tuple[int, int], list[tuple[Identity, Score]]] = defaultdict(list)
    for r in results:
        if not r.adjusted:
            by[(r.board, r.seat)].append((r.player, r.score))
    return [Group(key, tuple(by[key])) for key in sorted(by)]


def table_groups(results: Iterable[SeatResult[Identity]]) -> list[Group[Identity]]:
    """The baseline's groups of one event: for each board and table, the table's players
    ranked by their table scores (no comparison with the other tables)."""
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
