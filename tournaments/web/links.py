"""Pages a private link opens, with no sign-in (tournaments.links; namespace "links").

A table link (``/t/TOKEN/``) opens its table: the boards with their entry state, the live entry
of each (the referee's page and script, over this link's own two JSON doors, not the API) and
the quick result, and the game it just submitted. A player link (``/p/TOKEN/``) shows her seats,
her games (to confirm, or to signal a problem on, within the correction window) and her
scorecard. Nothing else: tournaments.core.access decides what a link opens; an unknown token is a
404, a revoked or expired link or a closed round a 403, each a page that says why.

Every answer carries ``Cache-Control: no-store``, ``Referrer-Policy: same-origin`` and
``X-Robots-Tag: noindex``: the token is a password in the URL, never sent to another site.
Writes go through the services of tournaments.links (and tournaments.tables.submission.game_submit),
which
audit the link and the device.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ddz_site.api import request_json
from ddz_site.api.errors import fields_of, refusal_status
from ddz_site.kernel.errors import DomainError
from ddz_site.web.middleware import api_error, method_not_allowed
from games import steps as entry_steps
from games.models import Board, EntryDraft, Game
from tournaments.api.serializers import EntryCheckSerializer, GameSubmitSerializer
from tournaments.core import access, embargo, lineups
from tournaments.core.rules import rules_of
from tournaments.events.overview import in_seat_order
from tournaments.events.selectors import player_standing
from tournaments.links import checks, entry, tokens
from tournaments.links.player import player_view
from tournaments.models import Event, Player, PlayerLink, Registration, RoundState, Table, TableLink
from tournaments.results import pages
from tournaments.results.prizes import final_place
from tournaments.tables import selectors
from tournaments.web.officials import qr_svg
from tournaments.web.people.registration import checkin_qr
from tournaments.web.referee import live_entry_context, quick_entry_page
from tournaments.web.screen import table_clock_context


class _Refused(Exception):
    """What a link does not open: answered with `status` and a page (or JSON) saying why."""

    def __init__(self, status: int, message: str, *, heading: str = "", back: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        # A refusal of one thing a link that still works asked for: its own heading, and the
        # way back to the link's page (`back`) instead of "ask for a new link".
        self.heading = heading
        self.back = back


def keep_private(response: HttpResponse) -> HttpResponse:
    """`response` of a private link (a table's, a seat's, a player's): never cached, indexed
    nor sent to another site as a referrer."""
    response["Cache-Control"] = "no-store, private"
    # Never a referrer to another site; same-origin keeps the Origin header that CSRF checks
    # on the link's own forms ("no-referrer" makes it null).
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _private(*, json_door: bool = False) -> Callable[..., Any]:
    """The link's answer, never cached, indexed nor sent to another site as a referrer; a
    refusal as the refusal page (or, for a JSON door, the API's error shape)."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            try:
                response = view(request, *args, **kwargs)
            except _Refused as exc:
                code = "not_found" if exc.status == 404 else "forbidden"
                if json_door:
                    response = JsonResponse(api_error(code, exc.message), status=exc.status)
                else:
                    response = render(
                        request,
                        "links/refused.html",
                        {
                            "message": exc.message,
                            "unknown": exc.status == 404,
                            "heading": exc.heading,
                            "back": exc.back,
                        },
                        status=exc.status,
                    )
            return keep_private(response)

        return answer

    return wrap


def _unknown() -> _Refused:
    return _Refused(404, str(tokens.UNKNOWN_LINK))


def _in_force(link: TableLink | PlayerLink | None) -> Any:
    """`link` if it may still be used: an unknown token is a 404, a revoked or expired link (or
    its round closed) a 403 with the reason (tournaments.core.access.link_refusal)."""
    if link is None:
        raise _unknown()
    refusal = access.link_refusal(link)
    if refusal is not None:
        raise _Refused(403, refusal)
    return link


def _table_link(token: str) -> TableLink:
    link: TableLink = _in_force(tokens.table_link_find(token))
    return link


def _table_and_board(link: TableLink, number: int) -> tuple[Table, Board]:
    board = (
        Board.objects.select_related("event").filter(event_id=link.event_id, number=number).first()
    )
    table = entry.link_table_of(link, board) if board is not None else None
    if board is None or table is None:
        raise _Refused(404, _("This link does not open board %(board)s.") % {"board": number})
    refusal = access.table_refusal(link, table)
    if refusal is not None:
        raise _Refused(403, refusal)
    return table, board


def _bearer(request: HttpRequest, link: TableLink | PlayerLink) -> tokens.LinkBearer:
    return tokens.LinkBearer.of(link, device=request.headers.get("User-Agent", ""))


# --- Table links ---------------------------------------------------------------------------


@_private()
def table_home(request: HttpRequest, token: str) -> HttpResponse:
    """The link's table in each of its rounds not closed: players, boards and entry states."""
    link = _table_link(token)
    tables = entry.link_tables(link)
    shown = [t for t in tables if access.table_link_opens(link, t)]
    if tables and not shown and not entry.rounds_to_come(link):
        raise _Refused(403, access.table_refusal(link, tables[-1]) or "")
    rows = selectors.status_board(
        event=link.event,
        tables=Table.objects.filter(pk__in=[t.pk for t in shown])
        .select_related("round")
        .prefetch_related("seats__player")
        .order_by("round__number"),
    )
    names = rules_of(link.event).seats
    seated = {row.table.pk: in_seat_order(row.table.seats.all(), names) for row in rows}
    return render(
        request,
        "links/table.html",
        {
            "link": link,
            "token": token,
            "event": link.event,
            "rows": rows,
            "seated": seated,
            "substitutions": lineups.by_table(seated),
            # The clock of the round the link's table plays now (the first shown).
            **table_clock_context(shown[0] if shown else None, link.event),
        },
    )


@_private()
def live_entry(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """The live entry of the link's table, over the link's JSON doors."""
    link = _table_link(token)
    table, board = _table_and_board(link, number)
    context = live_entry_context(
        table,
        board,
        api={
            "entry": reverse("links:entry", args=[token, number]),
            "games": reverse("links:games", args=[token, number]),
        },
        review=reverse("links:game", args=[token, 0]),
        actor=_bearer(request, link),
    )
    context["token"] = token
    return render(request, "links/live_entry.html", context)


@_private()
def quick_entry(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """The quick result of the link's table."""
    link = _table_link(token)
    table, board = _table_and_board(link, number)
    return quick_entry_page(
        request,
        table,
        board,
        actor=_bearer(request, link),
        source="link",
        template="links/quick_entry.html",
        done=lambda game: reverse("links:game", args=[token, game.pk]),
        context={"token": token},
    )


def _json_object(request: HttpRequest) -> dict[str, Any]:
    """The JSON object posted."""
    # The site's one reader of a JSON body, as the API's: plain, translated refusals.
    body = request_json.read_json(request.body or b"{}")
    if not isinstance(body, dict):
        raise DomainError(_("The request must be a JSON object."))
    return body


def _json_error(exc: DomainError) -> JsonResponse:
    status = refusal_status(exc)  # the API's statuses (a reused key 422, a conflict 409)
    # The API's error shape (ddz_site.api.errors): code, message, fields, rule; an engine's
    # refusal adds its place and parameters (games.steps.EntryError.to_dict).
    error: dict[str, Any] = {
        "code": getattr(exc, "code", "invalid"),
        "message": exc.message,
        "fields": getattr(exc, "fields", None),
        "rule": getattr(exc, "rule", None),
    }
    if isinstance(exc, entry_steps.EntryError):
        error.update(exc.to_dict())
    # What the refusal names besides (a submission's conflict: the version it would replace).
    error.update(getattr(exc, "details", None) or {})
    return JsonResponse({"error": error}, status=status)


@_private(json_door=True)
def step_check(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """GET: the position of the entry in progress; POST ``{steps, step}``: check a step, as
    the API's entry endpoint, through tournaments.links.entry.link_step_check; any other method:
    405 in the API's error shape (a DELETE answered the position, as if a draft were gone)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return method_not_allowed("GET, HEAD, POST")
    link = _table_link(token)
    table, board = _table_and_board(link, number)
    deal = entry_steps.EntryDeal.from_board(board)
    if request.method != "POST":
        draft = EntryDraft.objects.filter(table=table, board=board).first()
        try:
            position = entry_steps.rebuild(deal, draft.steps if draft else [])
        except entry_steps.EntryError:
            position = entry_steps.start(deal)
        return JsonResponse(entry_steps.view(position, leads=True))
    try:
        # The API's own rule for steps (tournaments.api.serializers.EntryCheckSerializer).
        data = EntryCheckSerializer(data=_json_object(request))
        if not data.is_valid():
            return _fields_error(data.errors)
        answer = entry.link_step_check(
            bearer=_bearer(request, link),
            table=table,
            board=board,
            steps=data.validated_data["steps"],
            step=data.validated_data.get("step"),
        )
    except DomainError as exc:
        return _json_error(exc)
    return JsonResponse(answer)


@_private(json_door=True)
def game_submit(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """POST ``{steps | quick | record, replace, replaces}`` with an ``Idempotency-Key`` header:
    the API's body (tournaments.api.serializers.GameSubmitSerializer: exactly one of steps,
    quick or record; ``replace`` JSON true or false, and with true ``replaces``, the number of
    the version it replaces), submitted as the link (tournaments.links.entry.link_game_submit);
    201 with ``{"id", "status"}``, 200 for a retry answered with the game stored first. Bad
    fields: 400 with ``fields`` as the API names them (``quick.spring``); a board the table
    has a game of, not replaced by name: 409 with that version under ``current``."""
    if request.method != "POST":
        return method_not_allowed("POST")
    link = _table_link(token)
    table, board = _table_and_board(link, number)
    try:
        body = _json_object(request)
        data = GameSubmitSerializer(data=body)
        if not data.is_valid():
            return _fields_error(data.errors)
        v = data.validated_data
        game = entry.link_game_submit(
            bearer=_bearer(request, link),
            table=table,
            board=board,
            submission=v,
            replaces=GameSubmitSerializer.replaced_version(v),
            idempotency_key=request.headers.get("Idempotency-Key")
            or v.get("idempotency_key")
            or None,
        )
    except DomainError as exc:
        return _json_error(exc)
    stored = getattr(game, "stored", True)
    return JsonResponse({"id": game.pk, "status": game.status}, status=201 if stored else 200)


def _fields_error(errors: Any) -> JsonResponse:
    """The serializer's errors in the API's shape (ddz_site.api.errors.fields_of): 400, the
    message of the whole body if it has one, else "invalid fields", and ``fields``."""
    fields = fields_of(errors) or {}
    whole = fields.pop("non_field_errors", [])
    message = " ".join(whole) or _("The request has invalid fields.")
    error = {"code": "invalid", "message": message, "fields": fields or None, "rule": None}
    return JsonResponse({"error": error}, status=400)


@_private()
def game(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """A game of the link's table, as submitted: its version and the engine's status."""
    link = _table_link(token)
    found = Game.objects.select_related("board__event", "table__round").filter(pk=pk).first()
    if found is None or not access.table_link_covers(link, found.table):
        raise _Refused(404, _("This link does not open that game."))
    refusal = access.table_refusal(link, found.table)
    if refusal is not None:
        raise _Refused(403, refusal)
    following = (
        Board.objects.filter(round_id=found.table.round_id, number__gt=found.board.number)
        .order_by("number")
        .first()
    )
    return render(
        request,
        "links/game.html",
        {
            "token": token,
            "event": link.event,
            "game": found,
            "table": found.table,
            "board": found.board,
            "next_board": following,
            **table_clock_context(found.table, link.event),
        },
    )


# --- Player links --------------------------------------------------------------------------


def _player_link(token: str) -> PlayerLink:
    link: PlayerLink = _in_force(tokens.player_link_find(token))
    return link


@_private()
def player_home(request: HttpRequest, token: str) -> HttpResponse:
    """Her seats, her games with her answers, and her scorecard (the public's view of it)."""
    return _player_page(request, token, _player_link(token))


def _player_page(
    request: HttpRequest,
    token: str,
    link: PlayerLink,
    *,
    refused: dict[str, Any] | None = None,
    status: int = 200,
) -> HttpResponse:
    """Her page; `refused` an answer refused as bad input (``game``, ``kind``, ``note``,
    ``message``), shown beside the form of its game with what she typed."""
    event, player = link.event, link.player
    view = player_view(link)
    rows = pages.player_scorecard(
        event=event, player=player, visible=embargo.public_board_ids(event)
    )
    # Her seat device in each round in play: its address and QR code (to open it on a phone).
    devices = {}
    firsts = selectors.first_boards([r.pk for r, _t, _s, _m in view.seats])
    for round_, table, seat, _mates in view.seats:
        first = firsts.get(round_.pk)
        if round_.state == RoundState.IN_PLAY and first is not None and seat:
            url = reverse("links:player_board", args=[token, round_.number, first])
            full = request.build_absolute_uri(url)
            devices[round_.number] = {"url": url, "qr": qr_svg(full), "table": table.number}
    return render(
        request,
        "links/player.html",
        {
            "token": token,
            "event": event,
            "player": player,
            "view": view,
            "rows": rows,
            "standing": player_standing(event=event, player=player),
            "final": final_place(event, player.pk),
            "refused": refused,
            "devices": devices,
            # Her check-in code, when she entered by a registration (tournaments.people).
            "checkin_qr": _checkin_qr(request, event, player),
        },
        status=status,
    )


def _checkin_qr(request: HttpRequest, event: Event, player: Player) -> str:
    registration = Registration.objects.filter(event=event, player=player).first()
    return checkin_qr(request, registration) if registration is not None else ""


@_private()
@require_POST
def player_check(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """POST ``kind`` (confirm or problem) and ``note`` on one of her games. A bad answer (a
    note that is not readable text, holds control characters, is too long or missing for a
    problem; another kind) is her page again with the error beside that game's form (400):
    the link still works."""
    link = _player_link(token)
    back = reverse("links:player", args=[token])
    found = Game.objects.select_related("board__event", "table").filter(pk=pk).first()
    if found is None or found.board.event_id != link.event_id:
        raise _Refused(
            404, _("This link does not open that game."), heading=_("No such game"), back=back
        )
    kind, note = request.POST.get("kind", ""), request.POST.get("note", "")
    try:
        checks.result_check_record(
            link=link,
            game=found,
            kind=kind,
            note=note,
            device=request.headers.get("User-Agent", ""),
        )
    except checks.AnswerInvalid as exc:
        refused = {"game": found.pk, "kind": kind, "note": note, "message": exc.message}
        return _player_page(request, token, link, refused=refused, status=400)
    except checks.CheckRefused as exc:
        # The link works (_player_link): say what is refused, not that the link is dead.
        if not access.player_game_is_hers(link, found):
            heading = _("Not one of your games")
        else:
            heading = _("This game cannot be checked now")
        raise _Refused(403, exc.message, heading=heading, back=back) from None
    return redirect(back + f"#game-{found.pk}")
