"""A simulated field of known strengths, to measure the duplicate rating
(tournaments.ratings.model).

Pure (the rules engine and the rating, no Django). A *bot of skill p* makes each decision
(a call of the auction, a play) as the *strong policy* with probability p, else uniformly at
random among the legal ones (games.engine offers them, so every game is legal). The strong
policy bids by hand strength (games.bot.hand_strength) and plays its largest combination
when it leads (most cards, lowest rank), the cheapest play that beats when it follows, and
passes over its partner. The true order of the field is the order of p.

An *event* of the simulation: the players are seated at random at tables of three (S, E, W);
every table plays the same deals (classic rules, R-PRESET), and each round of the event is
seated anew, so each (board, seat) is
held at every table: the duplicate comparison. Everything derives from one seed.

`simulate` plays the events and returns the seat results; `figures` rates them twice, by
(board, seat) groups (the duplicate rating) and by tables (the baseline: each table's three
players ranked by their table score), and gives Kendall's tau-b of each rating's order
(ordinal mu − 3·sigma) against the true order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from games.bot import hand_strength
from games.engine import RANKS, Bidding, GameState, RuleSet, deal_random, replay
from tournaments.ratings import model as rating

SEATS = ("S", "E", "W")
RULES = RuleSet.from_spec("classic")


def _rank(move: Any) -> int:
    ranks = [RANKS.index(r.rank) for r in move.readings if r.rank in RANKS]
    return min(ranks) if ranks else 0


def _strong_call(calls: list[str], cards: str) -> str:
    strength = hand_strength(cards)
    wanted = 0 if strength < 4 else 1 if strength < 6 else 2 if strength < 8 else 3
    good = [c for c in calls if c.isdigit() and int(c) <= wanted]
    return max(good, key=int) if good else ("pass" if "pass" in calls else calls[0])


def _strong_play(state: Any, seat: str) -> str:
    moves = state.legal_plays()
    plays = [m for m in moves if not m.is_pass]
    if not plays:
        return "pass"
    if not any(m.is_pass for m in moves):  # leading: the largest combination
        return str(min(plays, key=lambda m: (-len(m.cards), _rank(m), m.cards)))
    owner = next((s for s, text in reversed(state.plays) if text != "pass"), None)
    side = {state.seats[i] for i in state.landlord_side}
    if owner is not None and owner != seat and ((owner in side) == (seat in side)):
        return "pass"  # the partner holds the trick
    return str(min(plays, key=lambda m: (_rank(m), len(m.cards), m.cards)))


def play_game(
    hands: dict[str, str],
    bottom: str,
    first_bidder: str,
    skill: dict[str, float],
    seed: str,
    bid_skill: dict[str, float] | None = None,
) -> dict[str, int]:
    """Play one deal with bots of `skill` (seat → p) in the play and `bid_skill` (default:
    the same) in the auction; the engine's score per seat."""
    rng = random.Random(seed)
    bid_skill = skill if bid_skill is None else bid_skill
    bidding = Bidding.start(RULES, first_bidder)
    while not bidding.done:
        seat = bidding.to_move
        assert seat is not None  # an auction not done has a seat to call
        calls = bidding.legal_calls()
        strong = rng.random() < bid_skill[seat]
        call = _strong_call(calls, hands[seat]) if strong else rng.choice(calls)
        bidding = bidding.apply(seat, call)
    record: dict[str, Any] = {
        "id": seed,
        "rules": "classic",
        "hands": hands,
        "bottom": bottom,
        "first_bidder": first_bidder,
        "bidding": [[s, c] for s, c in bidding.calls],
        "plays": [],
        "end": None,
    }
    if not bidding.passed_out and bidding.landlord is not None:
        state = GameState.start(RULES, dict(hands), bottom, bidding.landlord)
        while not state.finished:
            seat = state.to_move
            assert seat is not None  # a game not finished has a seat to play
            if rng.random() < skill[seat]:
                play = _strong_play(state, seat)
            else:
                play = str(rng.choice(state.legal_plays()))
            state = state.apply(seat, play)
        record["plays"] = [[s, text] for s, text in state.plays]
    outcome = replay(record)
    return (
        {s: int(outcome.score.get(s, 0)) for s in SEATS}
        if outcome.score
        else dict.fromkeys(SEATS, 0)
    )


