"""The entrants of scripts/bench_online.py: made in bulk in its database with their online event
(`build_event`), then playing as asyncio clients of the site's real doors (`play`), each an
entrant's browser at one Daphne server.

For each of his boards in order, as his browser does: GET his page of the online event (its
CSRF token), POST "Play board n" (302 to the board's device page), GET the device page, open the
board's WebSocket and, while the game is on, send his step over the socket (the device page's
way while its socket is open; over HTTP, as the page does, when it did not open or dropped) and
wait for the answer, which holds the position after the robots' steps: his turn again or the
game over. His step is the live tables' bench's: the first play, else the first call that is
not a pass, else the menu's first button (a pass). Every latency is in milliseconds.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import json
import re
import sys
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from bench_live_tables import choose, http

MOVE_SECONDS = 90  # the event's time for a move (the demo's)
STEP_TIMEOUT_S = 60.0  # no answer by then: the step counts as lost
RAMP_S = 10.0  # the entrants of the first slots arrive over this many seconds at most
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def build_event(entrants: int, boards: int, strength: str) -> tuple[int, str, list[str]]:
    """The online event, its window open, its boards dealt, `entrants` accounts entered and
    signed in: (its id, its slug, their session keys in entrant order)."""
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.utils import timezone

    from tournaments.events import rounds
    from tournaments.events.setup import event_create
    from tournaments.models import EventRole, Role
    from tournaments.online.window import online_boards_deal, online_play_set
    from tournaments.people import life

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    log(f"migrated in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    event = event_create(name="Bench online", rules="classic")
    organizer = get_user_model().objects.create_user("bench-organizer")
    EventRole.objects.create(event=event, user=organizer, role=Role.ORGANIZER)
    now = timezone.now()
    life.event_place_set(
        event=event,
        actor=organizer,
        starts_at=now - timedelta(hours=1),
        ends_at=now + timedelta(days=1),
        time_zone="UTC",
        online=True,
    )
    online_play_set(
        event=event, actor=organizer, robots=True, strength=strength, move_seconds=MOVE_SECONDS
    )
    seed = hashlib.sha256(b"bench-online").hexdigest()
    rounds.event_seed_commit(event=event, actor=organizer, seed=seed)
    online_boards_deal(event=event, boards=boards, actor=organizer)
    sessions = make_entrants(event, entrants)
    log(f"built {entrants:,} entrants x {boards} boards in {time.perf_counter() - started:.1f} s")
    return event.pk, event.slug, sessions


def make_entrants(event: Any, n: int) -> list[str]:
    """`n` accounts, their players entered in `event` and a signed-in session each, in bulk;
    the session keys."""
    from datetime import timedelta
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from tournaments.models import Entry, Player

    user_model = get_user_model()
    password = UNUSABLE_PASSWORD_PREFIX + "bench-online"
    users = user_model.objects.bulk_create(
        (user_model(username=f"bench-{i:06d}", password=password) for i in range(n)),
        batch_size=2000,
    )
    players = Player.objects.bulk_create(
        (Player(name=f"Bench entrant {i:06d}", user=u) for i, u in enumerate(users)),
        batch_size=2000,
    )
    Entry.objects.bulk_create((Entry(event=event, player=p) for p in players), batch_size=2000)
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    backend = settings.AUTHENTICATION_BACKENDS[-1]
    expires = timezone.now() + timedelta(days=2)
    keys, rows = [], []
    for user in users:
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        keys.append(key)
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
    Session.objects.bulk_create(rows, batch_size=2000)
    return keys


@dataclass
class Entrant:
    number: int
    session: str
    port: int
    csrf: str = ""
    started: int = 0
    finished: int = 0

    def cookie(self) -> str:
        return f"sessionid={self.session}" + (f"; csrftoken={self.csrf}" if self.csrf else "")


@dataclass
class Run:
    """The play's shared state and tallies (latencies in ms)."""

    slug: str
    boards: int
    stop_at: float
    think: float = 0.0  # an entrant's time to choose his step, before he sends it
    latencies: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    entrant_moves: int = 0
    robot_moves: int = 0
    # Over the boards finished: the entrant's moves and the robots' (for the extrapolation).
    board_moves: list[tuple[int, int]] = field(default_factory=list)
    conflicts: int = 0
    lost: int = 0
    refused: int = 0
    # The doors the steps went through, and the sockets that did not open or dropped.
    over: collections.Counter[str] = field(default_factory=collections.Counter)
    socket_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    errors: list[str] = field(default_factory=list)
    entered: list[Entrant] = field(default_factory=list)

    @property
    def stopping(self) -> bool:
        return time.perf_counter() >= self.stop_at

    def fail(self, who: Entrant, message: str) -> None:
        self.errors.append(f"entrant {who.number}: {message}")


