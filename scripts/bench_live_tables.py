"""Benchmark the live tables: seat devices playing at once, each step pushed to the others.

On its own PostgreSQL database (DDZ_BENCH_LIVE_DATABASE_URL, default the local service's
`ddz_bench_live`, created at the start and dropped at the end, Ctrl-C included) and a Redis
channel layer (DDZ_BENCH_CHANNEL_LAYER_URL, default the local service's db 13, a prefix of its
own), it builds an event of --tables tables of three (classic rules, --boards boards), makes the
table links, serves the site with --servers Daphne processes (DEBUG off, as in production; one
port each, the same database and the same channel layer prefix, so they share the tables'
groups as the web machines of a site do), and then

  - opens one WebSocket per seat (3 x --tables) on the board its table plays, seat i of table t
    on server (t + i) mod --servers: from 2 servers on, a table's seats are not all on one
    server (from 3 on, each on another), so every step reaches some seat only by crossing
    from the server that took its POST to another through Redis;
  - plays every table with bots at a steady pace: each table makes one step every --pace
    seconds (the tables staggered over the first period); the seat to move takes its first
    play, else its first call that is not a pass, else its first button, and posts it over
    HTTP as the seat's device does (CSRF cookie and header, ``at``), to its own server;
  - measures, for --seconds, the latency from sending a step's POST to each OTHER seat's
    socket receiving the position with that ``at``, the steps lost (a socket that never got
    an ``at``) and reordered (an ``at`` after a higher one), the steps served per second and
    the CPU seconds of the Daphne processes (summed) per step.

A Markdown table of figures and goals goes to stdout, progress to stderr. Exit 1 when a goal is
missed, 2 for a usage error.

    python scripts/bench_live_tables.py                      # 300 tables, 60 s, a step/5 s
    python scripts/bench_live_tables.py --tables 300 --servers 2
    python scripts/bench_live_tables.py --tables 100 --pace 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/ddz_bench_live"
DEFAULT_LAYER = "redis://127.0.0.1:6379/13"
SECRET_KEY = "bench-only-" + "y" * 40
GOAL_P95_MS = 100.0
# After the last step is posted, how long the sockets get to hear the last positions before
# a missing one counts as lost.
GRACE_S = 5.0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- The database and the event ----------------------------------------------------------------


def _admin(database_url: str) -> tuple[dict[str, Any], str]:
    match = re.match(r"postgres(?:ql)?://([^@/]*@)?([^/:]+)(?::(\d+))?/(\w+)$", database_url)
    if not match:
        raise SystemExit(
            f"bench_live_tables: the database must be postgres://…/NAME: {database_url}"
        )
    user = (match.group(1) or "postgres@").rstrip("@").split(":")[0]
    params = {"host": match.group(2), "port": int(match.group(3) or 5432), "user": user}
    return params, match.group(4)


def create_database(database_url: str) -> None:
    """A fresh database (one left by a killed run is dropped first)."""
    import psycopg

    params, name = _admin(database_url)
    with psycopg.connect(**params, dbname="postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(database_url: str) -> None:
    import psycopg

    params, name = _admin(database_url)
    with psycopg.connect(**params, dbname="postgres", autocommit=True) as conn:
        # FORCE: Daphne's pooled connections may outlive its process by a moment.
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def build_event(tables: int, boards: int) -> list[list[tuple[str, str]]]:
    """The event, its round in play and its table links: per table, its (seat, token) pairs."""
    from django.core.management import call_command
    from django.db import transaction

    from games.engine import RuleSet, deal_random
    from tournaments.events.boards import board_create
    from tournaments.events.setup import round_seat
    from tournaments.links import tokens
    from tournaments.models import Event, Player, Round
    from tournaments.models.events import RoundState

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    log(f"migrated in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    rng = random.Random(tables)
    rules = RuleSet.from_spec("classic")
    with transaction.atomic():
        event = Event.objects.create(name="Bench live", slug="bench-live", rules="classic")
        # One bulk insert of the players: the factories' one row at a time is the slow part
        # at 900 players.
        players = Player.objects.bulk_create(
            Player(name=f"Live bench player {i:04d}") for i in range(3 * tables)
        )
        round_ = round_seat(
            event=event, number=1, tables=[players[3 * t : 3 * t + 3] for t in range(tables)]
        )
        for b in range(boards):
            first = "SEW"[b % 3]
            deal = deal_random(rules, rng, first_bidder=first)
            board_create(
                event=event,
                round=round_,
                hands=deal.hands,
                bottom=deal.bottom,
                first_bidder=first,
            )
        made = tokens.table_links_make(event=event, round_=round_, actor=tokens.COMMAND_LINE)
        Round.objects.filter(pk=round_.pk).update(state=RoundState.IN_PLAY)
    log(f"built {tables} tables x {boards} boards in {time.perf_counter() - started:.1f} s")
    return [[(seat, url.strip("/").split("/")[1]) for seat, url in link.seats] for link in made]


# --- Daphne ----------------------------------------------------------------------------------


TASKS_BROKER = "redis://127.0.0.1:6379/12"
TASKS_QUEUE = f"ddz-bench-live-tasks-{os.getpid()}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_env(database_url: str, layer_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        # A pool shared by the server's threads (README "Live tables"): under ASGI each
        # request runs in a thread of its own, and a connection per thread (kept, or opened
        # anew each time) either exceeds PostgreSQL's max_connections or costs more than the
        # request.
        DATABASE_CONN_MAX_AGE="0",
        DATABASE_POOL_SIZE="8",
        # Plain HTTP on the loopback, as behind a TLS-terminating proxy: no redirect, and a
        # CSRF cookie the bots' plain-HTTP client is sent.
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DDZ_CHANNEL_LAYER_URL=layer_url,
        # A prefix of its own: the bench never meets a site's groups on a shared Redis.
        DDZ_CHANNEL_LAYER_PREFIX=f"ddz-bench-live-{os.getpid()}",
        # With DEBUG off the page names its static files by collectstatic's manifest.
        DJANGO_STATIC_ROOT=str(ROOT / "var" / "bench-static"),
    )
    # Verification is the workers' work, not the web server's: the finished games' tasks go
    # to a queue of the bench's own that no worker reads (emptied at the end), so that what is
    # measured is the live table alone, as on a site whose workers run on other machines.
    env.update(CELERY_BROKER_URL=TASKS_BROKER, CELERY_TASK_DEFAULT_QUEUE=TASKS_QUEUE)
    return env


def drop_task_queue() -> None:
    import redis

    client = redis.Redis.from_url(TASKS_BROKER)
    client.delete(TASKS_QUEUE)
    client.close()


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def spawn_daphne(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    # A session of its own: the terminal's Ctrl-C reaches the bench only, which then stops
    # every server itself (and its children, by process group).
    return subprocess.Popen(
        [sys.executable, "-m", "daphne", "-v", "0", "-b", "127.0.0.1", "-p", str(port)]
        + ["ddz_site.asgi:application"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )


def wait_listening(server: subprocess.Popen[bytes], port: int) -> None:
    """Wait for `server` to accept connections on `port` (the caller stops it on failure)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(
                    f"bench_live_tables: Daphne on port {port} did not start"
                ) from None
            time.sleep(0.2)


