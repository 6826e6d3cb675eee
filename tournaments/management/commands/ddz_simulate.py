"""`manage.py ddz_simulate`: an event played through the services, then a burst of results.

Builds on the configured database an event of ``--players`` players (one stage of ``--rounds``
rounds seated by tournaments.seating, ``--boards`` boards a round dealt from a seed committed
first), as an organizer would (tournaments.events.rounds), and plays every round but the last
with the built-in bot (games.bot; VARIANTS games of each board) through
tournaments.tables.submission.game_submit, verified and ranked in this process. The last round
is then played: its records are made first, and ``--clients`` processes submit them through
game_submit, as fast as they can with ``--burst`` (else from one client), while ``--workers``
Celery worker processes (started here, one process each, on CELERY_TASK_DEFAULT_QUEUE; 0:
workers already running) verify them and recompute the standings. Prints JSON:

    {"players", "rounds", "boards", "games": n, "workers", "clients",
     "submissions_per_s", "verification_games_per_s",
     "lag_s": {"p50", "p95", "max"}, "verified_after_s": {"p50", "p95", "max"},
     "last_in_standings_after_last_submission_s",
     "recomputes"}

and with ``--drain`` (every game of the burst queued before the workers are launched: the
workers' own verification rate, not bounded by the clients) also
``"drain": {"workers", "verified_after_s", "verification_games_per_s", "ranked_after_s"}``,
times from the launch of the workers, the rate from the first game verified to the last.

where a game's lag runs from the end of its submission to the storing of the first standings
computed from a reading begun after its verification (tournaments.models.StandingsState:
read_at, stored_at, polled every 20 ms), and ``verified_after_s`` from the end of its
submission to its verification. A benchmark, never a test: run by `make bench`.
The event of the same arguments is built once and its last round played again on each run.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, connections, transaction
from django.db.models import F

from ddz_site.celery import app
from games import steps as entry_steps
from games.bot import play_record
from games.engine import replay
from games.models import Board, Game, Status
from games.notation import rank_cards
from tournaments.demo.accounts import demo_organizer_ensure
from tournaments.events import players_csv, round_states, rounds, stages
from tournaments.events.setup import event_create
from tournaments.models import Event, RoundState, Standing, StandingsState, Table
from tournaments.standings.store import standings_recompute
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import VERIFY_BATCH, games_verify

# How many different games the bot plays of one board (table n plays variant n mod VARIANTS):
# enough for a field of scores to compare, few enough that building a large event is quick.
VARIANTS = 8
_PLAYED: dict[tuple[int, int], dict[str, Any]] = {}


def _record(rules: Any, board: Any, table: Any, seed: str) -> dict[str, Any]:
    variant = table.number % VARIANTS
    played = _PLAYED.get((board.pk, variant))
    if played is None:
        played = _PLAYED[(board.pk, variant)] = play_record(
            rules=rules,
            hands={s: rank_cards(c) for s, c in board.hands.items()},
            bottom=rank_cards(board.bottom),
            first_bidder=board.first_bidder,
            seed=f"{seed}:{board.number}:{variant}",
            record_id="",
        )
    return dict(played, id=entry_steps.table_record_id(table, board))


def _client(work: list[tuple[int, int, dict[str, Any]]], out: Any, start: Any) -> None:
    """One client process: submit its share, report (game id, end of submission)."""
    connections.close_all()
    table_ids, board_ids = {w[0] for w in work}, {w[1] for w in work}
    tables = {t.pk: t for t in Table.objects.filter(pk__in=table_ids).select_related("round")}
    boards = {b.pk: b for b in Board.objects.filter(pk__in=board_ids).select_related("event")}
    start.wait()
    done = []
    for table_id, board_id, record in work:
        game = game_submit(
            table=tables[table_id], board=boards[board_id], record=record, source="api"
        )
        done.append((game.pk, time.time()))
    connections.close_all()
    out.put(done)


def _spread(values: list[float]) -> dict[str, float]:
    """p50, p95 and max of sorted `values`, in seconds to the millisecond."""
    return {
        "p50": round(statistics.median(values), 3),
        "p95": round(values[int(0.95 * (len(values) - 1))], 3),
        "max": round(values[-1], 3),
    }


def _poll_standings(
    event: Event, state_log: list[tuple[float, float]], stop: threading.Event
) -> None:
    """Log (read_at, stored_at) of each standings stored for `event`, until `stop` is set:
    a game's lag ends at the first standings read after its verification."""
    seen = None
    while not stop.is_set():
        row = StandingsState.objects.filter(pk=event.pk).values_list("read_at", "stored_at").first()
        if row and row[0] is not None and row[1] is not None and row != seen:
            seen = row
            state_log.append((row[0].timestamp(), row[1].timestamp()))
        time.sleep(0.02)
    connections.close_all()


