"""Benchmark an online robot duplicate at scale (issue 22): entrants as clients over the site's
real HTTP and WebSocket doors, then the window's close to the verified and ranked standings.

On its own PostgreSQL database (DDZ_BENCH_ONLINE_DATABASE_URL, default the local service's
`ddz_bench_online`, created at the start and dropped at the end, Ctrl-C included) and its own
Redis database (DDZ_BENCH_ONLINE_REDIS_URL, default the local service's db 10: the channel
layer, the shared cache that holds the sessions, and the Celery broker, under this run's own
names, deleted at the end), it builds an online robot duplicate of --boards boards
(--strength robots, 90 s a move, its window open) and enters --entrants accounts in it. The
accounts, players, entries and signed-in sessions are made in bulk in the database: signing in
over HTTP is replaced by a session made there, sent as the `sessionid` cookie as a browser
sends it once signed in. Everything else goes through the site's doors. It starts --workers
Celery worker processes on a queue of its own, as `manage.py ddz_simulate` does (they verify
every finished game and rank the entrants), and serves the site with --servers Daphne processes
(DEBUG off, a pool of 8 database connections each, one channel layer), each started through
this script so that the robots' decisions are timed inside the server (thread CPU and wall
time around games.robots.Robot.call and .play; nothing of the site is changed).

Then --concurrent entrants play at once (scripts/bench_online_entrants.py: his page, "Play
board n", the device page, the board's WebSocket, each step over it, or over HTTP as the page
does when the socket did not open, and its answer, the position after the robots' steps),
each taking --think seconds (default 0) to choose a move; when an entrant's boards are done
the next one takes the slot. The play stops after --seconds (steps in flight are answered;
boards are left in play as their entrants leave them), or with --full once every entrant has
played every board. The organizer's service then moves the window's end to now, and
tournaments.online.close.online_window_close runs in this process as the sweep runs it (again
every 5 s while a game is not settled): the robots finish every board in play, the games are
verified (by the workers; the close verifies those still pending itself), the rounds closed and
published and the event unsealed. The time from the window's end to the standings verified,
ranked and shown (the close done; no game pending; the standings' last generation computed,
its reading begun after the last verification) is read from the database, every 50 ms.

Measured: the latency from a step sent to its answer, the moves served per second as the server
counts them (its audit log's steps: the entrants', made through their device, and the robots'),
the robots' time per decision, the CPU per entrant move of the Daphne processes, the workers,
the PostgreSQL backends of the bench database and the whole Redis server, and how many entrants
started and finished how many boards; from these, labelled so, the whole event on this machine
and 100,000 entrants. A Markdown table goes to stdout, progress to stderr. Exit 1 when a goal
is missed or a step was lost, refused or answered with an error, 2 for a usage error.

    python scripts/bench_online.py                      # 10,000 entrants, 200 at once, 120 s
    python scripts/bench_online.py --entrants 200 --concurrent 20 --seconds 30
    python scripts/bench_online.py --entrants 300 --concurrent 50 --full
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import functools
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

# The live tables' bench's plumbing (the database, Daphne, CPU) and the entrants' clients.
from bench_live_tables import (  # noqa: E402
    _free_port,
    collect_static,
    cpu_seconds,
    create_database,
    drop_database,
    stop_daphnes,
    wait_listening,
)
from bench_online_entrants import Entrant, Run, build_event, log, pct, play  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/ddz_bench_online"
DEFAULT_REDIS = "redis://127.0.0.1:6379/10"
SECRET_KEY = "bench-only-" + "o" * 40
TAG = f"ddz-bench-online-{os.getpid()}"
GOAL_ROBOT_P95_MS = 50.0  # issue 22, item 4: a robot's decision
DEVICE_PATIENCE_S = 8.0  # device.js: no answer over the socket by then, it asks again
SWEEP_S = 5.0  # the sweep's period (DDZ_SWEEP_SECONDS)
Popen = subprocess.Popen[bytes]


# --- The robots' time, inside the servers ----------------------------------------------------


def time_robots(samples: list[tuple[float, float]]) -> None:
    """Time every decision of games.robots.Robot in this process into `samples`: (thread CPU
    ms, wall ms). Robot.play calls play_view, never call: no decision is counted twice."""
    from games.robots import Robot

    def timed(method: Callable[..., str]) -> Callable[..., str]:
        @functools.wraps(method)
        def decide(self: Any, *args: Any, **kwargs: Any) -> str:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return method(self, *args, **kwargs)
            finally:
                cpu_ms = (time.thread_time() - cpu) * 1000
                samples.append((cpu_ms, (time.perf_counter() - wall) * 1000))

        return decide

    for name in ("call", "play"):
        setattr(Robot, name, timed(getattr(Robot, name)))


def serve(port: int, timing: str) -> int:
    """One Daphne process of the bench (--serve-port), its robots timed into the file `timing`
    (JSON, written every second and at exit)."""
    samples: list[tuple[float, float]] = []
    time_robots(samples)

    def dump() -> None:
        Path(f"{timing}.tmp").write_text(json.dumps(list(samples)))
        os.replace(f"{timing}.tmp", timing)

    def keep_dumping() -> None:
        while True:
            time.sleep(1.0)
            dump()

    threading.Thread(target=keep_dumping, daemon=True).start()
    from daphne.cli import CommandLineInterface

    try:
        args = ["-v", "0", "-b", "127.0.0.1", "-p", str(port), "ddz_site.asgi:application"]
        CommandLineInterface().run(args)
    finally:
        dump()
    return 0


# --- The site: settings and processes --------------------------------------------------------


def site_env(database_url: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DDZ_"))}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        # Plain HTTP on the loopback, as behind a TLS-terminating proxy.
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_STATIC_ROOT=str(ROOT / "var" / "bench-static"),
        # A deployment's Redis: the channel layer, the shared cache (sessions are read there)
        # and the broker, under names of this run's own.
        DDZ_CHANNEL_LAYER_URL=redis_url,
        DDZ_CHANNEL_LAYER_PREFIX=TAG,
        DDZ_CACHE_URL=redis_url,
        DDZ_CACHE_PREFIX=TAG,
        CELERY_BROKER_URL=redis_url,
        CELERY_TASK_DEFAULT_QUEUE=TAG,
    )
    return env


def start_workers(env: dict[str, str], n: int, procs: list[Popen]) -> list[Popen]:
    """`n` Celery worker processes on the bench's queue (as ddz_simulate starts them), each
    noted in `procs` at once (the caller stops them); waits until each answers a ping."""
    from ddz_site.celery import app

    env = dict(env, DATABASE_CONN_MAX_AGE="600")  # kept between tasks, as the README runs them
    made = []
    for i in range(n):
        name = f"{TAG}-{i}@localhost"
        command = [sys.executable, "-m", "celery", "-A", "ddz_site", "worker", "--pool=solo"]
        command += ["--loglevel=WARNING", "--without-gossip", "--without-mingle", "-Q", TAG]
        # Its banner to stderr: stdout is the table's.
        proc = subprocess.Popen(
            [*command, "-n", name], cwd=ROOT, env=env, stdout=sys.stderr, start_new_session=True
        )
        procs.append(proc)
        made.append(proc)
        deadline = time.monotonic() + 60
        while not app.control.ping(destination=[name], timeout=0.5):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit(f"bench_online: the Celery worker {name} did not start")
    return made


def start_servers(env: dict[str, str], n: int, procs: list[Popen], timing: Path) -> list[int]:
    """`n` Daphne processes through `serve`, each noted in `procs` at once; their ports."""
    env = dict(env, DATABASE_CONN_MAX_AGE="0", DATABASE_POOL_SIZE="8")
    ports: list[int] = []
    while len(ports) < n:
        if (port := _free_port()) not in ports:
            ports.append(port)
    servers = []
    for port in ports:
        command = [sys.executable, str(Path(__file__).resolve()), "--serve-port", str(port)]
        command += ["--serve-timing", str(timing / f"robots-{port}.json")]
        servers.append(subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True))
        procs.append(servers[-1])
    for server, port in zip(servers, ports, strict=True):
        wait_listening(server, port)
    return ports


def server_moves(event_id: int) -> tuple[int, int, int]:
    """The steps the server's audit log holds, the entrants' (through their device) and the
    robots' (the close's and timeouts' included), and the games stored."""
    from games.models import Game
    from tournaments.models import AuditEntry

    steps = AuditEntry.objects.filter(event_id=event_id, action="entry.step")
    mine = steps.filter(changes__has_key="via").count()
    games = Game.objects.filter(board__event_id=event_id, replaced_at__isnull=True).count()
    return mine, steps.count() - mine, games