def stop_daphnes(servers: list[subprocess.Popen[bytes]]) -> None:
    """Stop every server: all told at once, so K servers take one grace period, not K."""
    for server in servers:
        if server.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGTERM)
    deadline = time.monotonic() + 20
    for server in servers:
        try:
            server.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            server.wait()


def cpu_seconds(pid: int) -> float:
    """User + system CPU of process `pid` so far (its threads included), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- The bots --------------------------------------------------------------------------------


async def http(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> tuple[int, dict[str, list[str]], bytes]:
    """One HTTP/1.1 request on a connection of its own (no client library: the bots share
    the 2 cores with the server, so the lightest client measures the server, not itself)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
        head += [f"{k}: {v}" for k, v in headers.items()]
        head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
        data = await asyncio.wait_for(reader.read(), 60)
    finally:
        writer.close()
    top, _sep, rest = data.partition(b"\r\n\r\n")
    lines = top.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    found: dict[str, list[str]] = {}
    for line in lines[1:]:
        key, _c, value = line.partition(":")
        found.setdefault(key.strip().lower(), []).append(value.strip())
    if "chunked" in ",".join(found.get("transfer-encoding", [])):
        out = b""
        while rest:
            size_line, _n, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                break
            out, rest = out + rest[:size], rest[size + 2 :]
        rest = out
    return status, found, rest


def choose(view: dict[str, Any]) -> str:
    """The bot's step: its first play, else its first call that is not a pass (so every board
    gets a landlord and is played out), else the menu's first button."""
    menu = view["menu"]
    buttons = list(menu["primary"]) + [c for g in menu["groups"] for c in g["choices"]]
    for wanted in ("play", "call"):
        for choice in buttons:
            if choice["kind"] == wanted and "surrender" not in choice["step"]:
                return str(choice["step"])
    return str(buttons[0]["step"])


