"""The live table's devices over HTTP: the page of a seat (or of the table's referee device), its
position, its steps and its undo; the WebSocket consumer (tournaments.web.live_socket) pushes
the same position on every change, and these doors are the fallback a device polls.

Five doors open a device (tournaments.links.devices): ``seat`` (``/s/TOKEN/``), ``table``
(the referee device, ``/t/TOKEN/boards/N/device/``), ``player`` (a player's own link at her
seat, ``/p/TOKEN/rounds/R/boards/N/``), ``referee`` (the referee device of a signed-in
referee, ``/referee/events/SLUG/tables/ID/boards/N/device/``) and ``online`` (a signed-in
entrant's seat at his play of a board of an online event, ``/events/SLUG/online/boards/N/``,
tournaments.online.play.entrant_device: the robots answer each of his steps). At an online
table still waiting for entrants (tournaments.online.tables) the ``online`` device shows no card:
its page is the waiting page (who has joined, the seconds before robots fill the free seats),
and its position door answers ``{"waiting": {"seats": [{"seat", "name"}], "seconds"}}`` until
the table is full. Every answer is private (never cached nor indexed) and a refusal is the
link's refusal page (the ``online`` page's 404, a board the event does not have or the entrant
has not started, its own: people/online_not_found.html), or the API's error shape for a JSON
door.

JSON doors:

- ``GET …/position/``: ``{"view": …}`` (games.live.seat.seat_view with ``game``, ``next``,
  ``left``: at an online table, the step from which the robot plays this seat, else null,
  ``move_seconds_left``: at a board of an online event in play, the whole seconds left for the
  seat to move before the robot plays (seconds, not a time: the device's clock may differ;
  the device asks for the position again once they ran out, which has the robot play), else
  null,
  ``taken_over``: the seats of the table the robot took over, `device_taken_over`, and
  ``result_line``: who won and the verdict, `result_line`), or ``{"waiting": …}`` at an online
  table still waiting (above).
- ``POST …/steps/`` ``{"step": "33", "at": 7}``: 200 ``{"ok": true, "view"}``; 200
  ``{"ok": false, "error", "view"}`` when the engine refuses the step (nothing stored); 409
  ``{"error", "view"}`` when another device moved first or it is not this seat's turn.
- ``POST …/undo/`` ``{"at": 7}``: 200 ``{"view"}``, or 409 as above.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ddz_site.api import request_json
from ddz_site.kernel.errors import DomainError
from ddz_site.kernel.text import text_refusal
from ddz_site.web.middleware import api_error, method_not_allowed
from games.messages import call_label, status_label
from games.models import Board
from tournaments.core.lineups import table_players
from tournaments.core.rules import rules_of
from tournaments.links import checks, devices
from tournaments.links.devices import Device, DeviceRefused
from tournaments.models import AuditEntry, Event, Seat
from tournaments.online import play as online_play
from tournaments.online import tables as online_tables
from tournaments.online.window import is_online_duplicate, is_online_tables
from tournaments.tables import live, selectors
from tournaments.web.links import keep_private

MAX_STEP_CHARS = 60
# The calls a device writes in words (games.messages.call_label); a bid and a pass have their own.
NAMED_CALLS = ("call", "rob", "double", "redouble", "show", "surrender", "reveal")
# The audited take-overs of an online table (tournaments.online.tables._take_over).
TAKE_OVER_ACTIONS = ("online.table_leave", "online.robot_takeover")


def _private(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return keep_private(view(request, *args, **kwargs))

    return answer


def open_device(kind: str, kwargs: dict[str, Any], *, user: Any, ua: str) -> Device:
    """The device of `kind` (``seat``, ``table``, ``player``, ``referee``, ``online``) that the
    address's `kwargs` open, for `user` (the signed-in referee device, the online entrant) from
    the device `ua`.

    Raises:
        DeviceRefused: tournaments.links.devices's refusals, and the online entrant's
            (tournaments.online.play.entrant_device).
    """
    if kind == "online":
        return online_play.entrant_device(user, kwargs["slug"], kwargs["number"], device=ua)
    if kind == "referee":
        return devices.signed_in_device(user, kwargs["slug"], kwargs["table_id"], kwargs["number"])
    if kind == "seat":
        return devices.seat_device(kwargs["token"], kwargs["number"], device=ua)
    if kind == "table":
        return devices.referee_device(kwargs["token"], kwargs["number"], device=ua)
    return devices.player_device(kwargs["token"], kwargs["round"], kwargs["number"], device=ua)


def _open(request: HttpRequest, kind: str, kwargs: dict[str, Any]) -> Device:
    ua = request.headers.get("User-Agent", "")
    return open_device(kind, kwargs, user=request.user, ua=ua)


# The URL names of each kind's doors: "<prefix>_board", "<prefix>_position", … .
URL_PREFIX = {
    "seat": "links:seat",
    "table": "links:table",
    "player": "links:player",
    "referee": "referee:device",
    "online": "online:device",
}


def _url(kind: str, what: str, kwargs: dict[str, Any], number: int | None = None) -> str:
    args = {**kwargs, "number": number if number is not None else kwargs["number"]}
    return reverse(f"{URL_PREFIX[kind]}_{what}", kwargs=args)


def device_waiting(device: Device) -> online_tables.Waiting | None:
    """The waiting of `device`'s online table, filled by robots first when its wait is over
    (tournaments.online.tables.waiting_at); None at any table that does not wait (any other
    kind of table)."""
    if not is_online_tables(device.board.event):
        return None
    return online_tables.waiting_at(table=device.table, board=device.board)


def device_left(device: Device) -> int | None:
    """At an online table, the step from which the robot plays `device`'s seat (its entrant
    left, or let a move's time run out); None while he plays it, or at any other table."""
    if not is_online_tables(device.board.event):
        return None
    return online_tables.seat_left_at(device.table, device.seat)


