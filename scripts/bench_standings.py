"""Benchmark the standings: recompute, and serve the standings page under load.

Run by `make bench`. On PostgreSQL (DATABASE_URL, default the local service's database
`ddz_bench`, created when missing), it builds once an event of 600 players: 12 rounds of 200
tables, 6 boards a round (72 boards, 14,400 verified games with a realistic record each), then

  recompute  times tournaments.standings.store.standings_recompute from nothing (the stored rows
             deleted first: every row written) and again with nothing changed; the target is
             2 s or less for the full recompute (the median of --repeats runs).
  load       serves the site with gunicorn (--workers) on 127.0.0.1 and runs wrk (Debian's
             package) against the event's standings page: 50 connections for --seconds;
             the target is >= 500 requests/s with p99 <= 100 ms.

    python scripts/bench_standings.py                 # both, a table on stdout
    python scripts/bench_standings.py --only recompute --json

DDZ_BENCH_DATABASE_URL chooses the database; DDZ_BENCH_WORKER_CLASS and DDZ_BENCH_THREADS
gunicorn's worker class and threads (default sync, one per core). Progress goes to stderr.
Exit 1 when a target is missed (2 for a usage error).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/ddz_bench"
SLUG = "bench-600"
PLAYERS, ROUNDS, BOARDS, SEATS = 600, 12, 6, ("S", "E", "W")
TARGET_RECOMPUTE_S = 2.0
# The page's goals (issue "Standings at the speed of the change"), 50 connections: requests/s
# at least and p99 at most, by visitor.
TARGETS = {"load": (2000.0, 100.0), "load_signed_in": (1000.0, 50.0)}


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# The served site's key, also this process's: the signed-in visitor's session made here is
# read there.
SECRET_KEY = "bench-only-" + "x" * 40


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SECRET_KEY"] = SECRET_KEY
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ddz_site.settings")
    os.environ.pop("CELERY_BROKER_URL", None)  # eager: the bench never needs a worker
    import django

    django.setup()


def ensure_database(database_url: str) -> None:
    """Create the benchmark database when it does not exist (PostgreSQL only)."""
    import psycopg

    match = re.match(r"postgres(?:ql)?://([^@/]*@)?([^/:]+)(?::(\d+))?/(\w+)", database_url)
    if not match:
        raise SystemExit(f"bench_standings: DATABASE_URL must be postgres://…/NAME: {database_url}")
    user = (match.group(1) or "postgres@").rstrip("@").split(":")[0]
    host, port, name = match.group(2), int(match.group(3) or 5432), match.group(4)
    with psycopg.connect(
        host=host, port=port, user=user, dbname="postgres", autocommit=True
    ) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
            log(f"created database {name}")


def build_event() -> int:
    """The benchmark event (built once; later runs reuse it). Returns its id."""
    from django.core.management import call_command
    from django.db import transaction

    from games.engine import RuleSet, deal_random
    from games.models import Board, Game, Status
    from tournaments.models import Event, Player, Round, Seat, Table

    call_command("migrate", verbosity=0)
    event = Event.objects.filter(slug=SLUG).first()
    if event is not None and Game.objects.filter(board__event=event).count() == (
        ROUNDS * BOARDS * PLAYERS // 3
    ):
        return event.pk
    if event is not None:
        event.rounds.all().delete()
        event.delete()
    log("building the event: 600 players, 12 rounds of 6 boards, 14,400 games …")
    started = time.perf_counter()
    rng = random.Random(600)
    rules = RuleSet.from_spec("classic")
    sample = json.loads((ROOT / "tests" / "data" / "rlcard_rule_agents.jsonl").open().readline())
    with transaction.atomic():
        event = Event.objects.create(name="Bench 600", slug=SLUG, rules="classic")
        names = [f"Bench player {i:03d}" for i in range(PLAYERS)]
        existing = set(Player.objects.filter(name__in=names).values_list("name", flat=True))
        Player.objects.bulk_create(Player(name=n) for n in names if n not in existing)
        players = list(Player.objects.filter(name__in=names).order_by("name"))
        board_number = 0
        for r in range(1, ROUNDS + 1):
            round_ = Round.objects.create(event=event, number=r)
            tables = Table.objects.bulk_create(
                Table(round=round_, number=t) for t in range(1, PLAYERS // 3 + 1)
            )
            order = players[:]
            rng.shuffle(order)
            Seat.objects.bulk_create(
                Seat(table=table, seat=seat, player=order[3 * i + k])
                for i, table in enumerate(tables)
                for k, seat in enumerate(SEATS)
            )
            games = []
            for _b in range(BOARDS):
                board_number += 1
                deal = deal_random(rules, rng, first_bidder="S")
                board = Board.objects.create(
                    event=event,
                    round=round_,
                    number=board_number,
                    hands=deal.hands,
                    bottom=deal.bottom,
                    first_bidder="S",
                    deal_key=f"bench-{board_number}",
                )
                for table in tables:
                    landlord = rng.choice(SEATS)
                    stake = rng.choice((1, 2, 3)) * 2 ** rng.choice((0, 0, 0, 1, 1, 2))
                    won = rng.random() < 0.45
                    score = {
                        s: (2 * stake if s == landlord else -stake) * (1 if won else -1)
                        for s in SEATS
                    }
                    if rng.random() < 0.03:
                        score = dict.fromkeys(SEATS, 0)  # passed out (R-PASSOUT)
                    games.append(
                        Game(
                            table=table,
                            board=board,
                            record=sample,
                            status=Status.VERIFIED,
                            landlord=landlord,
                            winner="landlord" if won else "farmers",
                            multiplier=stake,
                            score=score,
                        )
                    )
            Game.objects.bulk_create(games, batch_size=2000)
    log(f"built in {time.perf_counter() - started:.1f} s")
    return event.pk


def bench_recompute(event_id: int, repeats: int) -> dict[str, float]:
    from tournaments.models import Standing
    from tournaments.standings.cache import stored_rows
    from tournaments.standings.results import computed_rows
    from tournaments.standings.store import standings_recompute

    full = []
    for _ in range(repeats):
        Standing.objects.filter(event_id=event_id).delete()
        started = time.perf_counter()
        assert standings_recompute(event_id=event_id)
        full.append(time.perf_counter() - started)
        log(f"full recompute: {full[-1]:.3f} s")
    started = time.perf_counter()
    assert not standings_recompute(event_id=event_id)
    unchanged = time.perf_counter() - started
    from tournaments.models import Event

    event = Event.objects.get(pk=event_id)
    assert stored_rows(event=event) == computed_rows(event=event)
    rows = Standing.objects.filter(event_id=event_id, stage__isnull=True).count()
    assert rows == PLAYERS, rows
    return {"full_s": statistics.median(full), "unchanged_s": unchanged, "rows": rows}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def visitor_cookie() -> str:
    """A signed-in visitor's cookies (a plain account, no role in the event): his session and
    the CSRF cookie his browser was given by the first page with a form (his header's sign-out
    form), as a browser sends them on every later page. The page is then built around the
    cached table, never served whole from the cache."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    user, _ = get_user_model().objects.get_or_create(username="bench-visitor")
    client = Client()
    client.force_login(user)
    client.get(reverse("public:standings", kwargs={"slug": SLUG}), HTTP_HOST="127.0.0.1")
    return "; ".join(
        f"{name}={client.cookies[name].value}"
        for name in (settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME)
    )


