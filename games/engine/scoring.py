"""Scoring (记分): the table score of each seat (RULES.md §4).

Vocabulary:

- *unit* (u): what each farmer wins or loses against the landlord; the landlord wins or loses
  u per farmer. Scores are zero-sum.
- *multiplier*: the doubling factor applied to the contract: 2^(bombs + rockets) × spring
  (R-SC-MULT, R-SC-CN2016), also × show (R-SC-ROB); under the additive scoring (R-SC-ADD) the
  multiplier is the unit itself (seed 001 calls each +1 a 倍).
- *contract*: landlord, contract value (``bid``), doubles, redouble, show, surrender.
"""

from __future__ import annotations

from dataclasses import dataclass

from .combos import Reading
from .rules import RuleSet

__all__ = ["Contract", "Settlement", "settle", "SCORING_RULE"]

SCORING_RULE = {
    "multiply": "R-SC-MULT",
    "rob": "R-SC-ROB",
    "additive": "R-SC-ADD",
    "cn2016": "R-SC-CN2016",
    "two_player": "R-2P",
    "four_player": "R-4P",
    "five_player": "R-5P",
}


@dataclass(frozen=True)
class Contract:
    """What the bidding settled: ``landlord`` seat, ``bid`` (contract value), ``doubles``
    (farmer seats that doubled), ``redoubled``, ``shown`` (明牌), ``surrendered``."""

    landlord: str
    bid: int
    doubles: tuple[str, ...] = ()
    redoubled: bool = False
    shown: bool = False
    surrendered: bool = False
    partner: str | None = None
    reveals: int = 0


@dataclass(frozen=True)
class Settlement:
    """The scored result: ``winner`` (``landlord``/``farmers``), ``unit``, ``multiplier``,
    ``score`` per seat (ints summing to zero), ``explanation`` (English, for mismatch messages).
    """

    winner: str
    unit: int
    multiplier: int
    score: dict[str, int]
    explanation: str


