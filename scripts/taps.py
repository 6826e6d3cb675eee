"""How many taps the real recorded games need with the move menus of games.live.choices.

    python scripts/taps.py                       # both files, JSON summary on stdout
    python scripts/taps.py --primary-size 8 --referee-primary-size 12
    python scripts/taps.py --check               # also have the engine accept every choice

Replays every game of tests/data/rlcard_rule_agents.jsonl (classic) and
tests/data/botzone_ftl1.jsonl (classic with space_shuttle) step by step with
games.engine.GameState, builds the menu of the seat to act at each step (its hand, and the open
play when it follows: the last play of the trick that is not a pass) and charges the recorded
step with ``games.live.choices.taps``.

These records give ``landlord`` and ``bid`` and no bidding list, so only the plays are counted
(each play or pass is one step); the bidding, where every allowed call is a primary button
(``call_menu``), would cost one tap a call. A game stops at the first step the engine refuses
(one Botzone game has a pass on a lead): the steps before it count, that one does not.

The summary gives games, steps, taps and taps per step, for all steps and separately for leads
and follows, and the share of steps costing 1, 2 and more than 2 taps; once for the seat
device (``--primary-size``) and once for the referee device (``--referee-primary-size``, by
default the same: the referee enters from the same phone-sized page). The typed entry it
replaces is given for comparison (one tap a rank plus one to play, a pass one tap).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from games.engine import EngineError, GameState, RuleSet  # noqa: E402
from games.live.choices import PRIMARY_SIZE, Menu, play_menu, taps  # noqa: E402

FILES = ("tests/data/rlcard_rule_agents.jsonl", "tests/data/botzone_ftl1.jsonl")


def positions(record: dict[str, Any]) -> Iterator[tuple[GameState, str, str, str | None]]:
    """Each step of a record's play: the state before it, the seat to act, the recorded step
    and the open play (None on a lead); stops at the first step the engine refuses."""
    rules = RuleSet.from_spec(record["rules"])
    state = GameState.start(rules, record["hands"], record["bottom"], record["landlord"])
    for turn in record["plays"]:
        seat, step = turn[0], turn[1]
        previous = None
        if not state.leading:
            previous = next(text for _s, text in reversed(state.plays) if text != "pass")
        try:
            after = state.apply(seat, step)
        except EngineError:
            return
        yield state, seat, step, previous
        state = after


def check_menu(menu: Menu, state: GameState, seat: str) -> None:
    """Fail unless the engine accepts every choice and every legal move is a choice."""
    for choice in menu.choices():
        cards, _at, reading = choice.step.partition("@")
        state.apply(seat, cards, reading or None)
    offered = {c.cards for c in menu.choices()}
    missing = [str(m) for m in state.legal_plays() if m.cards not in offered]
    if missing:
        raise AssertionError(f"{seat} to play: legal moves not offered: {missing[:5]}")


def typed_taps(step: str) -> int:
    """Today's typed entry: one tap a card's rank, one to play; a pass is one tap."""
    return 1 if step == "pass" else len(step) + 1


class Tally:
    """Steps and taps by kind of step (lead, follow) and by cost."""

    def __init__(self) -> None:
        self.steps: Counter[str] = Counter()
        self.taps: Counter[str] = Counter()
        self.costs: Counter[str] = Counter()

    def add(self, kind: str, cost: int) -> None:
        self.steps[kind] += 1
        self.taps[kind] += cost
        self.costs["1" if cost == 1 else "2" if cost == 2 else ">2"] += 1

    def summary(self, primary_size: int) -> dict[str, Any]:
        steps, total = sum(self.steps.values()), sum(self.taps.values())

        def per(kind: str) -> float:
            return round(self.taps[kind] / self.steps[kind], 4) if self.steps[kind] else 0.0

        return {
            "primary_size": primary_size,
            "steps": steps,
            "taps": total,
            "taps_per_step": round(total / steps, 4) if steps else 0.0,
            "leads": {"steps": self.steps["lead"], "taps_per_step": per("lead")},
            "follows": {"steps": self.steps["follow"], "taps_per_step": per("follow")},
            "share": {
                k: round(self.costs[k] / steps, 4) if steps else 0.0 for k in ("1", "2", ">2")
            },
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--primary-size", type=int, default=PRIMARY_SIZE)
    parser.add_argument("--referee-primary-size", type=int, default=None)
    parser.add_argument("--check", action="store_true", help="engine-check every menu")
    parser.add_argument("files", nargs="*", default=list(FILES))
    args = parser.parse_args(argv)
    referee_size = args.referee_primary_size or args.primary_size
    seat, referee, typed = Tally(), Tally(), Tally()
    games = 0
    started = time.perf_counter()
    for name in args.files:
        with (REPO / name).open(encoding="utf-8") as handle:
            for line in handle:
                if not line.strip():
                    continue
                record = json.loads(line)
                games += 1
                rules = RuleSet.from_spec(record["rules"])
                for state, to_act, step, previous in positions(record):
                    kind = "lead" if previous is None else "follow"
                    hand = state.hands[to_act]
                    menu = play_menu(
                        hand,
                        previous,
                        rules,
                        primary_size=args.primary_size,
                        open_readings=state.open,
                    )
                    if args.check:
                        check_menu(menu, state, to_act)
                    seat.add(kind, taps(menu, step, rules))
                    ref = play_menu(
                        hand, previous, rules, primary_size=referee_size, open_readings=state.open
                    )
                    referee.add(kind, taps(ref, step, rules))
                    typed.add(kind, typed_taps(step))
    out = {
        "files": list(args.files),
        "games": games,
        "counted": "plays only: the records give the landlord and no bidding",
        "seat_device": seat.summary(args.primary_size),
        "referee_device": referee.summary(referee_size),
        "typed_entry": {k: v for k, v in typed.summary(0).items() if k != "primary_size"},
        "seconds": round(time.perf_counter() - started, 2),
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