def _submit(
    event: Event,
    work: list[Any],
    options: dict[str, Any],
    state_log: list[tuple[float, float]],
    stop: threading.Event,
) -> tuple[threading.Thread, int, list[tuple[int, float]], float]:
    """Submit `work` from the client processes, all released at once, while a thread polls the
    standings into `state_log` until `stop`. Returns that thread, the number of clients, each
    game's (id, end of submission) and the time of the release."""
    clients = max(1, options["clients"] if options["burst"] else 1)
    shares = [work[i::clients] for i in range(clients)]
    ctx = multiprocessing.get_context("fork")
    queue, start = ctx.Queue(), ctx.Event()
    # The forked clients must not share this process's database connections.
    connections.close_all()
    procs = [ctx.Process(target=_client, args=(s, queue, start)) for s in shares if s]
    for p in procs:
        p.start()
    poller = threading.Thread(target=_poll_standings, args=(event, state_log, stop))
    poller.start()
    time.sleep(1.0)
    began = time.time()
    start.set()
    submitted = [item for _ in procs for item in queue.get(timeout=options["timeout"])]
    for p in procs:
        p.join()
    return poller, len(procs), submitted, began


def _lags(
    submitted: list[tuple[int, float]],
    verified: dict[int, Any],
    state_log: list[tuple[float, float]],
) -> tuple[list[float], list[float]]:
    """Sorted, for each game: from the end of its submission to the storing of the first
    standings read after its verification (now, if none was), and to its verification."""
    lags, waits = [], []
    for game_id, at in submitted:
        v = verified[game_id].timestamp()
        stored = min((s for r, s in state_log if r >= v), default=None)
        lags.append((stored if stored is not None else time.time()) - at)
        waits.append(v - at)
    lags.sort()
    waits.sort()
    return lags, waits


def _drain_measures(
    workers: int, times: list[float], state_log: list[tuple[float, float]], started: float
) -> dict[str, Any]:
    """The drain's measures. The workers were launched once every game was queued: the times
    after `started` include their start; the rate runs from the first game verified to the
    last."""
    return {
        "workers": workers,
        "verified_after_s": round(times[-1] - started, 3),
        "verification_games_per_s": round((len(times) - 1) / max(times[-1] - times[0], 1e-9), 1),
        "ranked_after_s": round(max(s for _, s in state_log) - started, 3),
    }