def device_taken_over(device: Device) -> list[dict[str, Any]]:
    """At an online table, every seat the robot took over from its entrant (he left, let a
    move's time run out, or the window closed: tournaments.online.tables), in the rules' seat
    order: ``{"seat", "name", "from", "why", "text", "mark"}``, ``from`` the step the robot
    plays from (``Seat.robot_from``), ``why`` ``"left"``, ``"timeout"`` or ``"close"``,
    ``text`` the sentence the table reads and ``mark`` the seat's note, both in the active
    language. [] at any other table. Two queries at most."""
    event = device.board.event
    if not is_online_tables(event):
        return []
    seats = {
        s.seat: s
        for s in Seat.objects.filter(
            table=device.table, robot_from__isnull=False, player__robot=False
        ).select_related("player")
    }
    if not seats:
        return []
    # Why is only in the take-over's audit entry; the newest of a seat says it.
    whys: dict[str, str] = {}
    entries = AuditEntry.objects.filter(
        event=event,
        action__in=TAKE_OVER_ACTIONS,
        object_type="table",
        object_id=str(device.table.pk),
    ).values_list("changes", flat=True)
    for changes in entries:
        if isinstance(changes, dict) and "robot_from" in changes:
            whys.setdefault(str(changes.get("seat")), str(changes.get("why") or ""))
    told = []
    for name in rules_of(event).seats:
        seat = seats.get(name)
        if seat is None or seat.robot_from is None:
            continue
        why = whys.get(name, "")
        told.append(
            {
                "seat": name,
                "name": seat.player.shown_name,
                "from": seat.robot_from,
                "why": why,
                "text": _take_over_text(why, seat.player.shown_name, seat.robot_from + 1),
                "mark": _("played by the robot from move %(n)s") % {"n": seat.robot_from + 1},
            }
        )
    return told


def _take_over_text(why: str, name: str, move: int) -> str:
    params = {"name": name, "n": move}
    if why == "left":
        return _("%(name)s left: the robot plays that seat from move %(n)s.") % params
    if why == "timeout":
        return _("%(name)s ran out of time: the robot plays that seat from move %(n)s.") % params
    return _("The robot plays the seat of %(name)s from move %(n)s.") % params