def snapshot(servers: list[Popen], workers: list[Popen], redis_url: str) -> dict[str, Any]:
    """The CPU seconds spent so far by each part (the PostgreSQL backends of the bench database
    by process id; Redis: the whole server, shared with whatever else uses it)."""
    import redis
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        backends = {}
        for (pid,) in cursor.fetchall():
            with contextlib.suppress(OSError):
                backends[pid] = cpu_seconds(pid)
    client = redis.Redis.from_url(redis_url)
    info = client.info("cpu") | client.info("stats")
    client.close()
    return {
        "wall": time.perf_counter(),
        "servers": sum(cpu_seconds(p.pid) for p in servers),
        "workers": sum(cpu_seconds(p.pid) for p in workers),
        "postgres": backends,
        "redis": float(info["used_cpu_sys"]) + float(info["used_cpu_user"]),
        "redis_commands": float(info["total_commands_processed"]),
        "clients": sum(os.times()[:2]),
    }


def spent(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    parts = ("wall", "servers", "workers", "redis", "redis_commands", "clients")
    out = {k: after[k] - before[k] for k in parts}
    pg_before, pg_after = before["postgres"], after["postgres"]
    out["postgres"] = sum(cpu - pg_before.get(pid, 0.0) for pid, cpu in pg_after.items())
    return out


def robot_times(paths: list[Path]) -> list[tuple[float, float]]:
    samples: list[tuple[float, float]] = []
    for path in paths:
        with contextlib.suppress(OSError, ValueError):
            samples += [(float(c), float(w)) for c, w in json.loads(path.read_text())]
    return samples


# --- The window's close ----------------------------------------------------------------------


def close_window(event_id: int, timeout: float) -> dict[str, Any]:
    """End the window now (the organizer's service), close it as the sweep does and wait for
    the standings verified and ranked; times from the window's end, in seconds."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game
    from tournaments.models import Event, EventRole, Role, Table
    from tournaments.online.close import CLOSED, online_window_close
    from tournaments.people import life

    event = Event.objects.get(pk=event_id)
    organizer = EventRole.objects.get(event=event, role=Role.ORGANIZER).user
    games = Game.objects.filter(board__event=event, replaced_at__isnull=True)
    in_play = Table.objects.filter(round__event=event).exclude(pk__in=games.values("table_id"))
    boards_in_play, steps_before = in_play.count(), sum(server_moves(event_id)[:2])
    end = timezone.now() + timedelta(seconds=1)
    life.event_place_set(
        event=event,
        actor=organizer,
        starts_at=event.starts_at,
        ends_at=end,
        time_zone=event.time_zone,
        online=True,
    )
    time.sleep(max(0.0, (end - timezone.now()).total_seconds()))
    samples: list[tuple[float, float]] = []
    time_robots(samples)
    ended, sweeps = end.timestamp(), 1
    log(f"window closed: {boards_in_play} boards in play; the close runs …")
    while online_window_close(event=event) != CLOSED:
        if time.time() - ended > timeout:
            raise SystemExit("bench_online: the window's close did not finish in time")
        time.sleep(SWEEP_S)  # the sweep's next run
        sweeps += 1
    closed = time.time() - ended
    verified, ranked = wait_ranked(event_id, ended + timeout)
    return {
        "boards_in_play": boards_in_play,
        "close_moves": sum(server_moves(event_id)[:2]) - steps_before,
        "robot_cpu": [c for c, _w in samples],
        "sweeps": sweeps,
        "closed_s": closed,
        # 0: the last game was verified and ranked before the window's end (nothing in play).
        "verified_s": max(0.0, verified - ended),
        "ranked_s": max(0.0, ranked - ended),
        "games": games.count(),
    }


def wait_ranked(event_id: int, deadline: float) -> tuple[float, float]:
    """When the event's last game was verified and when standings read after it were stored
    (epoch seconds), polled until both are done."""
    from django.db.models import Max

    from games.models import Game, Status
    from tournaments.models import StandingsState

    games = Game.objects.filter(board__event_id=event_id, replaced_at__isnull=True)
    while True:
        if not games.filter(status=Status.PENDING).exists():
            last = games.aggregate(at=Max("verified_at"))["at"]
            state = StandingsState.objects.filter(pk=event_id).first()
            if (
                last is not None
                and state is not None
                and state.done >= state.requested
                and not state.queued
                and state.read_at is not None
                and state.stored_at is not None
                and state.read_at >= last
            ):
                return last.timestamp(), state.stored_at.timestamp()
        if time.time() > deadline:
            raise SystemExit("bench_online: the standings were not verified and ranked in time")
        time.sleep(0.05)


# --- The run ---------------------------------------------------------------------------------


def run_bench(
    args: argparse.Namespace,
    env: dict[str, str],
    built: tuple[int, str, list[str]],
    procs: list[Popen],
    timing: Path,
) -> dict[str, Any]:
    event_id, slug, sessions = built
    redis_url = env["CELERY_BROKER_URL"]
    workers = start_workers(env, args.workers, procs)
    ports = start_servers(env, args.servers, procs, timing)
    servers = [p for p in procs if p not in workers]
    entrants = [Entrant(i + 1, key, ports[i % len(ports)]) for i, key in enumerate(sessions)]
    stop_at = float("inf") if args.full else time.perf_counter() + args.seconds
    run = Run(slug, args.boards, stop_at, think=args.think)
    log(f"{len(ports)} Daphne servers, {len(workers)} workers; {args.concurrent} entrants play …")
    before = snapshot(servers, workers, redis_url)
    asyncio.run(play(run, entrants, args.concurrent))
    during = spent(before, snapshot(servers, workers, redis_url))
    *moves, stored = server_moves(event_id)
    time.sleep(1.5)  # the servers write their robots' times every second
    robots = robot_times(sorted(timing.glob("robots-*.json")))
    before = snapshot(servers, workers, redis_url)
    close = close_window(event_id, args.close_timeout)
    close["spent"] = spent(before, snapshot(servers, workers, redis_url))
    out = {"run": run, "entrants": len(sessions), "spent": during, "moves": moves}
    return out | {"stored": stored, "robots": robots, "close": close}


# --- The report ------------------------------------------------------------------------------

# The extrapolation's assumptions for 100,000 entrants: how many play at one moment at the
# peak, and the seconds between two moves of one entrant.
TARGET = 100_000
PEAK_AT_ONCE = 10_000
HUMAN_MOVE_S = 5.0


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def _ms(values: list[float], *qs: float) -> str:
    return " / ".join(f"{pct(values, q):,.1f}" for q in qs) + " ms" if values else "—"


def measured_rows(r: dict[str, Any]) -> tuple[list[str], bool]:
    """The rows of the play ("figure | value | goal") and whether its goals were met."""
    run: Run = r["run"]
    s, (mine, robots), wall = r["spent"], r["moves"], r["spent"]["wall"]
    cpu, wall_ms = [c for c, _w in r["robots"]], [w for _c, w in r["robots"]]
    robot_ok = bool(cpu) and pct(cpu, 0.95) <= GOAL_ROBOT_P95_MS
    done = sum(w.finished for w in run.entered)
    started = sum(w.started for w in run.entered)
    clean = not (run.lost or run.refused or run.conflicts or run.errors)
    counted = (mine, robots) == (run.entrant_moves, run.robot_moves) and r["stored"] == done
    late = sum(1 for x in run.latencies if x > DEVICE_PATIENCE_S * 1000)
    boards = collections.Counter(w.finished for w in run.entered)
    spread = ", ".join(f"{boards[n]:,} finished {n}" for n in sorted(boards, reverse=True))
    lost = f"{run.lost} / {run.refused} / {run.conflicts} / {len(run.errors)}"
    o = run.over

    def cost(part: str) -> str:
        return f"{1000 * s[part] / max(mine, 1):.1f} ms ({s[part] / wall:.2f} cores)"

    rows = [
        f"entrants entered / who played | {r['entrants']:,} / {len(run.entered):,} |",
        f"who played: boards finished | {spread} |",
        f"boards started / finished / games stored | {started:,} / {done:,} / {r['stored']:,} |",
        f"moves served/s, entrants' (the server's count) | {mine / wall:,.1f} ({mine:,}) |",
        f"moves served/s, robots' | {robots / wall:,.1f} ({robots:,}) |",
        f"the clients' count, entrants' / robots' | {run.entrant_moves:,} / {run.robot_moves:,} "
        f"| the server's: {_mark(counted)}",
        "move latency p50 / p95 / max (step → position after the robots) | "
        f"{_ms(run.latencies, 0.5, 0.95, 1)} |",
        f"answers after {DEVICE_PATIENCE_S:g} s or more (the device asks again) | {late:,} |",
        f"board start p50 / p95 (Play board → first position) | {_ms(run.starts, 0.5, 0.95)} |",
        "robot time per move p50 / p95 / max (thread CPU, in the servers) | "
        f"{_ms(cpu, 0.5, 0.95, 1)} | p95 ≤ {GOAL_ROBOT_P95_MS:g} ms: {_mark(robot_ok)}",
        f"robot time per move p50 / p95 (wall) | {_ms(wall_ms, 0.5, 0.95)} |",
        f"Daphne CPU per entrant move (his step, the robots', pages, socket) | {cost('servers')} |",
        f"PostgreSQL backends' CPU per entrant move | {cost('postgres')} |",
        f"workers' CPU per entrant move (verification, ranking) | {cost('workers')} |",
        f"Redis CPU per entrant move (the whole server) | {cost('redis')}, "
        f"{s['redis_commands'] / max(mine, 1):.0f} commands |",
        f"the bench clients' CPU per entrant move | {cost('clients')} |",
        f"steps over the socket / over HTTP | {o['socket']:,} / {o['HTTP']:,} |",
        f"sockets that did not open / that dropped | {o['socket not opened']:,} / "
        f"{o['socket dropped']:,} |",
        f"steps lost / refused / conflicts / errors | {lost} | 0: {_mark(clean)}",
    ]
    return rows, robot_ok and clean and counted


def close_rows(r: dict[str, Any]) -> list[str]:
    c = r["close"]
    sweeps = f"{c['sweeps']} sweep" + ("s" if c["sweeps"] > 1 else "")
    return [
        "boards in play at the window's end / moves the close played | "
        f"{c['boards_in_play']:,} / {c['close_moves']:,} |",
        f"window's end → robots done, rounds published | {c['closed_s']:.1f} s ({sweeps}) |",
        f"window's end → last game verified / standings ranked | {c['verified_s']:.1f} s / "
        f"{c['ranked_s']:.1f} s ({c['games']:,} games) |",
        "**window's end → verified and ranked standings, the window closed** | "
        f"**{max(c['closed_s'], c['ranked_s']):.1f} s** |",
        "the close's robot time per move p50 / p95, in this process (not the workers') | "
        f"{_ms(c['robot_cpu'], 0.5, 0.95)} |",
    ]


def extrapolation(r: dict[str, Any], args: argparse.Namespace) -> list[str]:
    """What the whole event and 100,000 entrants take, from the measured rates (labelled)."""
    run: Run = r["run"]
    s, (mine, _robots), c = r["spent"], r["moves"], r["close"]
    if not run.board_moves or not mine:
        return ["No board was finished: nothing to extrapolate."]
    m_e = statistics.mean(e for e, _r in run.board_moves)
    m_r = statistics.mean(x for _e, x in run.board_moves)
    rate, full = mine / s["wall"], args.entrants * args.boards * m_e
    per = {k: s[k] / mine for k in ("servers", "postgres", "workers", "redis")}
    peak = PEAK_AT_ONCE / HUMAN_MOVE_S
    cores = {k: peak * v for k, v in per.items()}
    from tournaments.online.close import CLOSE_CHUNK

    per_board = c["closed_s"] / max(1, c["boards_in_play"])
    close = (
        f"The close played out the boards in play at {per_board:.2f} s a board, shared among "
        f"the {args.workers} workers in tasks of {CLOSE_CHUNK} boards "
        f"(tournaments.online.close.CLOSE_CHUNK): {PEAK_AT_ONCE:,} boards in play at the "
        f"window's end would take {per_board * PEAK_AT_ONCE / 60:,.0f} min with as many, "
        "less with each worker added."
        if c["boards_in_play"]
        else "No board was in play at the window's end."
    )
    moves_100k = TARGET * args.boards * m_e
    return [
        f"**Extrapolated** (not measured): a finished board took {m_e:.1f} entrant moves and "
        f"{m_r:.1f} robot moves. The whole event, {args.entrants:,} entrants x {args.boards} "
        f"boards, is {full:,.0f} entrant moves: {full / rate / 3600:.1f} h on this machine at "
        f"the measured {rate:,.1f} entrant moves/s ({full * per['servers'] / 3600:.1f} CPU-hours "
        f"of Daphne, {full * per['postgres'] / 3600:.1f} of PostgreSQL).",
        "",
        f"**Extrapolated** for {TARGET:,} entrants x {args.boards} boards ({moves_100k:,.0f} "
        f"entrant moves, {moves_100k * per['servers'] / 3600:,.0f} CPU-hours of Daphne): at a "
        f"peak of {PEAK_AT_ONCE:,} entrants at once, each moving every {HUMAN_MOVE_S:g} s "
        f"({peak:,.0f} entrant moves/s), cores busy: ASGI (Daphne) "
        f"{cores['servers']:.1f}, PostgreSQL {cores['postgres']:.1f}, Celery workers "
        f"{cores['workers']:.1f}, Redis {cores['redis']:.1f}. {close}",
    ]


def report(r: dict[str, Any], args: argparse.Namespace) -> bool:
    rows, ok = measured_rows(r)
    play_ = "every board played" if args.full else f"play stopped after {args.seconds:g} s"
    print(
        f"Online robot duplicate: {r['entrants']:,} entrants x {args.boards} boards "
        f"({args.strength} robots), {args.concurrent} entrants at once"
        + (f" ({args.think:g} s to choose each move)" if args.think else "")
        + " over HTTP and their "
        f"boards' WebSockets, {args.servers} Daphne processes, {args.workers} Celery workers, "
        f"PostgreSQL and Redis on the same {os.cpu_count()} cores; {play_} "
        f"({r['spent']['wall']:.1f} s), then the window closed:\n"
    )
    print("| figure | value | goal |\n|---|---|---|")
    for row in rows + close_rows(r):
        print(f"| {row} |")
    print("\n" + "\n".join(extrapolation(r, args)))
    for error in r["run"].errors[:5]:
        print(f"\nerror: {error}")
    for why, n in r["run"].socket_errors.most_common(3):
        print(f"\nsockets not opened ({n:,}): {why}")
    return ok


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--strength", choices=("basic", "medium", "strong"), default="strong")
    parser.add_argument("--concurrent", type=int, default=200, help="entrants playing at once")
    parser.add_argument("--seconds", type=float, default=120.0, help="the play's length")
    parser.add_argument("--full", action="store_true", help="play every board of every entrant")
    parser.add_argument("--think", type=float, default=0.0, help="an entrant's seconds a move")
    parser.add_argument("--servers", type=int, default=2, help="Daphne processes")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--close-timeout", type=float, default=3600.0)
    parser.add_argument("--serve-port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--serve-timing", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    numbers = (args.entrants, args.boards, args.concurrent, args.servers, args.workers)
    if min(numbers) < 1 or args.seconds <= 0 or args.boards > 60 or args.think < 0:
        parser.error(
            "--entrants, --concurrent, --servers, --workers and --seconds must be "
            "positive, --boards 1 to 60"
        )
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.serve_port:
        return serve(args.serve_port, args.serve_timing)
    database_url = os.environ.get("DDZ_BENCH_ONLINE_DATABASE_URL", DEFAULT_DB)
    redis_url = os.environ.get("DDZ_BENCH_ONLINE_REDIS_URL", DEFAULT_REDIS)
    # Ctrl-C and a plain kill both unwind through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    create_database(database_url)
    procs: list[Popen] = []
    timing = Path(tempfile.mkdtemp(prefix=f"{TAG}-"))
    try:
        env = site_env(database_url, redis_url)
        for key in [k for k in os.environ if k.startswith(("DATABASE_", "DDZ_"))]:
            del os.environ[key]
        os.environ.update(env)
        import django

        django.setup()
        built = build_event(args.entrants, args.boards, args.strength)
        collect_static(env)
        result = run_bench(args, env, built, procs, timing)
        ok = report(result, args)
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        cleanup(procs, database_url, redis_url, timing)
    return 0 if ok else 1


def cleanup(procs: list[Popen], database_url: str, redis_url: str, timing: Path) -> None:
    """Stop every process, drop the database, delete this run's Redis keys and time files;
    a second Ctrl-C (or kill) must not cut it short: each step is bounded."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    stop_daphnes(procs)  # servers and workers alike: each has a session of its own
    with contextlib.suppress(Exception):
        from django.db import connections

        connections.close_all()
    drop_database(database_url)
    with contextlib.suppress(Exception):
        import redis

        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(match=f"*{TAG}*", count=1000):
            client.delete(key)
        client.close()
    for path in timing.glob("*"):
        path.unlink()
    timing.rmdir()


if __name__ == "__main__":
    sys.exit(main())