@dataclass
class Seat:
    table: int
    seat: str
    token: str
    # The server this seat's device talks to: its socket and its own steps' POSTs.
    port: int = 0
    board: int = 1
    # (board, at) -> when this socket heard it; and the order of the ats heard, per board.
    heard: dict[tuple[int, int], float] = field(default_factory=dict)
    order: dict[int, list[int]] = field(default_factory=dict)
    latest: dict[str, Any] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    first_at: dict[int, int] = field(default_factory=dict)
    # The socket of the board being played, and the answers awaited to steps sent over it.
    ws: Any = None
    answers: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Stats:
    # (table, board, at) -> (when its POST was sent, the seat that posted it)
    sent: dict[tuple[int, int, int], tuple[float, str]] = field(default_factory=dict)
    ok: int = 0
    conflicts: int = 0
    refused: int = 0
    errors: list[str] = field(default_factory=list)
    fallbacks: int = 0
    finished: int = 0
    dropped: int = 0


async def listen(seat: Seat, board: int, ready: asyncio.Event) -> None:
    """Hold seat `seat`'s socket on `board` (on its server) and note every position it hears."""
    from websockets.asyncio.client import connect

    port = seat.port

    url = f"ws://127.0.0.1:{port}/ws/s/{seat.token}/boards/{board}/"
    async with connect(
        url,
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        user_agent_header="bench-live-tables",
        compression=None,
        open_timeout=120,
        max_queue=None,
    ) as ws:
        if seat.board == board:
            seat.ws = ws
        async for raw in ws:
            now = time.perf_counter()
            message = json.loads(raw)
            if message.get("type") == "step":
                waiting = seat.answers.pop(int(message.get("id") or 0), None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
                continue
            if message.get("type") != "position":
                raise RuntimeError(f"table {seat.table} {seat.seat}: {message}")
            view = message["view"]
            at = int(view["at"])
            seat.heard.setdefault((board, at), now)
            seat.order.setdefault(board, []).append(at)
            seat.first_at.setdefault(board, at)
            if seat.board == board:
                seat.latest = view
                seat.changed.set()
            ready.set()


@dataclass
class Table:
    number: int
    seats: dict[str, Seat]
    cookie: str = ""
    board: int = 1
    at: int = 0
    to_move: str | None = None
    done: bool = False


async def open_board(table: Table, board: int, tasks: list[asyncio.Task[None]]) -> None:
    """Open the three seats' sockets on `board` and wait for their first positions."""
    waits = []
    for seat in table.seats.values():
        seat.board, seat.latest = board, None
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(listen(seat, board, ready)))
        waits.append(ready.wait())
    # Bounded: a socket refused or dropped before its first position must not hang the run.
    await asyncio.wait_for(asyncio.gather(*waits), 30)
    view = next(iter(table.seats.values())).latest
    assert view is not None
    table.board, table.at, table.to_move = board, int(view["at"]), view["to_move"]


async def position_of(table: Table, seat: Seat) -> dict[str, Any] | None:
    """The seat's view at the table's step now: its socket's, else (not heard yet) over HTTP."""
    deadline = time.perf_counter() + 0.5
    while seat.latest is None or int(seat.latest["at"]) < table.at:
        seat.changed.clear()
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(seat.changed.wait(), left)
    if seat.latest is not None and int(seat.latest["at"]) == table.at:
        return seat.latest
    status, _h, body = await http(
        seat.port, "GET", f"/s/{seat.token}/boards/{table.board}/position/", {}
    )
    if status != 200:
        return None
    view: dict[str, Any] = json.loads(body)["view"]
    return view


_STEP_IDS = iter(range(1, 1 << 62))


async def step_over_socket(seat: Seat, step: str, at: int) -> tuple[int, dict[str, Any], bytes]:
    """Send one step over the seat's socket and wait for its answer: an HTTP-like status (200,
    409 for a conflict, 400 for a refusal, 504 when no answer came), the answer, its text."""
    loop = asyncio.get_running_loop()
    number = next(_STEP_IDS)
    waiting: asyncio.Future[dict[str, Any]] = loop.create_future()
    seat.answers[number] = waiting
    await seat.ws.send(json.dumps({"type": "step", "id": number, "step": step, "at": at}))
    try:
        answer = await asyncio.wait_for(waiting, 30)
    except TimeoutError:
        seat.answers.pop(number, None)
        return 504, {}, b"no answer over the socket"
    status = 409 if answer.get("conflict") else 200 if answer.get("ok") else 400
    return status, answer, json.dumps(answer).encode()


