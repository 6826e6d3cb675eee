"""A duplicate match between a robot of games.robots and games.bot's "heuristic" style.

Each deal (three players, preset ``classic`` unless ``--rules``) is bid once, by one bidder for
every seat (``--bidding``), so both games of the deal have the same landlord and contract;
then it is played twice from the same cards: once with the robot at the landlord's seat
against two heuristic farmers, once with the heuristic landlord against two robot farmers. Each
side thus plays each deal from both sides, and luck of the cards cancels out (R-DEAL, the
duplicate rule of seed 001). A deal nobody bids is passed out and scores 0 (R-PASSOUT).

Prints Markdown tables: per player, games and win rate as landlord and as farmer, and mean
score per deal (R-SC-MULT for ``classic``: the landlord's score in one game plus the two
farmers' in the other, with its standard error); then the time per decision (p50, p95, max in
milliseconds, measured around each call, never inside it).

Usage: ``python scripts/robot_match.py [--deals 1000] [--seed match] [--robot strong]``.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# games.bot's heuristic is the demo's player; its private choosers are the exact policy the
# demo records are played with, so the match meets that player and not a copy of it.
from games.bot import _choose_play, choose_call, hand_strength  # noqa: E402
from games.engine import Bidding, GameState, RuleSet, deal_random, replay  # noqa: E402
from games.robots import STRENGTHS, Robot  # noqa: E402

HEURISTIC = "heuristic (games.bot)"


def _timed(times: list[float], choose: Any, *args: Any, **kwargs: Any) -> str:
    start = time.perf_counter()
    answer = choose(*args, **kwargs)
    times.append((time.perf_counter() - start) * 1000)
    return str(answer)


def _bid(rules: RuleSet, hands: dict[str, str], first: str, how: str, tag: str) -> Bidding:
    bidding = Bidding.start(rules, first)
    rng = random.Random(f"ddz-bot:{tag}:bidding")
    while not bidding.done:
        seat = bidding.to_move
        assert seat is not None  # an auction not done has a seat to call
        if how == "heuristic":
            call = choose_call(bidding.legal_calls(), hand_strength(hands[seat]), rng)
        else:
            call = Robot(how, f"{tag}:{seat}").call(bidding, hands[seat])
        bidding = bidding.apply(seat, call)
    return bidding


def _game(
    rules: RuleSet,
    deal: dict[str, Any],
    bidding: Bidding,
    robot_seats: set[str],
    robot: str,
    opponent: str,
    tag: str,
    times: dict[str, list[float]],
) -> dict[str, int]:
    landlord = bidding.landlord
    assert landlord is not None  # passed-out deals are not played
    state = GameState.start(rules, deal["hands"], deal["bottom"], landlord)
    rng = random.Random(f"ddz-bot:{tag}")
    robots = {
        s: Robot(robot if s in robot_seats else opponent, f"{tag}:{s}")
        for s in rules.seats
        if s in robot_seats or opponent != HEURISTIC
    }
    calls = list(bidding.calls)
    while not state.finished:
        seat = state.to_move
        assert seat is not None  # a game not finished has a seat to play
        name = robot if seat in robot_seats else opponent
        if seat in robots:
            cards = _timed(
                times[name], robots[seat].play, state, bottom=deal["bottom"], calls=calls
            )
        else:
            cards = _timed(times[name], _choose_play, state, seat, landlord, rng)
        state = state.apply(seat, cards)
    record = {
        "id": tag,
        "rules": rules.to_spec(),
        "hands": deal["hands"],
        "bottom": deal["bottom"],
        "first_bidder": deal["first_bidder"],
        "bidding": [[s, c] for s, c in bidding.calls],
        "plays": [[s, c] for s, c in state.plays],
        "end": None,
    }
    outcome = replay(record)
    assert outcome.error is None, outcome.to_dict()
    return dict(outcome.score)


def match(
    deals: int, seed: str, robot: str, opponent: str, bidding_by: str, rules: RuleSet
) -> dict[str, Any]:
    """Play ``deals`` deals twice each; the tallies of the tables."""
    if robot == opponent:
        raise ValueError("a robot meets a different player")
    times: dict[str, list[float]] = {robot: [], opponent: []}
    tally = {
        name: {"landlord": [0, 0], "farmer": [0, 0], "score": []} for name in (robot, opponent)
    }
    passed_out = 0
    for i in range(deals):
        tag = f"{seed}:{i}"
        first = rules.seats[i % len(rules.seats)]
        dealt = deal_random(rules, random.Random(tag), first_bidder=first)
        deal = {
            "hands": dealt.rank_hands(),
            "bottom": dealt.rank_bottom(),
            "first_bidder": first,
        }
        bidding = _bid(rules, deal["hands"], first, bidding_by, tag)
        if bidding.passed_out or bidding.landlord is None:
            passed_out += 1
            for name in tally:
                tally[name]["score"].append(0)
            continue
        landlord = bidding.landlord
        farmers = [s for s in rules.seats if s != landlord]
        as_landlord = _game(rules, deal, bidding, {landlord}, robot, opponent, f"{tag}:a", times)
        as_farmers = _game(rules, deal, bidding, set(farmers), robot, opponent, f"{tag}:b", times)
        robot_total = as_landlord[landlord] + sum(as_farmers[s] for s in farmers)
        tally[robot]["score"].append(robot_total)
        tally[opponent]["score"].append(-robot_total)  # zero-sum (RULES.md §4)
        for name, game, side in (
            (robot, as_landlord, "landlord"),
            (opponent, as_farmers, "landlord"),
            (robot, as_farmers, "farmer"),
            (opponent, as_landlord, "farmer"),
        ):
            won = (game[landlord] > 0) == (side == "landlord")
            tally[name][side][0] += 1
            tally[name][side][1] += won
    return {"tally": tally, "times": times, "passed_out": passed_out, "deals": deals}


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def render(result: dict[str, Any]) -> str:
    """The Markdown tables of a match."""
    lines = [
        f"Deals: {result['deals']} (passed out: {result['passed_out']}), each played twice.",
        "",
        "| player | games | landlord games | landlord win rate | farmer games "
        "| farmer win rate | mean score per deal | ± s.e. |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, t in result["tally"].items():
        ll, ff, scores = t["landlord"], t["farmer"], t["score"]
        se = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
        lines.append(
            f"| {name} | {ll[0] + ff[0]} | {ll[0]} | {ll[1] / max(ll[0], 1):.1%} | {ff[0]} "
            f"| {ff[1] / max(ff[0], 1):.1%} | {statistics.fmean(scores):+.3f} | {se:.3f} |"
        )
    lines += [
        "",
        "| player | decisions | p50 ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, values in result["times"].items():
        lines.append(
            f"| {name} | {len(values)} | {_percentile(values, 0.5):.2f} "
            f"| {_percentile(values, 0.95):.2f} | {max(values, default=0.0):.2f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seed", default="robot-match", help="seed of the deals and robots")
    parser.add_argument("--robot", default="strong", choices=STRENGTHS)
    parser.add_argument(
        "--opponent",
        default=HEURISTIC,
        choices=(HEURISTIC, *STRENGTHS),
        help="the other player (default: games.bot's heuristic)",
    )
    parser.add_argument(
        "--bidding",
        default="heuristic",
        choices=("heuristic", *STRENGTHS),
        help="who bids for every seat (default: games.bot's heuristic)",
    )
    parser.add_argument("--rules", default="classic", help="a three-player preset")
    args = parser.parse_args(argv)
    rules = RuleSet.from_spec(args.rules)
    if rules.family != "three":
        parser.error("the match is for three-player presets")
    started = time.perf_counter()
    if args.robot == args.opponent:
        parser.error("--robot and --opponent must differ")
    result = match(args.deals, args.seed, args.robot, args.opponent, args.bidding, rules)
    print(render(result))
    print(f"\nWall time: {time.perf_counter() - started:.0f} s.")
    ok, verdict = goals(result, args.robot)
    print(verdict)
    return 0 if ok else 1


# The goals for the robot an online entrant meets: it beats the demo's bot by a margin
# the match can tell from luck (its mean score per deal above zero by MARGIN_SE standard
# errors), and decides within P95_MS milliseconds at the 95th percentile.
MARGIN_SE = 3.0
P95_MS = 50.0


def goals(result: dict[str, Any], robot: str) -> tuple[bool, str]:
    """Whether `robot` met the goals in `result`, and a sentence saying so."""
    scores = result["tally"][robot]["score"]
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 0.0
    p95 = _percentile(result["times"][robot], 0.95)
    ok = mean > MARGIN_SE * se and p95 <= P95_MS
    return ok, (
        f"Goals: {robot} ahead by more than {MARGIN_SE:g} standard errors "
        f"({mean:+.3f} ± {se:.3f} a deal) and p95 ≤ {P95_MS:g} ms ({p95:.2f} ms): "
        + ("met" if ok else "**missed**")
        + "."
    )


if __name__ == "__main__":
    raise SystemExit(main())
