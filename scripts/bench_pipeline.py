"""Benchmark the result pipeline under a burst: `manage.py ddz_simulate` runs, one table.

Run by `make bench`. On PostgreSQL (DDZ_BENCH_DATABASE_URL, default
the local service's database `ddz_bench`, created and migrated when missing), Redis
(CELERY_BROKER_URL, default the local service) and the queue `ddz-bench` (purged before each
run: an interrupted run leaves messages that would slow the next), it runs

  burst   ddz_simulate --burst at 150 and 600 players (13 rounds of 6 boards: the last round's
          games submitted by 4 client processes while 1, then 2, worker processes verify and
          rank them), and at 600 players after 3 rounds instead of 13 (does the lag grow with
          the rounds played?);
  online  (--online) ddz_simulate --drain at 9,999 players x 10 boards (33,330 games queued,
          then 1 and 2 worker processes): the throughput and its slope per worker, and from
          them what 1,000,000 games take on 4 worker machines.

and prints a Markdown table with each goal beside its figure (the README copies it). Each
event is built once (ddz_simulate reuses it); progress goes to stderr. Exit 1 when a goal is
missed, 2 for a usage error.

    python scripts/bench_pipeline.py              # the burst table
    python scripts/bench_pipeline.py --online     # and the online event
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
QUEUE = "ddz-bench"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/ddz_bench"

# The goals of the result pipeline (600 players, a burst of 1,200 games, one worker).
GOAL_SUBMISSIONS = 100.0  # per second, at least
GOAL_P95 = 2.0  # seconds, at most
GOAL_LAST = 10.0  # seconds from the last submission to the last game in the standings
GOAL_MILLION_S = 300.0  # 1,000,000 games on 4 worker machines, at most


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=os.environ.get("DDZ_BENCH_DATABASE_URL", DEFAULT_DB),
        CELERY_BROKER_URL=os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0"),
        CELERY_TASK_DEFAULT_QUEUE=QUEUE,
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
    )
    # The workers run as in production (docs/OPERATIONS.md): DEBUG off, so that no query is
    # logged (a worker with DEBUG on keeps every query of a task in memory).
    env.setdefault("DJANGO_DEBUG", "false")
    env.setdefault("DJANGO_ALLOWED_HOSTS", "127.0.0.1")
    env.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "p" * 40)
    # The shared cache of a deployment (README, "Configuration"): the verification messages
    # coalesce there, and the sessions are read there.
    env.setdefault("DDZ_CACHE_URL", "redis://127.0.0.1:6379/12")
    return env


def _manage(*args: str, capture: bool = False) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_env(),
        check=True,
        stdout=subprocess.PIPE if capture else None,
        text=True,
    )
    return done.stdout or ""


def _prepare() -> None:
    """Create the bench database when missing, migrate it, and purge the bench queue."""
    url = _env()["DATABASE_URL"]
    name = url.rsplit("/", 1)[-1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    script = (
        "import psycopg, sys\n"
        "with psycopg.connect(sys.argv[1], autocommit=True) as c:\n"
        "    if not c.execute('SELECT 1 FROM pg_database WHERE datname = %s', [sys.argv[2]])"
        ".fetchone():\n"
        "        c.execute('CREATE DATABASE \"' + sys.argv[2] + '\"')\n"
    )
    subprocess.run([sys.executable, "-c", script, admin, name], check=True)
    _manage("migrate", "--noinput", "-v", "0")


def _purge() -> None:
    script = (
        "from ddz_site.celery import app\n"
        f"with app.connection_for_write() as c: c.default_channel.queue_purge({QUEUE!r})\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=_env(), check=True)


def simulate(*args: str) -> dict[str, Any]:
    """One ddz_simulate run (its JSON), after purging the bench queue."""
    _purge()
    print("ddz_simulate", *args, file=sys.stderr, flush=True)
    out = _manage("ddz_simulate", *args, capture=True)
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    print(json.dumps(result), file=sys.stderr, flush=True)
    return result


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def burst_table(runs: list[tuple[int, int, int, dict[str, Any]]]) -> tuple[list[str], bool]:
    """The Markdown rows of the burst runs (players, rounds, workers, result); whether the
    goals held (they are judged on the 600-player, 13-round, 1-worker run)."""
    lines = [
        "| players | rounds played | workers | games | submissions/s | verified/s "
        "| lag p50 | lag p95 | lag max | verified after (p95) "
        "| last in standings after last submission | recomputes |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ok = True
    for players, rounds, workers, r in runs:
        lag, wait = r["lag_s"], r["verified_after_s"]
        last = r["last_in_standings_after_last_submission_s"]
        lines.append(
            f"| {players} | {rounds - 1} | {workers} | {r['games']:,} "
            f"| {r['submissions_per_s']:,} | {r['verification_games_per_s']:,} "
            f"| {lag['p50']} s | {lag['p95']} s | {lag['max']} s | {wait['p95']} s "
            f"| {last} s | {r['recomputes']} |"
        )
        if (players, rounds, workers) == (600, 13, 1):
            subs_ok = r["submissions_per_s"] >= GOAL_SUBMISSIONS
            p95_ok = lag["p95"] <= GOAL_P95
            last_ok = last is not None and last <= GOAL_LAST
            ok = subs_ok and p95_ok and last_ok
            lines.append(
                f"| goal (600 players, 1 worker) | | | | ≥ {GOAL_SUBMISSIONS:g}: "
                f"{_mark(subs_ok)} | | | ≤ {GOAL_P95:g} s: {_mark(p95_ok)} | | "
                f"| ≤ {GOAL_LAST:g} s: {_mark(last_ok)} | |"
            )
    return lines, ok


def online_table(runs: list[tuple[int, dict[str, Any]]]) -> tuple[list[str], bool]:
    """The Markdown rows of the online drains (workers, result) and the extrapolation to
    1,000,000 games on 4 worker machines of 2 processes; whether it is within the goal."""
    lines = [
        "| workers | games | verified after | verified/s | ranked after |",
        "|---|---|---|---|---|",
    ]
    rates = {}
    for workers, r in runs:
        d = r["drain"]
        rates[workers] = d["verification_games_per_s"]
        lines.append(
            f"| {workers} | {r['games']:,} | {d['verified_after_s']} s "
            f"| {d['verification_games_per_s']:,} | {d['ranked_after_s']} s |"
        )
    if 1 not in rates or 2 not in rates:
        return lines, True
    per_worker = rates[2] / 2
    slope = rates[2] / rates[1]
    # 4 machines of this kind, 2 processes each: 8 processes, at the rate per process
    # measured with 2 (the database is the shared part; see the README).
    million = 1_000_000 / (8 * per_worker)
    ok = million <= GOAL_MILLION_S
    lines += [
        "",
        f"Throughput with 2 workers / with 1: {slope:.2f}. "
        f"1,000,000 games on 4 worker machines of 2 processes at {per_worker:,.0f} games/s "
        f"per process: {million:,.0f} s (goal ≤ {GOAL_MILLION_S:g} s: {_mark(ok)}).",
    ]
    return lines, ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--online", action="store_true", help="also the online event's drain")
    parser.add_argument(
        "--online-players", type=int, default=9999, help="its players (a multiple of 3)"
    )
    parser.add_argument("--skip-burst", action="store_true", help="only the online event")
    args = parser.parse_args(argv)
    _prepare()
    out: list[str] = []
    ok = True
    if not args.skip_burst:
        runs = []
        for players, rounds, workers in (
            (150, 13, 1),
            (150, 13, 2),
            (600, 4, 1),
            (600, 13, 1),
            (600, 13, 2),
        ):
            common = ["--players", str(players), "--rounds", str(rounds), "--boards", "6"]
            result = simulate(*common, "--burst", "--workers", str(workers))
            runs.append((players, rounds, workers, result))
        lines, ok = burst_table(runs)
        out += ["The result pipeline under a burst (ddz_simulate --burst, 4 clients):", ""]
        out += lines
    if args.online:
        drains = []
        for workers in (1, 2):
            common = ["--players", str(args.online_players), "--rounds", "1", "--boards", "10"]
            common += ["--timeout", "3600"]
            result = simulate(*common, "--burst", "--drain", "--workers", str(workers))
            drains.append((workers, result))
        lines, online_ok = online_table(drains)
        ok = ok and online_ok
        out += [
            "",
            f"An online event (ddz_simulate --drain, {args.online_players:,} players x 10 boards):",
            "",
        ]
        out += lines
    print("\n".join(out))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