def bench_load(
    database_url: str, seconds: int, workers: int, cookie: str | None = None
) -> dict[str, float]:
    wrk = shutil.which("wrk")
    gunicorn = Path(sys.executable).with_name("gunicorn")
    if wrk is None or not gunicorn.exists():
        raise SystemExit("bench_standings: the load test needs wrk (apt) and gunicorn (pip)")
    port = _free_port()
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url,
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DATABASE_CONN_MAX_AGE="600",
        # Plain HTTP on the loopback, as behind a TLS-terminating proxy.
        DJANGO_SECURE_SSL_REDIRECT="false",
    )
    env.pop("CELERY_BROKER_URL", None)
    # With DEBUG off the pages name their static files by collectstatic's manifest, as in
    # production: collected once into the git-ignored var/ (a second run only checks them).
    env["DJANGO_STATIC_ROOT"] = str(ROOT / "var" / "bench-static")
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        [
            str(gunicorn),
            "ddz_site.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--worker-class",
            os.environ.get("DDZ_BENCH_WORKER_CLASS", "sync"),
            "--threads",
            os.environ.get("DDZ_BENCH_THREADS", "1"),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/events/{SLUG}/standings/"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("bench_standings: gunicorn did not start") from None
                time.sleep(0.2)
        headers = {"Cookie": cookie} if cookie else {}
        try:
            with urllib.request.urlopen(
                urllib.request.Request(url, headers=headers), timeout=10
            ) as r:
                status, page = r.status, r.read().decode()
        except urllib.error.URLError as exc:
            raise SystemExit(f"bench_standings: {url}: {exc}") from None
        if status != 200:
            raise SystemExit(f"bench_standings: {url} answered {status}")
        if cookie and "bench-visitor" not in page:
            raise SystemExit("bench_standings: the signed-in page does not name its visitor")
        header = ["-H", f"Cookie: {cookie}"] if cookie else []
        # Warm every worker's cache of the rendered table, then measure.
        subprocess.run([wrk, "-t2", "-c8", "-d2s", *header, url], capture_output=True, check=True)
        out = subprocess.run(
            [wrk, "-t2", "-c50", f"-d{seconds}s", "--latency", *header, url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99_value, p99_unit = re.search(r"99%\s+([\d.]+)(us|ms|s)", out).groups()  # type: ignore[union-attr]
    p99_ms = float(p99_value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99_unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "requests_per_s": rps,
        "p99_ms": p99_ms,
        "errors": float(errors.group(1)) if errors else 0.0,
        "connections": 50,
        "workers": workers,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="recompute,load", help="recompute, load or both")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=15)
    # One sync worker per core: more only queue the 50 connections longer (p99).
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sections = set(args.only.split(","))
    if not sections <= {"recompute", "load"}:
        parser.error("--only takes recompute, load or both")
    database_url = os.environ.get("DDZ_BENCH_DATABASE_URL", DEFAULT_DB)
    ensure_database(database_url)
    setup_django(database_url)
    event_id = build_event()
    out: dict[str, object] = {"cpus": os.cpu_count()}
    ok = True
    if "recompute" in sections:
        out["recompute"] = r = bench_recompute(event_id, args.repeats)
        ok &= r["full_s"] <= TARGET_RECOMPUTE_S
    if "load" in sections:
        from django.db import connections

        connections.close_all()
        cookie = visitor_cookie()
        connections.close_all()
        out["load"] = load = bench_load(database_url, args.seconds, args.workers)
        out["load_signed_in"] = signed = bench_load(
            database_url, args.seconds, args.workers, cookie=cookie
        )
        for key, run in (("load", load), ("load_signed_in", signed)):
            rps, p99 = TARGETS[key]
            ok &= run["requests_per_s"] >= rps and run["p99_ms"] <= p99 and not run["errors"]
    if args.json:
        print(json.dumps(out))
    else:
        print("| standings benchmark (600 players, 12 rounds x 6 boards) | result | target |")
        print("|---|---|---|")
        if "recompute" in out:
            r = out["recompute"]  # type: ignore[assignment]
            print(f"| full recompute (median of {args.repeats}) | {r['full_s']:.2f} s | <= 2 s |")
            print(f"| recompute with nothing changed | {r['unchanged_s']:.2f} s | |")
        for key, who in (("load", "anonymous"), ("load_signed_in", "signed in")):
            if key in out:
                load = out[key]  # type: ignore[assignment]
                rps, p99 = TARGETS[key]
                print(
                    f"| standings page, 50 connections, {who} "
                    f"| {load['requests_per_s']:.0f} req/s | >= {rps:,.0f} |"
                )
                print(f"| p99 latency, {who} | {load['p99_ms']:.1f} ms | <= {p99:g} ms |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