def settle(
    rules: RuleSet,
    contract: Contract,
    *,
    winner: str,
    bombs: int,
    rockets: int,
    spring: bool,
    anti_spring: bool,
    bomb_readings: tuple[Reading, ...] = (),
) -> Settlement:
    """Score one game.

    Args:
        rules: the rule set (its ``scoring`` system and options).
        contract: the bidding's result.
        winner: ``"landlord"`` or ``"farmers"``.
        bombs, rockets: how many were played alone (R-KICK 3).
        spring, anti_spring: R-SPRING.

    Returns:
        A ``Settlement``; per-seat scores sum to zero.

    Rules: R-SC-MULT, R-SC-ROB, R-SC-ADD (with ``max_additions``), R-SURRENDER, R-SC-CN2016.

    >>> from games.engine.rules import RuleSet
    >>> s = settle(RuleSet.from_spec("classic"), Contract("S", 3), winner="landlord",
    ...            bombs=2, rockets=1, spring=False, anti_spring=False)
    >>> s.score
    {'S': 48, 'E': -24, 'W': -24}
    """
    seats = rules.seats
    side = {contract.landlord} | ({contract.partner} if contract.partner else set())
    farmers = [s for s in seats if s not in side]
    sign = 1 if winner == "landlord" else -1
    doublings = bombs + rockets
    springish = spring or anti_spring
    notes = [f"bid {contract.bid}"]
    if bombs:
        notes.append(_count(bombs, "bomb"))
    if rockets:
        notes.append(f"{rockets} rocket")
    if spring:
        notes.append("spring")
    if anti_spring:
        notes.append("anti-spring")
    stakes: dict[str, int]
    scoring = rules.scoring
    if scoring in ("two_player", "four_player", "five_player"):
        unit, multiplier, stakes = _other_sizes(
            rules, contract, bombs, rockets, spring, bomb_readings, farmers, notes
        )
    elif scoring == "additive":
        # R-SC-ADD: u = value + doubles + one per bomb or rocket + 1 for (anti-)spring,
        # additions capped by max_additions; R-SURRENDER: the landlord concedes u − 1, u
        # counting the value and the doubles (no card was played).
        cap = rules.max_additions
        additions = len(contract.doubles) + doublings + (1 if springish else 0)
        unit = contract.bid + (additions if cap is None else min(additions, cap))
        if contract.doubles:
            notes.append(_count(len(contract.doubles), "double"))
        if contract.surrendered:
            doubles = len(contract.doubles)
            unit = contract.bid + (doubles if cap is None else min(doubles, cap)) - 1
            notes.append("surrender")
            sign = -1
        multiplier = unit
        stakes = {f: unit for f in farmers}
    else:
        multiplier = 2**doublings
        if springish:
            multiplier *= rules.spring_multiplier
        if scoring == "rob":
            # R-SC-ROB: u = base × 3 × 2^robs (the contract value) × 2^(bombs+rockets) ×
            # spring × show.
            if contract.shown:
                multiplier *= rules.show_multiplier
                notes.append("show")
            unit = rules.base * contract.bid * multiplier
            stakes = {f: unit for f in farmers}
        elif scoring == "cn2016":
            # R-SC-CN2016: each farmer's own stake, ×2 if he doubled, ×2 again if redoubled.
            unit = contract.bid * multiplier
            stakes = {}
            for f in farmers:
                stake = unit
                if f in contract.doubles:
                    stake *= 2
                    if contract.redoubled:
                        stake *= 2
                stakes[f] = stake
            if contract.doubles:
                notes.append("doubled by " + " ".join(contract.doubles))
            if contract.redoubled:
                notes.append("redoubled")
        else:
            unit = contract.bid * multiplier  # R-SC-MULT
            stakes = {f: unit for f in farmers}
    # Each farmer settles his stake with the landlord's side; two landlords (R-5P) share the
    # total, the first the odd unit if any.
    landlords = [contract.landlord] + ([contract.partner] if contract.partner else [])
    score = {s: 0 for s in seats}
    for f, stake in stakes.items():
        score[f] = -sign * stake
    total = sum(stakes.values())
    for i, lord in enumerate(landlords):
        share = total // len(landlords) + (1 if i < total % len(landlords) else 0)
        score[lord] += sign * share
    return Settlement(
        winner="farmers" if sign < 0 else "landlord",
        unit=unit,
        multiplier=multiplier,
        score=score,
        explanation=", ".join(notes),
    )


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


def _other_sizes(
    rules: RuleSet,
    contract: Contract,
    bombs: int,
    rockets: int,
    spring: bool,
    bomb_readings: tuple[Reading, ...],
    farmers: list[str],
    notes: list[str],
) -> tuple[int, int, dict[str, int]]:
    """R-2P, R-4P and R-5P: (unit, multiplier, each farmer's stake)."""
    scoring = rules.scoring
    if scoring == "two_player":
        # R-2P: u = 2^(bombs + rockets); one farmer.
        multiplier = 2 ** (bombs + rockets)
        return multiplier, multiplier, {f: multiplier for f in farmers}
    if scoring == "four_player":
        # R-4P: u = bid × 2^(rockets + bombs of six or more cards); 4- and 5-card bombs don't.
        big = sum(1 for r in bomb_readings if r.length >= 6)
        multiplier = 2 ** (rockets + big)
        unit = contract.bid * multiplier
        return unit, multiplier, {f: unit for f in farmers}
    # R-5P: bombs of 5+ cards and three or four jokers double, each reveal and each player's
    # double ×2, spring ×2. Decision: each landlord–farmer pair settles one unit, so with two
    # landlords each farmer ∓2u and each landlord ±3u.
    doubling = sum(
        1
        for r in bomb_readings
        if (r.rank in ("B", "R") and r.length >= 3) or (r.rank not in ("B", "R") and r.length >= 5)
    )
    multiplier = 2 ** (doubling + len(contract.doubles) + contract.reveals)
    if spring:
        multiplier *= 2
    if contract.doubles:
        notes.append(_count(len(contract.doubles), "double"))
    if contract.reveals:
        notes.append("revealed")
    per_farmer = multiplier * (2 if contract.partner else 1)
    return multiplier, multiplier, {f: per_farmer for f in farmers}