async def play(
    table: Table,
    stats: Stats,
    pace: float,
    offset: float,
    until: float,
    boards: int,
    tasks: list[asyncio.Task[None]],
    over_socket: bool = True,
) -> None:
    """Make one step of `table` every `pace` seconds until `until` (the clock of perf_counter)."""
    tick = time.perf_counter() + offset
    while not table.done:
        await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        tick += pace
        if time.perf_counter() >= until:
            return
        if table.to_move is None:
            stats.errors.append(f"table {table.number}: nobody to move at {table.at}")
            return
        seat = table.seats[table.to_move]
        view = await position_of(table, seat)
        if view is None:
            stats.errors.append(f"table {table.number}: its position answered an error")
            return
        if int(view["at"]) != table.at or not view.get("menu"):
            stats.fallbacks += 1
            table.at, table.to_move = int(view["at"]), view["to_move"]
            continue
        step = choose(view)
        body = json.dumps({"step": step, "at": table.at}).encode()
        headers = {
            "Content-Type": "application/json",
            "Cookie": f"csrftoken={table.cookie}",
            "X-CSRFToken": table.cookie,
            "User-Agent": "bench-live-tables",
        }
        key = (table.number, table.board, table.at + 1)
        stats.sent[key] = (time.perf_counter(), seat.seat)
        if over_socket and seat.ws is not None:
            # As the seat's page does while its socket is open: the step over the socket.
            status, answer, raw = await step_over_socket(seat, step, table.at)
        else:
            # The posting seat's own server: the other seats hear the step from theirs.
            status, _h, raw = await http(
                seat.port, "POST", f"/s/{seat.token}/boards/{table.board}/steps/", headers, body
            )
            answer = json.loads(raw) if raw.startswith(b"{") else {}
        if status == 409:
            stats.conflicts += 1
            del stats.sent[key]
        elif status != 200 or not answer.get("ok"):
            stats.refused += 1
            del stats.sent[key]
            stats.errors.append(f"table {table.number} {step!r}: {status} {raw[:300]!r}")
            return
        else:
            stats.ok += 1
        after = answer.get("view") or {}
        table.at, table.to_move = int(after.get("at", table.at)), after.get("to_move")
        if after.get("game") is not None:
            stats.finished += 1
            if table.board >= boards:
                table.done = True
                return
            # The next board: new sockets (the old ones stay open, quiet, to the end).
            try:
                await open_board(table, table.board + 1, tasks)
            except TimeoutError:
                stats.errors.append(f"table {table.number}: board {table.board + 1} sockets")
                return


async def csrf_cookie(port: int, token: str) -> str:
    """The seat page's CSRF cookie, as the device's page gets it."""
    status, headers, body = await http(port, "GET", f"/s/{token}/boards/1/", {})
    if status != 200:
        raise RuntimeError(f"seat page: {status} {body[:300]!r}")
    for cookie in headers.get("set-cookie", []):
        name, _eq, rest = cookie.partition("=")
        if name.strip() == "csrftoken":
            return rest.split(";")[0]
    raise RuntimeError("the seat page set no csrftoken cookie")


