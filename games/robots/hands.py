"""Hand decomposition: the fewest plays that empty a hand, and what that costs (one deck).

Vocabulary:

- *group*: one planned play of a hand, with a RULES.md type name (solo, pair, trio,
  trio_with_solo, trio_with_pair, chain_of_solos, chain_of_pairs, chain_of_trios,
  airplane_with_solos, airplane_with_pairs, bomb, rocket), its compared rank (index 0..14 in
  R-RANK order) and its cards as counts.
- *plan*: a decomposition of a whole hand into groups: bombs and the rocket are kept whole
  (R-T11, R-T12: they beat everything else, so breaking them throws away a trick), chains are
  searched (R-T6..R-T8), what is left is grouped by rank, and each trio carries the lowest
  solos or pairs left as kickers (R-T4, R-T5, R-T9, R-T10, R-KICK).
- *cost*: the number of plays of the plan plus, per group, its *weakness*: a low group needs a
  lead of its own to get rid of, a high one (a 2, a joker, a bomb) wins a trick and brings the
  lead back. The lower the cost the closer the hand is to going out (R-END).

The plan of a hand is cached (hands recur along a game and across samples); the search is
bounded by ``MAX_LEAVES`` chain combinations, so its work never depends on the machine.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Group", "Plan", "plan", "group_cost", "ACE", "TWO", "SMALL", "BIG"]

Counts = tuple[int, ...]
ACE, TWO, SMALL, BIG = 11, 12, 13, 14
MAX_LEAVES = 600  # chain combinations tried per hand
_CACHE_LIMIT = 200_000
_CACHE: dict[Counts, Plan] = {}
# (cards per rank, shortest chain, longest chain) of chains of solos, pairs, trios (R-T6..R-T8,
# R-MAX).
_CHAINS = ((1, 5, 12), (2, 3, 10), (3, 2, 6))
_CHAIN_KIND = {1: "chain_of_solos", 2: "chain_of_pairs", 3: "chain_of_trios"}


class Group(NamedTuple):
    """One planned play: ``kind`` (RULES.md type name), ``rank`` (compared rank, 0..14),
    ``cards`` (counts per rank, kickers included), ``length`` (ranks in a chain's body, else 1)."""

    kind: str
    rank: int
    cards: Counts
    length: int = 1

    @property
    def size(self) -> int:
        return sum(self.cards)


class Plan(NamedTuple):
    """A decomposition: ``cost`` (plays plus weaknesses), ``plays`` and the ``groups``."""

    cost: float
    plays: int
    groups: tuple[Group, ...]


def group_cost(group: Group) -> float:
    """The weakness of a group: positive for a low one that must be led to be shed, negative
    for a control (a 2, a joker, a bomb, the rocket) that wins a trick back."""
    if group.kind == "rocket":
        return -1.2
    if group.kind == "bomb":
        return -0.9
    if group.kind.startswith("chain") or group.kind.startswith("airplane"):
        # A long chain is rarely beaten: few hands hold the same shape.
        return 0.2 - 0.04 * group.rank - 0.03 * group.length
    return 0.3 - 0.05 * group.rank


def _counts(spec: dict[int, int]) -> Counts:
    out = [0] * 15
    for r, c in spec.items():
        out[r] += c
    return tuple(out)


def plan(hand: Counts) -> Plan:
    """The cheapest decomposition of ``hand`` (counts per rank, one deck) into groups.

    Returns a ``Plan``; an empty hand has cost 0 and no group.
    """
    found = _CACHE.get(hand)
    if found is None:
        found = _plan(hand)
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        _CACHE[hand] = found
    return found


def _plan(hand: Counts) -> Plan:
    h = list(hand)
    fixed: list[Group] = []
    if h[SMALL] and h[BIG]:
        fixed.append(Group("rocket", BIG, _counts({SMALL: 1, BIG: 1})))
        h[SMALL] -= 1
        h[BIG] -= 1
    for r in range(TWO + 1):
        if h[r] >= 4:
            fixed.append(Group("bomb", r, _counts({r: h[r]})))
            h[r] = 0
    best: list[Plan] = []
    leaves = [0]

    def walk(rest: list[int], start: int, chains: list[Group], narrowest: int = 1) -> None:
        if leaves[0] >= MAX_LEAVES:
            return
        r = start
        while r <= ACE and not rest[r]:
            r += 1
        if r > ACE:
            leaves[0] += 1
            found = _settle(rest, chains, fixed)
            if not best or found.cost < best[0].cost:
                best[:] = [found]
            return
        for width, shortest, longest in _CHAINS:
            # Chains starting at one rank are taken narrowest first: each set is tried once.
            if rest[r] < width or width < narrowest:
                continue
            hi = r
            while hi <= ACE and rest[hi] >= width and hi - r < longest:
                hi += 1
            for top in range(hi - 1, r + shortest - 2, -1):  # longest chain first
                after = rest[:]
                for k in range(r, top + 1):
                    after[k] -= width
                cards = _counts({k: width for k in range(r, top + 1)})
                group = Group(_CHAIN_KIND[width], top, cards, top - r + 1)
                walk(after, r, [*chains, group], width)
        walk(rest, r + 1, chains)

    walk(h, 0, [])
    return best[0]


def _settle(rest: list[int], chains: list[Group], fixed: list[Group]) -> Plan:
    """Group what the chains left by rank; trios (and trio chains) take the lowest solos or
    pairs below the 2 as kickers (R-KICK 1: never of a body rank)."""
    groups: list[Group] = list(fixed)
    trios = [r for r in range(TWO + 1) if rest[r] == 3]
    loose = [(r, rest[r]) for r in range(BIG + 1) if rest[r] in (1, 2) and r < TWO]
    high = [(r, rest[r]) for r in range(TWO, BIG + 1) if rest[r] in (1, 2)]
    for chain in chains:
        if chain.kind != "chain_of_trios":
            groups.append(chain)
            continue
        n = chain.length
        body = {k for k in range(15) if chain.cards[k]}
        picks = _wings(loose, body, n)
        if picks is None:
            groups.append(chain)
            continue
        width, taken = picks
        for pick in taken:
            loose.remove(pick)
        spec = {k: 3 for k in body}
        for r, c in taken:
            spec[r] = spec.get(r, 0) + c
        kind = "airplane_with_solos" if width == 1 else "airplane_with_pairs"
        groups.append(Group(kind, chain.rank, _counts(spec), n))
    for t in trios:
        if loose and loose[0][0] < ACE:
            r, c = loose.pop(0)
            kind = "trio_with_solo" if c == 1 else "trio_with_pair"
            groups.append(Group(kind, t, _counts({t: 3, r: c})))
        else:
            groups.append(Group("trio", t, _counts({t: 3})))
    for r, c in loose + high:
        groups.append(Group("solo" if c == 1 else "pair", r, _counts({r: c})))
    cost = len(groups) + sum(group_cost(g) for g in groups)
    return Plan(cost, len(groups), tuple(groups))


def _wings(
    loose: list[tuple[int, int]], body: set[int], n: int
) -> tuple[int, list[tuple[int, int]]] | None:
    """The lowest ``n`` solo kickers (a pair may give two, R-KICK 2) or ``n`` pair kickers
    for an airplane of ``n`` trios, as ``(width, picked (rank, count) entries)``."""
    solos: list[tuple[int, int]] = []
    units = 0
    for r, c in loose:
        if r in body or units >= n:
            continue
        solos.append((r, c))
        units += c
    if units == n:
        return 1, solos
    pairs = [(r, c) for r, c in loose if c == 2 and r not in body][:n]
    if len(pairs) == n:
        return 2, pairs
    return None
