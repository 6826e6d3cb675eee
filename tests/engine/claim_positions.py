"""Claim positions from the real games, and an exhaustive claim judge for tiny endgames.

- ``claim_records()``: the claims (R-CLAIM): each verified real game of tests/data
  cut a few plays before its end, once with the side that won claiming and once with the side
  that lost (JSON records ending ``{"claim": SEAT}``). The cut is drawn from a seeded generator:
  before the last 2 to 6 card plays (passes not counted).
- ``reference_claim(...)``: whether a side wins from a position against every defence, by plain
  minimax over every sub-multiset of each hand, classified by the independent reference
  classifier (reference.py) and compared by the rule text (R-CMP, R-AMBIG); nothing of the
  engine's search, move generator or comparison. Exponential: for endgames of a few cards.

Used by tests/engine/test_claims.py and by scripts/bench_engine.py (section ``claims``).
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from reference import RefReading, classify, parse, sub_multisets

from tests.paths import DATA_DIR

_classify = cache(classify)

DATA = DATA_DIR
SOURCES = ("rlcard_rule_agents.jsonl", "botzone_ftl1.jsonl")
SEATS = ("S", "E", "W")


def real_games() -> list[dict[str, Any]]:
    """The real games of tests/data, in file order."""
    return [
        json.loads(line)
        for name in SOURCES
        for line in (DATA / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def claim_records(seed: int = 20240601, least: int = 2, most: int = 6) -> list[dict[str, Any]]:
    """Two claims per verified real game: the game cut just before its last ``least`` to
    ``most`` card plays (seeded; passes between them are not counted), claimed by the seat that
    went out (the winning side), then by a seat of the other side (the landlord, or the first
    farmer to move after the cut). Each record carries ``claim_side`` (``won`` or ``lost``)
    beside the fields of RECORDS.md §1."""
    rng = random.Random(seed)
    out = []
    for game in real_games():
        if game["expected"]["status"] != "verified":
            continue
        plays = game["plays"]
        made = [i for i, (_, cards) in enumerate(plays) if cards != "pass"]
        back = rng.randint(least, min(most, len(made)))
        cut = made[-back]  # the turn of the back-th last card play: it is cut with the rest
        winner_seat = plays[-1][0]
        landlord = game["landlord"]
        farmers = [s for s in SEATS if s != landlord]
        if winner_seat == landlord:
            first_to_move = SEATS.index(plays[cut][0])
            loser_seat = next(s for s in _after(first_to_move - 1) if s in farmers)
        else:
            loser_seat = landlord
        for seat, which in ((winner_seat, "won"), (loser_seat, "lost")):
            record = {k: v for k, v in game.items() if k not in ("expected", "source")}
            record.update(
                id=f"{game['id']}-claim-{which}",
                plays=[list(p) for p in plays[:cut]],
                end={"claim": seat},
                claim_side=which,
            )
            out.append(record)
    return out


def _after(index: int) -> list[str]:
    return [SEATS[(index + k) % 3] for k in (1, 2, 3)]


def tiny_claim_records(most_cards: int = 10, most_in_hand: int = 5) -> list[dict[str, Any]]:
    """Endgames small enough for ``reference_claim``: each verified classic real game cut at
    the earliest turn where at most ``most_cards`` cards are left, at most ``most_in_hand`` in
    any hand, claimed once by each side (as in ``claim_records``)."""
    out = []
    for game in real_games():
        if game["expected"]["status"] != "verified" or game["rules"] != "classic":
            continue
        plays = game["plays"]
        held = {s: len(game["hands"][s]) for s in SEATS}
        held[game["landlord"]] += len(game["bottom"])
        cut = None
        for i, (seat, cards) in enumerate(plays):
            if cards != "pass":
                held[seat] -= len(cards)
            if (
                i + 1 < len(plays)
                and sum(held.values()) <= most_cards
                and max(held.values()) <= most_in_hand
            ):
                cut = i + 1
                break
        if cut is None:
            continue
        landlord = game["landlord"]
        winner_seat = plays[-1][0]
        loser_seat = landlord if winner_seat != landlord else SEATS[(SEATS.index(landlord) + 1) % 3]
        for seat, which in ((winner_seat, "won"), (loser_seat, "lost")):
            record = {k: v for k, v in game.items() if k not in ("expected", "source")}
            record.update(
                id=f"{game['id']}-tiny-{which}",
                plays=[list(p) for p in plays[:cut]],
                end={"claim": seat},
                claim_side=which,
            )
            out.append(record)
    return out


# --------------------------------------------------------------------------------------------
# The exhaustive reference judge


def _beats(play: RefReading, open_reading: RefReading) -> bool:
    """R-CMP from the rule text: the rocket beats all; a bomb beats any non-bomb and a lower
    bomb; otherwise the same type and length with a higher rank."""
    order = "3456789TJQKA2BR"
    if play.type == "rocket":
        return open_reading.type != "rocket"
    if open_reading.type == "rocket":
        return False
    if play.type == "bomb":
        return open_reading.type != "bomb" or order.index(play.rank) > order.index(
            open_reading.rank
        )
    return (
        play.type == open_reading.type
        and play.length == open_reading.length
        and order.index(play.rank) > order.index(open_reading.rank)
    )


def reference_claim(
    hands: dict[str, str],
    to_move: str,
    open_readings: frozenset[RefReading] | None,
    last: str | None,
    passes: int,
    landlord: str,
    side: str,
) -> bool:
    """Whether ``side`` (``landlord`` or ``farmers``) wins from this three-player, classic
    position against every defence: its seats choose, the others answer every way."""
    start = tuple(parse(hands[s]) for s in SEATS)

    def on_side(seat: int) -> bool:
        return (SEATS[seat] == landlord) == (side == "landlord")

    @cache
    def wins(
        held: tuple[tuple[int, ...], ...],
        turn: int,
        open_: frozenset[RefReading] | None,
        last_: int,
        passes_: int,
    ) -> bool:
        options: list[bool] = []
        hand = held[turn]
        for cards in sub_multisets(hand):
            readings = _classify(cards)
            if not readings:
                continue
            if open_ is not None:
                readings = frozenset(r for r in readings if any(_beats(r, o) for o in open_))
                if not readings:
                    continue
            rest = tuple(h - c for h, c in zip(hand, cards, strict=True))
            if not any(rest):
                options.append(on_side(turn))
                continue
            after = held[:turn] + (rest,) + held[turn + 1 :]
            options.append(wins(after, (turn + 1) % 3, readings, turn, 0))
        if open_ is not None:  # a pass (R-TRICK: two passes give the lead back)
            if passes_ + 1 == 2:
                options.append(wins(held, last_, None, last_, 0))
            else:
                options.append(wins(held, (turn + 1) % 3, open_, last_, passes_ + 1))
        return any(options) if on_side(turn) else all(options)

    return wins(
        start,
        SEATS.index(to_move),
        open_readings,
        SEATS.index(last) if last is not None else 0,
        passes,
    )