class Command(BaseCommand):
    help = "Simulate an event through the services and measure a burst of results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--boards", type=int, required=True)
        parser.add_argument("--burst", action="store_true")
        parser.add_argument("--workers", type=int, default=1)
        parser.add_argument("--clients", type=int, default=4)
        parser.add_argument("--seed", default="ddz-simulate")
        parser.add_argument("--timeout", type=float, default=600.0)
        parser.add_argument(
            "--drain",
            action="store_true",
            help="submit the whole burst with no worker running, then start the workers: "
            "their own verification rate (the drain), not bounded by the clients",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds_n, boards_n = options["players"], options["rounds"], options["boards"]
        if players < 3 or players % 3 or rounds_n < 1 or boards_n < 1:
            raise CommandError("--players is a multiple of 3; --rounds and --boards at least 1")
        if settings.CELERY_TASK_ALWAYS_EAGER and options["workers"]:
            raise CommandError("the burst needs CELERY_BROKER_URL and workers (not eager mode)")
        seed = options["seed"]
        event, td = self._build(players, rounds_n, boards_n, seed)
        last = event.rounds.get(number=rounds_n)
        rules = rounds.rules_of(event)
        if last.state == RoundState.DRAFT or last.state == RoundState.SEATED:
            rounds.round_deal(round_=last, boards=boards_n, actor=td)
            round_states.round_start(round_=last, actor=td)
        Game.objects.filter(board__round=last).delete()  # a rerun plays the last round again
        standings_recompute(event_id=event.pk)
        # A message an interrupted run left unsent is the sweep's (beat) to find; none runs here.
        StandingsState.objects.filter(pk=event.pk).update(queued=False)
        state = StandingsState.objects.filter(pk=event.pk).values_list("runs", flat=True)
        runs_before = state.first() or 0  # none yet: the event's first round is the burst
        self._vacuum()
        tables = list(Table.objects.filter(round=last).order_by("number"))
        work = [
            (t.pk, b.pk, _record(rules, b, t, seed))
            for b in last.boards.order_by("number")
            for t in tables
        ]
        out = self._burst(event, work, options, runs_before)
        out.update(players=players, rounds=rounds_n, boards=boards_n)
        self.stdout.write(json.dumps(out))

    def _build(self, players: int, rounds_n: int, boards_n: int, seed: str) -> tuple[Event, Any]:
        name = f"Simulated {players}x{rounds_n}x{boards_n} {seed}"
        event = Event.objects.filter(name=name).first()
        played = RoundState.PUBLISHED
        if (
            event is not None
            and event.rounds.filter(number=rounds_n).exists()
            and not event.rounds.filter(number__lt=rounds_n).exclude(state=played).exists()
        ):
            return event, demo_organizer_ensure(event=event)
        if event is not None:  # a build that did not finish: start again
            Game.objects.filter(board__event=event).delete()
            event.rounds.all().delete()
            event.stages.all().delete()
            event.delete()
        self.stderr.write(f"building {name} …")
        event = event_create(name=name, rules="classic")
        td = demo_organizer_ensure(event=event)
        for first in range(0, players, players_csv.MAX_ROWS):  # a file holds MAX_ROWS players
            names = range(first, min(players, first + players_csv.MAX_ROWS))
            roster = "name\n" + "".join(f"Sim {seed} {i:05d}\n" for i in names)
            players_csv.players_csv_import(event=event, text=roster, actor=td)
        stage = stages.stage_create(event=event, actor=td, name="Qualifying")
        for _r in range(rounds_n):
            rounds.round_create(event=event, stage=stage, actor=td)
        stages.stage_seat(stage=stage, actor=td, seed=seed, steps=2000)
        rounds.event_seed_commit(
            event=event, actor=td, seed=hashlib.sha256(f"ddz-sim:{seed}".encode()).hexdigest()
        )
        rules = rounds.rules_of(event)
        for round_ in event.rounds.filter(number__lt=rounds_n).order_by("number"):
            boards = rounds.round_deal(round_=round_, boards=boards_n, actor=td)
            round_states.round_start(round_=round_, actor=td)
            ids = []
            for board in boards:
                for table in Table.objects.filter(round=round_).order_by("number"):
                    record = _record(rules, board, table, seed)
                    ids.append(game_submit(table=table, board=board, record=record).pk)
            for i in range(0, len(ids), VERIFY_BATCH):
                games_verify(game_ids=ids[i : i + VERIFY_BATCH])
            _verified_all(ids)
            round_states.round_close(round_=round_, actor=td)
            round_states.round_publish(round_=round_, actor=td)
            self.stderr.write(f"round {round_.number} played: {len(ids)} games")
        standings_recompute(event_id=event.pk)
        return event, td

    def _burst(
        self, event: Event, work: list[Any], options: dict[str, Any], runs_before: int
    ) -> dict[str, Any]:
        drain = options["drain"]
        workers = [] if drain else self._start_workers(options["workers"])
        workers_started = 0.0
        state_log: list[tuple[float, float]] = []
        stop = threading.Event()
        floors = _floors(event, work) if workers else {}
        try:
            poller, clients, submitted, began = _submit(event, work, options, state_log, stop)
            ended = max(t for _, t in submitted)
            games = Game.objects.filter(pk__in=[g for g, _ in submitted])
            if drain:
                workers_started = time.time()
                workers = self._start_workers(options["workers"])
            deadline = time.monotonic() + options["timeout"]
            while games.filter(status=Status.PENDING).exists() or not self._settled(event):
                if time.monotonic() > deadline:
                    raise CommandError("the burst was not verified and ranked in time")
                time.sleep(0.05)
            time.sleep(0.1)
        finally:
            stop.set()
            for w in workers:
                w.terminate()
            for w in workers:
                w.wait(30)
        poller.join()
        verified = {pk: at for pk, at in games.values_list("pk", "verified_at") if at is not None}
        lags, waits = _lags(submitted, verified, state_log)
        times = sorted(t.timestamp() for t in verified.values())
        state = StandingsState.objects.get(pk=event.pk)
        out: dict[str, Any] = {
            "games": len(submitted),
            "workers": options["workers"],
            "clients": clients,
            "submissions_per_s": round(len(submitted) / max(ended - began, 1e-9), 1),
            "verification_games_per_s": round(len(times) / max(times[-1] - began, 1e-9), 1),
            "lag_s": _spread(lags),
            "verified_after_s": _spread(waits),
            "last_in_standings_after_last_submission_s": round(
                max(s for _, s in state_log) - ended, 3
            )
            if state_log
            else None,
            "recomputes": state.runs - runs_before,  # this run's (the counter is the event's)
            "floors": floors,
        }
        if drain:
            out["drain"] = _drain_measures(options["workers"], times, state_log, workers_started)
        return out

    def _vacuum(self) -> None:
        """VACUUM ANALYZE the tables a burst reads and writes, before it (PostgreSQL): each run
        deletes the last round's games and plays it again, and the standings are rewritten
        at every recompute, so without autovacuum (PostgreSQL's default is on; some CI
        configurations turn it off) dead rows pile up from run to run, and a run would
        measure them."""
        if connection.vendor != "postgresql":
            return
        tables = [Game, Standing, StandingsState, Board, Table]
        with connection.cursor() as cursor:
            for model in tables:
                cursor.execute(f"VACUUM ANALYZE {connection.ops.quote_name(model._meta.db_table)}")

    def _settled(self, event: Event) -> bool:
        state = StandingsState.objects.filter(pk=event.pk).first()
        return state is not None and state.done >= state.requested and not state.queued

    def _start_workers(self, n: int) -> list[subprocess.Popen[bytes]]:
        if n <= 0:
            return []
        # The workers serve the site's queue (CELERY_TASK_DEFAULT_QUEUE): run the command on
        # a queue of its own when other workers serve the default one.
        queue = settings.CELERY_TASK_DEFAULT_QUEUE
        env = dict(os.environ)
        # Workers keep their database connection between tasks, as the README has them run
        # (with 0, Django opens one per task, and a run would measure the connecting).
        env.setdefault("DATABASE_CONN_MAX_AGE", "600")
        procs = []
        for i in range(n):
            name = f"ddz-sim-{uuid.uuid4().hex[:8]}-{i}@localhost"
            procs.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "ddz_site",
                        "worker",
                        "--pool=solo",
                        "--loglevel=WARNING",
                        "--without-gossip",
                        "--without-mingle",
                        "-Q",
                        queue,
                        "-n",
                        name,
                    ],
                    cwd=settings.BASE_DIR,
                    env=env,
                )
            )
            deadline = time.monotonic() + 60
            while not app.control.ping(destination=[name], timeout=0.5):
                if time.monotonic() > deadline:
                    raise CommandError("a Celery worker did not start")
        return procs


