"""Swiss seating, pure: a round seated from a ranking (swiss_round: neighbours in the ranking
meet, repeats avoided), and the rounds of team events (team_round, team_match_round).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

from tournaments.seating.movements import assign_seats
from tournaments.seating.schedule import SeatingError, Table

# --- Swiss and team rounds ----------------------------------------------------------------


def swiss_round(
    ranking: Sequence[int],
    history: Sequence[Sequence[Sequence[int]]],
    *,
    seats: int = 3,
    sat_out: Mapping[int, int] | None = None,
    clubs: Mapping[int, str] | None = None,
    window: int = 12,
) -> tuple[list[Table], list[int]]:
    """One Swiss round: tables of k by current standing, avoiding players who met before.

    ``ranking`` lists the players best first; ``history`` is the movement so far (for meetings
    and seats held); ``sat_out`` counts each player's sit-outs so far. The N mod k players who
    sat out least (the lowest ranked among equals) sit out. Each table starts with the best
    unseated player and takes, among the next ``window`` unseated players by rank, those who
    add the fewest repeat meetings (then club meetings), nearest in rank first.

    Returns (tables in seat order, players sitting out).

    Raises:
        SeatingError: fewer players than seats, a player twice.
    """
    if len(set(ranking)) != len(ranking):
        raise SeatingError("a player is listed twice in the ranking")
    if len(ranking) < seats:
        raise SeatingError(f"a table of {seats} needs at least {seats} players")
    counts = sat_out or {}
    extra = len(ranking) % seats
    place = {p: i for i, p in enumerate(ranking)}
    out = sorted(ranking, key=lambda p: (counts.get(p, 0), -place[p]))[:extra]
    free = [p for p in ranking if p not in set(out)]
    met: Counter[tuple[int, int]] = Counter()
    held: dict[int, list[int]] = {}
    for r in history:
        for t in r:
            for a, b in combinations(sorted(t), 2):
                met[(a, b)] += 1
            for s, p in enumerate(t):
                if s < seats:
                    held.setdefault(p, [0] * seats)[s] += 1
    club = {p: c for p, c in (clubs or {}).items() if c}

    def cost(p: int, table: Sequence[int]) -> tuple[int, int]:
        return (
            sum(met[(min(p, x), max(p, x))] for x in table),
            sum(1 for x in table if club.get(p) and club.get(x) == club.get(p)),
        )

    groups: list[list[int]] = []
    while free:
        table = [free.pop(0)]
        while len(table) < seats:
            candidates = free[:window]
            best = min(range(len(candidates)), key=lambda i: (cost(candidates[i], table), i))
            table.append(free.pop(best))
        groups.append(table)
    return assign_seats(groups, held, seats), sorted(out)


def team_round(teams: Sequence[Sequence[int]]) -> list[Table]:
    """Teams of k at k tables (k teams): team T's member t sits at table t in seat (T + t) mod
    k, so each team holds each seat, i.e. each hand of every board, exactly once.

    >>> team_round([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    [(1, 4, 7), (8, 2, 5), (6, 9, 3)]

    Raises:
        SeatingError: not k teams of k players each, or a player in two teams.
    """
    k = len(teams)
    if not 2 <= k <= 5 or any(len(t) != k for t in teams):
        raise SeatingError("a team round needs k teams of k players (k = seats per table)")
    if len({p for t in teams for p in t}) != k * k:
        raise SeatingError("a player is in two teams")
    tables: list[Table] = []
    for t in range(k):
        tables.append(tuple(teams[(s - t) % k][t] for s in range(k)))
    return tables


def team_match_round(x: Sequence[int], y: Sequence[int], round_index: int = 0) -> list[Table]:
    """A two-table match of two teams of k: at table 1 one player of X holds seat 1 and k − 1
    players of Y the other seats; at table 2 the reverse, so X holds every hand once per board
    (DESIGN.md: X's net = r(s, table 1) − r(s, table 2)). Who plays alone rotates with
    ``round_index``.

    >>> team_match_round((1, 2, 3), (4, 5, 6))
    [(1, 4, 5), (6, 2, 3)]

    Raises:
        SeatingError: teams of different sizes or of other than 2..5 players, or shared players.
    """
    k = len(x)
    if len(y) != k or not 2 <= k <= 5:
        raise SeatingError("a team match needs two teams of k players (k = seats per table)")
    if set(x) & set(y) or len(set(x)) != k or len(set(y)) != k:
        raise SeatingError("a player is in both teams or twice in one")
    s = round_index % k
    xs = list(x[s:]) + list(x[:s])
    ys = list(y[s:]) + list(y[:s])
    return [(xs[0], *ys[: k - 1]), (ys[k - 1], *xs[1:])]