def result_line(view: dict[str, Any]) -> str:
    """The line a device shows once its board is over, in the active language: who won, then
    the engine's verdict said once (the stored game's status once it is recorded, else the
    live replay's), then why the game is not verified; "" while the board is in play."""
    result, game = view.get("result"), view.get("game")
    if not result and not game:
        return ""
    parts = []
    if result:
        winner = result.get("winner")
        if winner == "landlord":
            parts.append(_("The landlord wins"))
        elif winner == "farmers":
            parts.append(_("The farmers win"))
        elif result.get("status") == "verified" and result.get("landlord") is None:
            parts.append(_("Passed out"))
    if game:
        status = status_label(str(game.get("status")))
        parts.append(_("Recorded: game %(id)s, %(status)s.") % {"id": game["id"], "status": status})
    elif result:
        parts.append(str(result.get("status_label") or status_label(str(result.get("status")))))
    if result and result.get("undecided"):
        parts.append(_("The claim could not be decided here: the referees will check it."))
    elif result and result.get("text"):
        parts.append(str(result["text"]))
    return " · ".join(parts)


def device_view(
    device: Device,
    state: live.LiveState,
    *,
    left: int | None = None,
    taken_over: list[dict[str, Any]] | None = None,
    seconds_left: int | None | Literal["read"] = "read",
    robot_moves: tuple[int | None, str] | None = None,
) -> dict[str, Any]:
    """The JSON view of `state` for `device` (games.live.seat.seat_view, with ``game`` and, once
    the board is recorded, ``next``: the next board to play or null), ``left`` (`device_left`:
    the robot plays this seat from that step on; no move menu then), ``taken_over``
    (`device_taken_over`, read from the database when `taken_over` is None),
    ``move_seconds_left`` (`device_seconds_left`, read from the database unless
    `seconds_left` is given), ``robot_moves`` and ``robot_moves_text`` (`_robot_moves`, read
    unless `robot_moves` is given) and ``result_line`` (`result_line`)."""
    view = state.view(device.seat)
    view["move_seconds_left"] = (
        device_seconds_left(device, state) if seconds_left == "read" else seconds_left
    )
    view["robot_moves"], view["robot_moves_text"] = robot_moves or _robot_moves(device)
    view["left"] = left
    if left is not None:
        view["menu"] = None  # the robot plays this seat: nothing for its entrant to choose
    view["taken_over"] = device_taken_over(device) if taken_over is None else taken_over
    view["board"] = device.board.number
    view["table"] = device.table.number
    view["next"] = (
        selectors.next_board_to_enter(device.table, device.board.number)
        if state.game is not None
        else None
    )
    view["claim"] = checks.claim_view(game=state.game, seat=device.seat, seats=device.board.hands)
    view["result_line"] = result_line(view)
    return view


def _robot_moves(device: Device) -> tuple[int | None, str]:
    """Against robots (an online event without tables), how many of the entrant's moves the
    robot played, their time run out (tournaments.online.play.robot_moves_at), and the
    sentence saying so ("" for none); (None, "") at any other board. One query."""
    event = device.board.event
    if not is_online_duplicate(event) or is_online_tables(event):
        return None, ""
    n = online_play.robot_moves_at(device.table)
    if not n:
        return n, ""
    return n, _("The robot played %(n)d of your moves: your time to move ran out.") % {"n": n}


def device_seconds_left(device: Device, state: live.LiveState) -> int | None:
    """At a board of an online event still in play, the whole seconds left for the seat to
    move before the robot plays its move (tournaments.online.play.move_seconds_left: 0 once
    overdue; the device asks for the position then, which has it played); None at any other
    board, once the board is over, or when no move is timed. One query at most."""
    if not is_online_duplicate(device.board.event):
        return None
    if state.game is not None or state.position.to_move is None:
        return None
    return online_play.move_seconds_left(table=device.table, board=device.board)