async def run_bench(
    ports: list[int], links: list[list[tuple[str, str]]], args: argparse.Namespace, pids: list[int]
) -> dict[str, Any]:
    # Seat i of table t on server (t + i) mod K: the three seats of a table on three servers
    # (two at K = 2), so no table lives in one process and the channel layer must carry it.
    k = len(ports)
    tables = [
        Table(
            t + 1,
            {
                seat: Seat(t + 1, seat, token, port=ports[(t + i) % k])
                for i, (seat, token) in enumerate(seats)
            },
        )
        for t, seats in enumerate(links)
    ]
    tasks: list[asyncio.Task[None]] = []
    started = time.perf_counter()
    gate = asyncio.Semaphore(20)

    async def prepare(table: Table) -> None:
        async with gate:
            # One cookie for the table's three devices: Django's CSRF check needs the same
            # SECRET_KEY only, which all the servers share, not the server that set it.
            first = next(iter(table.seats.values()))
            table.cookie = await csrf_cookie(first.port, first.token)
            await open_board(table, 1, tasks)

    try:
        await asyncio.gather(*(prepare(t) for t in tables))
        sockets = 3 * len(tables)
        log(f"{sockets} sockets open in {time.perf_counter() - started:.1f} s; playing …")
        stats = Stats()
        cpu0, wall0 = [cpu_seconds(p) for p in pids], time.perf_counter()
        client0 = sum(os.times()[:2])
        until = wall0 + args.seconds
        rng = random.Random(7)
        await asyncio.gather(
            *(
                play(
                    t,
                    stats,
                    args.pace,
                    rng.uniform(0, args.pace),
                    until,
                    args.boards,
                    tasks,
                    over_socket=args.steps_over == "socket",
                )
                for t in tables
            )
        )
        wall = time.perf_counter() - wall0
        cpus = [cpu_seconds(p) - c0 for p, c0 in zip(pids, cpu0, strict=True)]
        client_cpu = sum(os.times()[:2]) - client0
        await asyncio.sleep(GRACE_S)
        # A socket the server closed is counted, not fatal: its missing ats count as lost.
        stats.dropped = sum(1 for t in tasks if t.done() and not t.cancelled() and t.exception())
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return judge(tables, stats, wall, cpus, client_cpu, sockets)


def judge(
    tables: list[Table],
    stats: Stats,
    wall: float,
    cpus: list[float],
    client_cpu: float,
    sockets: int,
) -> dict[str, Any]:
    # CPU per step is the whole site's: every server takes its share of the POSTs and of the
    # sockets' pushes.
    cpu = sum(cpus)
    latencies: list[float] = []
    lost = reordered = 0
    for table in tables:
        for seat in table.seats.values():
            for board, order in seat.order.items():
                reordered += sum(1 for a, b in zip(order, order[1:], strict=False) if b < a)
                first = seat.first_at[board]
                for (t, b, at), (sent, poster) in stats.sent.items():
                    if t != table.number or b != board or at <= first:
                        continue
                    heard = seat.heard.get((board, at))
                    if heard is None:
                        lost += 1
                    elif seat.seat != poster:
                        latencies.append((heard - sent) * 1000)
    latencies.sort()

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else 0.0

    return {
        "tables": len(tables),
        "servers": len(cpus),
        "sockets": sockets,
        "seconds": round(wall, 1),
        "steps": stats.ok,
        "steps_per_s": round(stats.ok / wall, 1),
        "deliveries": len(latencies),
        "p50_ms": round(statistics.median(latencies), 1) if latencies else 0.0,
        "p95_ms": round(pct(0.95), 1),
        "max_ms": round(latencies[-1], 1) if latencies else 0.0,
        "lost": lost,
        "reordered": reordered,
        "conflicts": stats.conflicts,
        "refused": stats.refused,
        "fallbacks": stats.fallbacks,
        "games_finished": stats.finished,
        "sockets_dropped": stats.dropped,
        "server_cpu_s": round(cpu, 1),
        "server_cpu_s_each": [round(c, 1) for c in cpus],
        "server_cpu_ms_per_step": round(1000 * cpu / stats.ok, 1) if stats.ok else 0.0,
        "client_cpu_s": round(client_cpu, 1),
        "errors": stats.errors[:5],
    }


# --- The report ------------------------------------------------------------------------------


def _mark(ok: bool) -> str:
    return "met" if ok else "**missed**"