@dataclass(frozen=True)
class Field:
    """The simulated players: `skill[i]` is player i's p (the true strength); `kind` says
    where it shows: "both" (auction and play) or "play" (everyone bids by the strong policy).
    ("bid", everyone playing by the strong policy, is no order of strength: the strong
    auction alone scores no better on average than a random one.)"""

    skill: tuple[float, ...]
    kind: str = "both"

    def skills(self, table: list[int]) -> tuple[dict[str, float], dict[str, float]]:
        """The (play, bid) skill per seat of the players of `table` (in seat order)."""
        own = {SEATS[i]: self.skill[p] for i, p in enumerate(table)}
        full = dict.fromkeys(own, 1.0)
        return (full if self.kind == "bid" else own, full if self.kind == "play" else own)


def field(levels: tuple[float, ...], per_level: int, kind: str = "both") -> Field:
    """`per_level` players of each skill of `levels`, numbered from 0 in that order."""
    return Field(tuple(p for p in levels for _ in range(per_level)), kind)


def simulate(
    the_field: Field, *, events: int, rounds: int = 1, boards: int, seed: int
) -> list[list[rating.RatedSeat[int]]]:
    """Play `events` events of `rounds` rounds of `boards` deals each, every round seated
    anew at random; per event its seat results (board and table numbered from 0 in the
    event, seat the index in S E W, player the field's number).

    Raises:
        ValueError: a field that does not fill tables of three.
    """
    n = len(the_field.skill)
    if n % 3:
        raise ValueError("the field must fill tables of three")
    rng = random.Random(seed)
    out: list[list[rating.RatedSeat[int]]] = []
    for e in range(events):
        results: list[rating.RatedSeat[int]] = []
        for b in range(rounds * boards):
            if b % boards == 0:  # a new round: a new seating
                players = list(range(n))
                rng.shuffle(players)
                tables = [players[i : i + 3] for i in range(0, n, 3)]
            deal = deal_random(RULES, rng, first_bidder=SEATS[(e + b) % 3])
            hands, bottom = deal.rank_hands(), deal.rank_bottom()
            for t, table in enumerate(tables):
                play, bid = the_field.skills(table)
                score = play_game(
                    hands, bottom, deal.first_bidder, play, f"{seed}:{e}:{b}:{t}", bid
                )
                results.extend(
                    rating.RatedSeat(b, t, i, p, score[SEATS[i]]) for i, p in enumerate(table)
                )
        out.append(results)
    return out


@dataclass(frozen=True)
class Figures:
    """Kendall's tau-b against the true order after the last event: `duplicate` (rated by
    (board, seat) groups) and `baseline` (by tables), with the sizes of the simulation."""

    kind: str
    players: int
    levels: int
    events: int
    rounds: int
    boards: int
    games: int
    duplicate: float
    baseline: float

    def as_dict(self) -> dict[str, float | int]:
        return dict(self.__dict__)


def figures(
    levels: tuple[float, ...] = (0.0, 1 / 3, 2 / 3, 1.0),
    per_level: int = 6,
    *,
    kind: str = "both",
    events: int = 8,
    rounds: int = 2,
    boards: int = 4,
    seed: int = 2026,
) -> Figures:
    """Simulate, rate both ways on the same games, and compare each order with the truth."""
    the_field = field(levels, per_level, kind)
    played = simulate(the_field, events=events, rounds=rounds, boards=boards, seed=seed)
    players = range(len(the_field.skill))

    def tau(groups_of: Any) -> float:
        after = rating.rate_events([groups_of(results) for results in played])
        final: dict[int, rating.Rating] = {}
        for ratings in after:
            final.update(ratings)
        ordinals = [final.get(p, rating.INITIAL).ordinal for p in players]
        return rating.kendall_tau_b(list(the_field.skill), ordinals)

    return Figures(
        kind=kind,
        players=len(the_field.skill),
        levels=len(levels),
        events=events,
        rounds=rounds,
        boards=boards,
        games=sum(len(r) for r in played) // 3,
        duplicate=tau(rating.duplicate_groups),
        baseline=tau(rating.table_groups),
    )
