"""A simple seeded bot that bids and plays a whole game, for the demo event.

It only ever chooses among what the engine offers (Bidding.legal_calls, GameState.legal_plays),
so every record it writes is legal; the choice is a small heuristic with seeded noise:
bid by hand strength (jokers, 2s, bombs); lead the lowest, longest combination; follow with the
cheapest play that beats, never over a partner's winning play, and keep bombs for when an
opponent is close to going out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engine import RANKS, Bidding, GameState, RuleSet, replay
from games.engine.replay import marked_landlords
from games.notation import rank_cards

_POWER = {"bomb", "rocket"}


def hand_strength(cards: str) -> int:
    """A rough count of winners: 3 per big joker, 2 per small joker, 2 per bomb, 1 per 2."""
    counts = {r: cards.count(r) for r in RANKS}
    bombs = sum(1 for r in RANKS[:13] if counts[r] == 4)
    return 3 * counts["R"] + 2 * counts["B"] + counts["2"] + 2 * bombs + counts["A"] // 2


def choose_call(calls: list[str], strength: int, rng: random.Random) -> str:
    """A call of `calls` by a hand of `strength` (hand_strength) with seeded noise: a bid of
    0..3 by strength, or call, rob, double and redouble above thresholds (R-BID-…)."""
    target = strength + rng.choice((-1, 0, 0, 1))
    numeric = [c for c in calls if c.isdigit()]
    if numeric:
        wanted = 0 if target < 4 else 1 if target < 6 else 2 if target < 8 else 3
        good = [c for c in numeric if int(c) <= wanted]
        return max(good, key=int) if good else "pass"
    for call, needed in (("call", 5), ("rob", 7), ("double", 8), ("redouble", 9)):
        if call in calls and target >= needed:
            return call
    return "pass" if "pass" in calls else calls[0]


def _rank(move: Any) -> int:
    ranks = [RANKS.index(r.rank) for r in move.readings if r.rank in RANKS]
    return min(ranks) if ranks else RANKS.index(move.cards[0])


def _is_power(move: Any) -> bool:
    return any(r.type in _POWER for r in move.readings)


def _choose_play(state: Any, seat: str, landlord: str, rng: random.Random) -> str:
    moves = state.legal_plays()
    plays = [m for m in moves if not m.is_pass]
    can_pass = any(m.is_pass for m in moves)
    if not plays:
        return "pass"
    if not can_pass:  # leading
        ordinary = [m for m in plays if not _is_power(m)] or plays
        lowest = min(_rank(m) for m in ordinary)
        candidates = [m for m in ordinary if _rank(m) == lowest]
        longest = max(len(m.cards) for m in candidates)
        return str(rng.choice([m for m in candidates if len(m.cards) == longest]))
    owner = next((s for s, text in reversed(state.plays) if text != "pass"), None)
    side = {state.seats[i] for i in state.landlord_side}  # R-5P: two landlords may share it
    partner_leads = owner is not None and owner != seat and ((owner in side) == (seat in side))
    if partner_leads:
        return "pass"
    ordinary = sorted(
        (m for m in plays if not _is_power(m)), key=lambda m: (_rank(m), len(m.cards))
    )
    if ordinary and rng.random() < 0.9:
        return str(ordinary[0])
    danger = owner is not None and len(state.hands.get(owner, "")) <= 4
    power = sorted((m for m in plays if _is_power(m)), key=_rank)
    if power and (danger or rng.random() < 0.15):
        return str(power[0])
    return "pass"


# Playing styles of the demo's players (weakest first): "random" makes any legal call and
# play; "largest" bids like the heuristic and plays its longest combination (highest first);
# "heuristic" is the bot described above.
STYLES = ("random", "largest", "heuristic")


def _choose_styled(state: Any, seat: str, landlord: str, rng: random.Random, style: str) -> str:
    if style == "random":
        return str(rng.choice(state.legal_plays()))
    if style == "largest":
        plays = [m for m in state.legal_plays() if not m.is_pass]
        if not plays:
            return "pass"
        return str(max(plays, key=lambda m: (len(m.cards), _rank(m))))
    return _choose_play(state, seat, landlord, rng)


def play_record(
    *,
    rules: RuleSet,
    hands: Mapping[str, str],
    bottom: str,
    first_bidder: str,
    seed: int | str,
    record_id: str = "",
    aside: str | None = None,
    marked: str | None = None,
    styles: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Bid and play one deal to the end; the full RECORDS.md §1 record with its declared score.

    `hands` and `bottom` are card text (by rank, or with suits: five-player deals need suits
    to find the hidden landlord from the `marked` card, R-5P); `aside` is the two-player cards
    set aside (R-2P); `seed` makes the game reproducible; `styles` gives a seat a style of
    STYLES (the heuristic for a seat not named), so that players of different strengths meet.
    """
    styles = styles or {}
    rng = random.Random(f"ddz-bot:{seed}")
    partner = None
    if marked:
        first_bidder, partner = marked_landlords(rules, hands, marked)
    bidding = Bidding.start(rules, first_bidder, partner=partner)
    while not bidding.done:
        seat = bidding.to_move
        assert seat is not None  # an auction not done has a seat to call
        calls = bidding.legal_calls()
        call = (
            rng.choice(calls)
            if styles.get(seat) == "random"
            else choose_call(calls, hand_strength(rank_cards(hands[seat])), rng)
        )
        bidding = bidding.apply(seat, call)
    record: dict[str, Any] = {
        "id": record_id,
        "rules": rules.to_spec(),
        "hands": dict(hands),
        "bottom": bottom,
        "first_bidder": first_bidder,
        "bidding": [[s, c] for s, c in bidding.calls],
        "plays": [],
        "end": None,
    }
    if aside:
        record["aside"] = aside
    if marked:
        record["marked"] = marked
    if not bidding.passed_out and bidding.landlord is not None:
        landlord = bidding.landlord
        state = GameState.start(rules, dict(hands), bottom, landlord, partner)
        while not state.finished:
            seat = state.to_move
            assert seat is not None  # a game not finished has a seat to play
            style = styles.get(seat, "heuristic")
            state = state.apply(seat, _choose_styled(state, seat, landlord, rng, style))
        record["plays"] = [[s, text] for s, text in state.plays]
    outcome = replay(record)
    if outcome.score:
        record["declared"] = dict(outcome.score)
    return record