def device_texts() -> dict[str, Any]:
    """The device page's sentences in the reader's language (its script has none of its own),
    and ``calls``: each call it writes in words (NAMED_CALLS), as games.messages says it."""
    return {
        "turnYou": _("Your turn"),
        "turnOf": _("Waiting for %(seat)s"),
        "actFor": _("Acting for %(seat)s"),
        "toBeat": _("To beat: %(cards)s by %(seat)s"),
        "lead": _("%(seat)s leads"),
        "bidding": _("Bidding"),
        "pass": _("pass"),
        "landlord": _("landlord"),
        "sending": _("Checking your step…"),
        "busy": _("Wait: your last tap is still being checked."),
        "offline": _("Offline: %(n)s step(s) kept on this device, sent when the network is back."),
        "live": _("Live"),
        "polling": _("Live by polling (no socket)"),
        "moved": _("Another device moved first: here is the table now."),
        "done": _("The game is over."),
        "undoAsked": _("%(seat)s asks to take back the last step."),
        "undoWaiting": _("You asked to take back the last step: another seat must agree."),
        "agree": _("Agree to take it back"),
        "yourHand": _("Your hand"),
        "handOf": _("Hand of %(seat)s"),
        "reading": _("Which play is it?"),
        "refused": _("This device is closed:"),
        "score": _("Score"),
        "bid": _("bid %(n)s"),
        # The jokers as the site writes them (BJ, RJ), in Chinese 小王 and 大王.
        "smallJoker": pgettext("the small (black) joker", "BJ"),
        "bigJoker": pgettext("the big (red) joker", "RJ"),
        "claimBy": _("%(seat)s claimed the rest."),
        "accept": _("Accept the claim"),
        "dispute": _("Dispute it"),
        "accepted": _("You accepted the claim."),
        "disputed": _("You disputed the claim: the chief referee will rule."),
        "claimYours": _("You claimed the rest: the other seats accept or dispute it."),
        "claimAnswer": _("%(seat)s: %(answer)s"),
        "answerAccepted": _("accepted"),
        "answerDisputed": _("disputed"),
        "answerWaiting": _("no answer yet"),
        "left": _("The robot plays your seat from move %(n)s on."),
        "leaveConfirm": _("Leave the table? The robot plays your seat to the end of the board."),
        # The move's countdown (online play), redrawn every second by the script.
        "clockYou": _("Your turn: %(n)s s"),
        "clockOf": _("%(seat)s to move: %(n)s s"),
        "calls": {call: call_label(call) for call in NAMED_CALLS},
    }


def _refused_json(exc: DeviceRefused) -> JsonResponse:
    return JsonResponse(api_error(exc.code, exc.message), status=exc.status)


def _refused_page(request: HttpRequest, exc: DeviceRefused) -> HttpResponse:
    return render(
        request,
        "links/refused.html",
        {
            "message": exc.message,
            "unknown": False,
            "heading": exc.heading or _("Not at this table"),
            "back": "",
        },
        status=exc.status,
    )


def _online_not_found(
    request: HttpRequest, kwargs: dict[str, Any], exc: DeviceRefused
) -> HttpResponse:
    """The online door's refusal (people/online_not_found.html, `exc`'s status): the event has
    no such board, the entrant has not started it, or he is no entrant (`exc`'s words), with
    the way to his page of the event; none of the private links' words (an online entrant
    holds no link)."""
    event = Event.objects.filter(slug=kwargs["slug"]).first()
    online = event is not None and is_online_duplicate(event)
    message = exc.message
    boards = Board.objects.filter(event=event, number=kwargs["number"], round__isnull=False)
    if exc.status == 404 and online and not boards.exists():
        message = _("This event has no board %(n)s.") % {"n": kwargs["number"]}
    return render(
        request,
        "people/online_not_found.html",
        {"message": message, "event": event if online else None},
        status=exc.status,
    )


@_private
def seat_home(request: HttpRequest, token: str) -> HttpResponse:
    """A seat link's own address (its QR code): the board its table plays now."""
    try:
        table, first = devices.seat_start(token)
    except DeviceRefused as exc:
        return _refused_page(request, exc)
    number = selectors.next_board_to_enter(table) or first.number
    return redirect("links:seat_board", token=token, number=number)