_IDS = iter(range(1, 1 << 62))
DEVICE_VIEW = re.compile(r'<script id="device-view" type="application/json">(.*?)</script>', re.S)


class Socket:
    """One board's WebSocket of an entrant's device: its last position and the answers to the
    steps sent over it."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.latest: dict[str, Any] | None = None
        self.refusal: dict[str, Any] | None = None
        self.ready = asyncio.Event()
        self.answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "step":
                    waiting = self.answers.pop(int(message.get("id") or 0), None)
                    if waiting is not None and not waiting.done():
                        waiting.set_result(message)
                elif kind == "position":
                    self.latest = message["view"]
                else:
                    self.refusal = message
                self.ready.set()
        except Exception as exc:  # noqa: BLE001 - a dropped socket: its steps go over HTTP
            self.refusal = {"type": "dropped", "error": repr(exc)}
        finally:
            self.ready.set()
            for waiting in self.answers.values():
                if not waiting.done():
                    waiting.set_exception(ConnectionError(f"socket closed: {self.refusal}"))

    async def step(self, step: str, at: int) -> dict[str, Any]:
        number = next(_IDS)
        waiting = asyncio.get_running_loop().create_future()
        self.answers[number] = waiting
        await self.ws.send(json.dumps({"type": "step", "id": number, "step": step, "at": at}))
        return await asyncio.wait_for(waiting, STEP_TIMEOUT_S)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


async def request(
    who: Entrant, method: str, path: str, body: bytes = b"", kind: str = "form"
) -> tuple[int, dict[str, list[str]], bytes]:
    """One request of the entrant's browser: his cookies sent, a new CSRF cookie kept; a POST
    of a form, or of JSON with the CSRF header as the device page's script sends it."""
    headers = {"Cookie": who.cookie(), "User-Agent": "bench-online"}
    if method == "POST" and kind == "form":
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif method == "POST":
        headers.update({"Content-Type": "application/json", "X-CSRFToken": who.csrf})
    status, found, data = await http(who.port, method, path, headers, body)
    for cookie in found.get("set-cookie", []):
        name, _eq, rest = cookie.partition("=")
        if name.strip() == "csrftoken":
            who.csrf = rest.split(";")[0]
    return status, found, data


class Device:
    """An entrant's device page at one board (tournaments/static/tournaments/device.js): its
    steps over the board's socket while it is open, else over HTTP (a socket that did not open
    or dropped is not opened again on this board)."""

    def __init__(self, run: Run, who: Entrant, path: str) -> None:
        self.run, self.who, self.path = run, who, path
        self.socket: Socket | None = None

    async def open(self, page: dict[str, Any]) -> dict[str, Any]:
        """Open the board's socket; its first position, else the page's own (`page`)."""
        from websockets.asyncio.client import connect
        from websockets.typing import Origin

        port = self.who.port
        try:
            ws = await connect(
                f"ws://127.0.0.1:{port}/ws{self.path}",
                origin=Origin(f"http://127.0.0.1:{port}"),
                additional_headers={"Cookie": self.who.cookie()},
                user_agent_header="bench-online",
                compression=None,
                open_timeout=STEP_TIMEOUT_S,
                max_queue=None,
            )
        except Exception as exc:  # noqa: BLE001 - refused or dropped in its handshake: HTTP
            self.run.over["socket not opened"] += 1
            self.run.socket_errors[f"{type(exc).__name__}: {exc}"[:120]] += 1
            return page
        self.socket = Socket(ws)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.socket.ready.wait(), STEP_TIMEOUT_S)
        if self.socket.latest is None:
            self.run.over["socket not opened"] += 1
            await self.close()
            return page
        return self.socket.latest

    async def step(self, step: str, at: int) -> dict[str, Any]:
        """The answer to a step, in the socket's shape (``ok``, ``conflict``, ``error``,
        ``view``); over HTTP after a dropped socket when the table did not take it."""
        if self.socket is not None:
            try:
                answer = await self.socket.step(step, at)
                self.run.over["socket"] += 1
                return answer
            except ConnectionError:
                self.run.over["socket dropped"] += 1
                await self.close()
                status, _h, body = await request(self.who, "GET", self.path + "position/")
                view = json.loads(body).get("view") if status == 200 else None
                if view is not None and int(view["at"]) > at:
                    return {"ok": True, "view": view}
        self.run.over["HTTP"] += 1
        body = json.dumps({"step": step, "at": at}).encode()
        status, _h, raw = await request(self.who, "POST", self.path + "steps/", body, "json")
        answer = json.loads(raw) if raw.startswith(b"{") else {"error": raw[:200]}
        if status != 200:
            answer.update(ok=False, conflict=status == 409, status=status)
        return dict(answer)

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
            self.socket = None


