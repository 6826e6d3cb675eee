"""scripts/bench_pipeline.py's table: the pipeline's goals judged on the right run, and the
extrapolation to 1,000,000 games worked by hand."""

from __future__ import annotations

import importlib.util

from tests.paths import ROOT_DIR

ROOT = ROOT_DIR
_spec = importlib.util.spec_from_file_location("bench_pipeline", ROOT / "scripts/bench_pipeline.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def _burst(subs: float, p95: float, last: float) -> dict:
    return {
        "games": 1200,
        "submissions_per_s": subs,
        "verification_games_per_s": 300.0,
        "lag_s": {"p50": p95 / 2, "p95": p95, "max": p95 + 0.1},
        "verified_after_s": {"p50": 0.2, "p95": 0.5, "max": 0.6},
        "last_in_standings_after_last_submission_s": last,
        "recomputes": 9,
    }


def test_the_goals_are_judged_on_600_players_with_one_worker() -> None:
    # The 2-worker run misses the p95 goal; it is not the run the goal is about.
    runs = [(600, 13, 1, _burst(350, 1.8, 0.5)), (600, 13, 2, _burst(350, 2.5, 0.5))]
    lines, ok = bench.burst_table(runs)
    assert ok
    goal = next(line for line in lines if line.startswith("| goal"))
    assert "**missed**" not in goal and goal.count("met") == 3
    # "rounds played" before the burst: 13 rounds, the last one is the burst.
    assert lines[2].startswith("| 600 | 12 | 1 | 1,200 |")


def test_a_p95_over_two_seconds_misses_the_goal() -> None:
    lines, ok = bench.burst_table([(600, 13, 1, _burst(350, 2.4, 0.5))])
    assert not ok
    assert "≤ 2 s: **missed**" in next(line for line in lines if line.startswith("| goal"))


def test_a_million_games_on_four_machines_from_the_measured_rates() -> None:
    def drain(rate: float) -> dict:
        return {
            "games": 33330,
            "drain": {
                "verified_after_s": 1.0,
                "verification_games_per_s": rate,
                "ranked_after_s": 2.0,
            },
        }

    # 2 workers verify 900 games/s, 450 a process; 4 machines of 2 processes: 3,600 games/s,
    # so 1,000,000 games in 1,000,000 / 3,600 = 277.8 s, within the 300 s goal.
    lines, ok = bench.online_table([(1, drain(500)), (2, drain(900))])
    assert ok
    assert "1.80" in lines[-1] and "278 s" in lines[-1]
    lines, ok = bench.online_table([(1, drain(300)), (2, drain(500))])
    assert not ok  # 1,000,000 / (8 x 250) = 500 s