@_private
def board_page(request: HttpRequest, kind: str, **kwargs: Any) -> HttpResponse:
    """The device's page for one board: the seat's hand, the table, the buttons."""
    if kind in ("referee", "online") and not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        device = _open(request, kind, kwargs)
        waiting = device_waiting(device)
        if waiting is not None:
            return _waiting_page(request, kind, kwargs, device, waiting)
        state = online_play.live_state_now(table=device.table, board=device.board)
    except DeviceRefused as exc:
        if kind == "online":
            return _online_not_found(request, kwargs, exc)
        return _refused_page(request, exc)
    left = device_left(device)
    # Who plays this board at each seat: a substitute on her boards, not the seated player.
    seated = list(table_players(device.table, device.board.number).items())
    socket = _url(kind, "board", kwargs).lstrip("/")
    return render(
        request,
        "links/device.html",
        {
            "device": device,
            "kind": kind,
            "event": device.board.event,
            "seated": seated,
            "view": device_view(device, state, left=left),
            "at_tables": is_online_tables(device.board.event),
            "texts": device_texts(),
            "api": {
                "position": _url(kind, "position", kwargs),
                "steps": _url(kind, "steps", kwargs),
                "undo": _url(kind, "undo", kwargs),
                "claim": _url(kind, "claim", kwargs) if kind in ("seat", "player") else "",
                "socket": "/ws/" + socket,
                "board": _url(kind, "board", kwargs, 0).replace("/0/", "/{n}/"),
            },
        },
    )


def _waiting_page(
    request: HttpRequest,
    kind: str,
    kwargs: dict[str, Any],
    device: Device,
    waiting: online_tables.Waiting,
) -> HttpResponse:
    """The page of an online table still waiting for entrants: who has joined, the seconds
    before robots fill the free seats, kept live over the table's socket (or by polling the
    position door); it reloads into the device page once the table is full."""
    return render(
        request,
        "people/online_waiting.html",
        {
            "device": device,
            "event": device.board.event,
            "waiting": waiting,
            "state": waiting.as_json(),
            "api": {
                "position": _url(kind, "position", kwargs),
                "socket": "/ws/" + _url(kind, "board", kwargs).lstrip("/"),
            },
            "texts": {
                "free": pgettext("a seat no entrant took yet", "free"),
                "left": _("Robots take the seats still free in %(n)s s."),
                "filling": _("Robots are taking the seats still free…"),
                "live": _("Live"),
                "polling": _("Live by polling (no socket)"),
            },
        },
    )


def _read(request: HttpRequest) -> dict[str, Any]:
    body = request_json.read_json(request.body or b"{}")
    if not isinstance(body, dict):
        raise DomainError(_("The request must be a JSON object."))
    return body


def _at(body: dict[str, Any]) -> int:
    at = body.get("at")
    if not isinstance(at, int) or isinstance(at, bool) or not 0 <= at <= 1000:
        raise DomainError(
            _(
                "Say after how many steps you acted (at: a whole number from 0 to 1000, the "
                "steps your device shows)."
            )
        )
    return at


def _json_door(method: str) -> Callable[..., Any]:
    def wrap(view: Callable[..., JsonResponse]) -> Callable[..., HttpResponse]:
        @_private
        @functools.wraps(view)
        def answer(request: HttpRequest, kind: str, **kwargs: Any) -> HttpResponse:
            if request.method != method and not (method == "GET" and request.method == "HEAD"):
                return method_not_allowed("GET, HEAD" if method == "GET" else method)
            try:
                device = _open(request, kind, kwargs)
            except DeviceRefused as exc:
                return _refused_json(exc)
            try:
                return view(request, device)
            except live.LiveConflict as exc:
                error = api_error("conflict", exc.message)
                return JsonResponse({**error, "view": device_view(device, exc.state)}, status=409)
            except DomainError as exc:
                code = getattr(exc, "code", "invalid")
                status = {"conflict": 409, "forbidden": 403}.get(code, 400)
                return JsonResponse(api_error(code, exc.message), status=status)

        return answer

    return wrap