def report(r: dict[str, Any], args: argparse.Namespace) -> bool:
    asked = r["tables"] / args.pace
    p95_ok = r["p95_ms"] <= GOAL_P95_MS and r["deliveries"] > 0
    lost_ok, order_ok = r["lost"] == 0, r["reordered"] == 0
    clean = not r["errors"] and r["refused"] == 0
    servers = r["servers"]
    spread = (
        "each table's seats on different servers (seat i of table t on server (t + i) mod "
        f"{servers}), sharing the Redis channel layer"
        if servers > 1
        else "all seats on it"
    )
    print(
        f"Live tables: {r['tables']} tables x 3 seats ({r['sockets']} sockets), a step per "
        f"table every {args.pace:g} s (the default 5 s is a live table's pace: a board of "
        f"~50 steps in ~4 minutes), {r['seconds']} s, "
        f"{servers} Daphne process{'es' if servers > 1 else ''}, {spread}; steps sent over "
        f"{'each seat' + chr(39) + 's socket' if args.steps_over == 'socket' else 'HTTP'}; "
        f"{os.cpu_count()} cores shared with the bots, PostgreSQL and Redis:\n"
    )
    each = " + ".join(f"{c:g}" for c in r["server_cpu_s_each"])
    rows = [
        ("Daphne servers", str(servers), ""),
        ("steps served", f"{r['steps']:,}", ""),
        ("steps per second", f"{r['steps_per_s']:g} (asked {asked:.0f})", ""),
        ("positions pushed to the other seats", f"{r['deliveries']:,}", ""),
        ("latency step sent → other seat's socket, p50", f"{r['p50_ms']:g} ms", ""),
        (
            "latency p95",
            f"{r['p95_ms']:g} ms",
            f"≤ {GOAL_P95_MS:g} ms: {_mark(p95_ok)}",
        ),
        ("latency max", f"{r['max_ms']:g} ms", ""),
        ("lost (a socket never got an at)", str(r["lost"]), f"0: {_mark(lost_ok)}"),
        ("reordered (an at after a higher one)", str(r["reordered"]), f"0: {_mark(order_ok)}"),
        ("409 conflicts / refused steps", f"{r['conflicts']} / {r['refused']}", ""),
        ("bot reads over HTTP (socket late)", str(r["fallbacks"]), ""),
        ("games finished", str(r["games_finished"]), ""),
        ("sockets closed by the server", str(r["sockets_dropped"]), ""),
        (
            "Daphne CPU (all servers)",
            f"{r['server_cpu_s']:g} s"
            + (f" ({each})" if servers > 1 else "")
            + f", {r['server_cpu_ms_per_step']:g} ms per step",
            "",
        ),
        ("bots' CPU (this process)", f"{r['client_cpu_s']:g} s", ""),
    ]
    print("| figure | value | goal |")
    print("|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for error in r["errors"]:
        print(f"\nerror: {error}")
    return p95_ok and lost_ok and order_ok and clean


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=60.0)
    # A live table plays a step every few seconds (a board of ~50 steps in ~4 minutes).
    parser.add_argument("--pace", type=float, default=5.0, help="seconds between a table's steps")
    parser.add_argument("--boards", type=int, default=2)
    parser.add_argument(
        "--servers", type=int, default=1, help="Daphne processes sharing the channel layer"
    )
    parser.add_argument(
        "--steps-over",
        choices=("socket", "http"),
        default="socket",
        help="how the bots send their steps: over their socket (as a page with its socket "
        "open does) or as HTTP POSTs (its fallback)",
    )
    parser.add_argument("--json", action="store_true", help="the figures as JSON too (stderr)")
    args = parser.parse_args(argv)
    if (
        args.tables < 1
        or args.seconds <= 0
        or args.pace <= 0
        or args.boards < 1
        or args.servers < 1
    ):
        parser.error("--tables, --seconds, --pace, --boards and --servers must be positive")
    database_url = os.environ.get("DDZ_BENCH_LIVE_DATABASE_URL", DEFAULT_DB)
    layer_url = os.environ.get("DDZ_BENCH_CHANNEL_LAYER_URL", DEFAULT_LAYER)
    # Ctrl-C and a plain kill both unwind through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    create_database(database_url)
    servers: list[subprocess.Popen[bytes]] = []
    try:
        env = server_env(database_url, layer_url)
        os.environ.update({k: env[k] for k in ("DATABASE_URL", "DJANGO_SECRET_KEY")})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ddz_site.settings")
        os.environ.pop("CELERY_BROKER_URL", None)
        import django

        django.setup()
        links = build_event(args.tables, args.boards)
        from django.db import connections

        connections.close_all()
        collect_static(env)
        ports: list[int] = []
        while len(ports) < args.servers:
            # Distinct: two probes may be handed the same free port.
            if (port := _free_port()) not in ports:
                ports.append(port)
        # Spawned together (they import Django at once), each noted before the next, so the
        # finally stops all that were started even if one fails or Ctrl-C comes meanwhile.
        for port in ports:
            servers.append(spawn_daphne(env, port))
        for server, port in zip(servers, ports, strict=True):
            wait_listening(server, port)
        result = asyncio.run(run_bench(ports, links, args, [s.pid for s in servers]))
        if args.json:
            log(json.dumps(result))
        ok = report(result, args)
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        # A second Ctrl-C (or kill) must not cut the cleanup short and leave servers running
        # or the database behind: each step below is bounded.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop_daphnes(servers)
        with contextlib.suppress(Exception):
            from django.db import connections

            connections.close_all()
        drop_database(database_url)
        with contextlib.suppress(Exception):
            drop_task_queue()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
