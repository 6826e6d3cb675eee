"""The same position always gets the same call and play: whatever was asked before, and in
another process with another string hash seed (the robot's generator is seeded through
SHA-256 from its seed and the position, never from time or ``hash``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from robot_games import deal_of, play_to

from games.engine import Bidding, RuleSet
from games.robots import STRENGTHS, Robot

ROOT = Path(__file__).resolve().parents[3]
RULES = RuleSet.from_spec("classic")


def _answers(seeds: list[int]) -> list[str]:
    """For each deal seed and strength: a call, and the play at turns 0, 7 and 20."""
    out = []
    for seed in seeds:
        hands, bottom, first = deal_of(RULES, seed)
        for strength in STRENGTHS:
            robot = Robot(strength, f"event:{seed}")
            bidding = Bidding.start(RULES, first)
            out.append(robot.call(bidding, hands[first]))
            for turns in (0, 7, 20):
                robots = {s: Robot(strength, f"event:{seed}:{s}") for s in RULES.seats}
                state, _ = play_to(RULES, seed, robots, turns=turns)
                if not state.finished:
                    out.append(robot.play(state, bottom=bottom))
    return out


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    other=st.integers(0, 10**6),
    turns=st.integers(0, 40),
    strength=st.sampled_from(STRENGTHS),
)
def test_same_position_same_play_after_other_positions(
    seed: int, other: int, turns: int, strength: str
) -> None:
    robots = {s: Robot(strength, f"{seed}:{s}") for s in RULES.seats}
    state, bottom = play_to(RULES, seed, robots, turns=turns)
    if state.finished:
        return
    robot = Robot(strength, "board-7:S")
    first = robot.play(state, bottom=bottom)
    play_to(RULES, other, {s: robot for s in RULES.seats}, turns=turns)  # other positions
    assert robot.play(state, bottom=bottom) == first
    assert Robot(strength, "board-7:S").play(state, bottom=bottom) == first


def test_answers_do_not_depend_on_the_process() -> None:
    seeds = [3, 14, 15]
    here = _answers(seeds)
    code = (
        "import json, sys; sys.path[:0] = [sys.argv[1], sys.argv[2]];"
        "from test_robot_is_deterministic import _answers;"
        "print(json.dumps(_answers(json.loads(sys.argv[3]))))"
    )
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", code, str(ROOT), str(Path(__file__).parent), json.dumps(seeds)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        assert json.loads(done.stdout) == here