@_json_door("GET")
def position(request: HttpRequest, device: Device) -> JsonResponse:
    """GET: the board at the table now, as this device sees it (an online entrant's overdue
    move played by the robot first), or the waiting of an online table not full yet."""
    waiting = device_waiting(device)
    if waiting is not None:
        return JsonResponse({"waiting": waiting.as_json()})
    state = online_play.live_state_now(table=device.table, board=device.board)
    return JsonResponse({"view": device_view(device, state, left=device_left(device))})


def take_step(device: Device, body: dict[str, Any]) -> dict[str, Any]:
    """One step of `device`'s seat from `body` (``{"step", "at"}``), as the HTTP door and the
    socket both take it: ``{"ok": true, "view"}``; ``{"ok": false, "error", "view"}`` when the
    engine refuses it (nothing stored); ``{"ok": false, "conflict": true, "error", "view"}``
    when another device moved first or it is not this seat's turn; ``{"ok": false, "error"}``
    for bad input or a refusal (the API's error shape).
    """
    try:
        text = body.get("step")
        if not isinstance(text, str) or not text.strip():
            raise DomainError(_("Choose a call or a play."))
        # The site's one rule for text (no NUL or other control character, a bounded length).
        unfit = text_refusal(text, max_length=MAX_STEP_CHARS)
        if unfit is not None:
            raise DomainError(unfit[1])
        state, error = online_play.step_and_robots(
            table=device.table,
            board=device.board,
            seat=device.seat,
            step=text,
            at=_at(body),
            actor=device.bearer,
        )
    except live.LiveConflict as exc:
        error_shape = api_error("conflict", exc.message)["error"]
        return {
            "ok": False,
            "conflict": True,
            "error": error_shape,
            "view": device_view(device, exc.state),
        }
    except DomainError as exc:
        code = getattr(exc, "code", "invalid")
        return {"ok": False, "error": api_error(code, exc.message)["error"]}
    view = device_view(device, state)
    if error is not None:
        return {"ok": False, "error": error, "view": view}
    return {"ok": True, "view": view}


@_json_door("POST")
def step(request: HttpRequest, device: Device) -> JsonResponse:
    """POST ``{"step", "at"}``: one step of this device's seat (module docstring)."""
    answer = take_step(device, _read(request))
    if answer.get("conflict"):
        return JsonResponse({"error": answer["error"], "view": answer["view"]}, status=409)
    if "view" not in answer:
        code = answer["error"]["code"]
        status = {"conflict": 409, "forbidden": 403}.get(code, 400)
        return JsonResponse({"error": answer["error"]}, status=status)
    return JsonResponse({k: v for k, v in answer.items() if k != "conflict"})


@_json_door("POST")
def claim(request: HttpRequest, device: Device) -> JsonResponse:
    """POST ``{"answer": "accept" | "dispute"}``: this seat's answer to the claim its table's
    game ended with (tournaments.links.checks.claim_answer_record); 200 ``{"view"}``."""
    body = _read(request)
    state = live.live_state(table=device.table, board=device.board)
    if state.game is None or device.seat is None:
        raise checks.CheckRefused(_("This game did not end with a claim to answer."))
    checks.claim_answer_record(
        game=state.game, seat=device.seat, answer=str(body.get("answer")), bearer=device.bearer
    )
    return JsonResponse({"view": device_view(device, state)})


@_json_door("POST")
def undo(request: HttpRequest, device: Device) -> JsonResponse:
    """POST ``{"at"}``: ask to take back the last step, or agree to it (tables.live); never at
    a table of an online event (a robot agrees to nothing)."""
    body = _read(request)
    if is_online_duplicate(device.board.event):
        raise DomainError(_("No step is taken back in online play."))
    state = live.live_undo(
        table=device.table, board=device.board, seat=device.seat, at=_at(body), actor=device.bearer
    )
    return JsonResponse({"view": device_view(device, state)})