def _floors(event: Event, work: list[Any]) -> dict[str, float]:
    """What the machine cannot do faster, measured before the burst (medians): a commit of a
    one-row write (ms), a round trip to a worker through the broker (Celery's control ping,
    the cost of an empty task's message, ms), and the engine's replay of one of the burst's
    records (µs)."""
    commits = []
    for _ in range(50):
        started = time.perf_counter()
        with transaction.atomic():
            StandingsState.objects.filter(pk=event.pk).update(runs=F("runs"))
        commits.append((time.perf_counter() - started) * 1000)
    pings = []
    for _ in range(20):
        started = time.perf_counter()
        if app.control.ping(limit=1, timeout=2.0):
            pings.append((time.perf_counter() - started) * 1000)
    replays = []
    for _table, _board, record in work[:300]:
        started = time.perf_counter()
        replay(record)
        replays.append((time.perf_counter() - started) * 1e6)
    return {
        "commit_ms": round(statistics.median(commits), 2),
        "worker_round_trip_ms": round(statistics.median(pings), 2) if pings else -1.0,
        "replay_us": round(statistics.median(replays), 1),
    }


def _verified_all(ids: list[int]) -> None:
    """Every game of `ids` verified before the round closes: one that a worker took with its
    batch meanwhile (a verification skips a game another holds) is waited for, by its row's
    lock, then verified here if it is still pending."""
    pending = Game.objects.filter(pk__in=ids, status=Status.PENDING).order_by()
    left = list(pending.values_list("pk", flat=True))
    if left:
        with transaction.atomic():
            # The games' rows alone (no join): a worker's batch holds exactly those.
            list(Game.objects.filter(pk__in=left).order_by().select_for_update().values_list("pk"))
        games_verify(game_ids=left)