async def board_open(run: Run, who: Entrant, number: int) -> tuple[Device, dict[str, Any]] | None:
    """Start board `number` as his page does, load its device page and open its socket: the
    device and his first position (None after an error, recorded)."""
    home = f"/events/{run.slug}/online/"
    status, _h, body = await request(who, "GET", home)
    token = CSRF_FIELD.search(body.decode("utf-8", "replace"))
    if status != 200 or token is None:
        run.fail(who, f"his page: {status} {body[:200]!r}")
        return None
    sent = time.perf_counter()
    form = urllib.parse.urlencode({"csrfmiddlewaretoken": token.group(1)}).encode()
    status, found, body = await request(who, "POST", f"{home}boards/{number}/start/", form)
    path = (found.get("location") or [""])[0]
    if status != 302 or not path.endswith(f"/online/boards/{number}/"):
        run.fail(who, f"Play board {number}: {status} to {path!r} {body[:200]!r}")
        return None
    status, _h, body = await request(who, "GET", path)
    page = DEVICE_VIEW.search(body.decode("utf-8", "replace"))
    if status != 200 or page is None:
        run.fail(who, f"device page {number}: {status} {body[:200]!r}")
        return None
    device = Device(run, who, path)
    view = await device.open(json.loads(page.group(1)))
    run.starts.append((time.perf_counter() - sent) * 1000)
    return device, view


async def move(run: Run, who: Entrant, device: Device, view: dict[str, Any]) -> Any:
    """His step on `view`; the position it answers (None after an error, recorded)."""
    if view.get("to_move") != view.get("seat") or not view.get("menu"):
        run.fail(who, f"not his turn at {view.get('at')}, no game: {view.get('to_move')}")
        return None
    at = int(view["at"])
    if run.think:
        await asyncio.sleep(run.think)
    sent = time.perf_counter()
    try:
        answer = await device.step(choose(view), at)
    except TimeoutError as exc:
        run.lost += 1
        run.fail(who, f"step at {at} not answered: {exc!r}")
        return None
    run.latencies.append((time.perf_counter() - sent) * 1000)
    after = answer.get("view")
    if answer.get("conflict"):
        run.conflicts += 1
        run.fail(who, f"conflict at {at}: {answer.get('error')}")
        return None
    if not answer.get("ok") or not after:
        run.refused += 1
        run.fail(who, f"step at {at} refused: {answer.get('status')} {answer.get('error')}")
        return None
    run.entrant_moves += 1
    run.robot_moves += int(after["at"]) - at - 1
    return after


async def board_play(run: Run, who: Entrant, number: int) -> bool:
    """His play of board `number` to its end (True), or until the play stops or fails."""
    opened = await board_open(run, who, number)
    if opened is None:
        return False
    device, view = opened
    who.started += 1
    first, mine = int(view["at"]), 0
    run.robot_moves += first  # the robots' steps before his first turn
    try:
        while view.get("game") is None:
            if run.stopping:
                return False
            view = await move(run, who, device, view)
            if view is None:
                return False
            mine += 1
    finally:
        await device.close()
    who.finished += 1
    run.board_moves.append((mine, int(view["at"]) - mine))
    return True


async def entrant_play(run: Run, who: Entrant) -> None:
    """His boards in order, until they are done, the play stops or one fails (recorded)."""
    try:
        for number in range(1, run.boards + 1):
            if run.stopping or not await board_play(run, who, number):
                return
    except (OSError, TimeoutError, ValueError) as exc:  # a door that did not answer
        run.fail(who, f"after {who.finished} boards: {exc!r}")


async def play(run: Run, entrants: list[Entrant], concurrent: int) -> None:
    """`concurrent` slots, each playing its entrant's boards, then the next entrant's; the
    slots start one after another over RAMP_S seconds at most."""
    queue = collections.deque(entrants)

    async def slot(delay: float) -> None:
        await asyncio.sleep(delay)
        while queue and not run.stopping:
            who = queue.popleft()
            run.entered.append(who)
            await entrant_play(run, who)

    async def progress() -> None:
        began = time.perf_counter()
        while True:
            await asyncio.sleep(10)
            wall = time.perf_counter() - began
            done = sum(w.finished for w in run.entered)
            log(
                f"{wall:.0f} s: {run.entrant_moves:,} entrant moves ({run.entrant_moves / wall:.1f}"
                f"/s), {run.robot_moves:,} robot moves, {done:,} boards finished, "
                f"{len(run.entered):,} entrants, p95 {pct(run.latencies, 0.95):.0f} ms, "
                f"{len(run.errors)} errors, {dict(run.over)}"
            )

    ramp = min(RAMP_S, 0.05 * concurrent)
    slots = [asyncio.create_task(slot(ramp * i / concurrent)) for i in range(concurrent)]
    reporter = asyncio.create_task(progress())
    try:
        await asyncio.gather(*slots)
    finally:
        reporter.cancel()
        for task in slots:
            task.cancel()
