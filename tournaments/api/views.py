"""API views: parse, fetch, check the role, call one service, render (tournaments.api)."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ddz_site.api.serializers import ErrorSerializer
from games import steps as entry_steps
from games.models import Board, EntryDraft, Game
from tournaments.api import serializers as s
from tournaments.core.access import can_enter_table, is_chief_referee, is_official
from tournaments.core.embargo import game_visible_to, visible_to
from tournaments.models import Event, Table
from tournaments.people import life, registration
from tournaments.tables import selectors
from tournaments.tables.review import game_confirm, game_resolve, step_check
from tournaments.tables.submission import game_submit, submission_record

# The refusals every door of a kind answers (400, 401, 403, 404, 413, 415, 503) are the
# schema class's (ddz_site.api.schema); a view declares only its own.
CONFLICT = {
    409: OpenApiResponse(ErrorSerializer, description=gettext_lazy("The stored state conflicts."))
}
REFUSED = {
    400: OpenApiResponse(
        ErrorSerializer,
        description=gettext_lazy("Bad input, or a request the rules refuse (its rule)."),
    )
}
KEY_REUSED = {
    422: OpenApiResponse(
        ErrorSerializer,
        description=gettext_lazy("The idempotency key was sent before with another submission."),
    )
}
EMBARGOED = {
    403: OpenApiResponse(
        ErrorSerializer,
        description=gettext_lazy("Under embargo: the board's results are not public yet."),
    )
}


def _deny(request: Request, message: str) -> None:
    if not request.user or not request.user.is_authenticated:
        raise exceptions.NotAuthenticated()
    raise exceptions.PermissionDenied(message)


def _event(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def _table_and_board(slug: str, table_id: int, number: int) -> tuple[Table, Board]:
    table, board = selectors.table_and_board(slug=slug, table_id=table_id, number=number)
    if not board.is_played_at(table):
        raise exceptions.NotFound(_("This board is not played at this table."))
    return table, board


def _entry_table(request: Request, slug: str, table_id: int, number: int) -> tuple[Table, Board]:
    table, board = _table_and_board(slug, table_id, number)
    if not can_enter_table(request.user, table):
        _deny(request, _("You are not a referee of this table."))
    return table, board


def _chief(request: Request, event: Event) -> None:
    if not is_chief_referee(request.user, event):
        _deny(request, _("Only chief referees and organizers see this."))


def _games() -> Any:
    return Game.objects.select_related(
        "board__event", "table__round", "entered_by", "confirmed_by", "resolved_by"
    )


TABLE_PARAMS = [
    OpenApiParameter("slug", str, OpenApiParameter.PATH),
    OpenApiParameter("table_id", int, OpenApiParameter.PATH),
    OpenApiParameter("number", int, OpenApiParameter.PATH),
]


class EventView(APIView):
    """An event's announcement: its status, when (start, end, time zone) and where (online or
    its venue), and its registration (open now or not, limit, deadline, places taken). Read
    only and public, as the event's page is."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.EventSerializer})
    def get(self, request: Request, slug: str) -> Response:
        event = _event(slug)
        deadline = event.registration_deadline
        data = {
            "name": event.name,
            "slug": event.slug,
            "status": event.status,
            "starts_at": event.starts_at,
            "ends_at": event.ends_at,
            "time_zone": str(life.zone_of(event)),
            "online": event.online,
            "venue": {"name": event.venue_name, "address": event.venue_address},
            "registration": {
                "open": registration.closed_refusal(event) is None,
                "limit": event.registration_limit,
                "deadline": deadline,
                "places_taken": registration.accepted_count(event),
                "waiting_list": event.waiting_list,
                "categories": list(event.categories),
            },
        }
        return Response(s.EventSerializer(data).data)


class TableStatusView(APIView):
    """The table status board: per table and board not_started … confirmed
    (tournaments.tables.selectors).
    Chief referees and organizers see every table; a referee his own."""

    @extend_schema(responses={200: s.TableRowSerializer(many=True)})
    def get(self, request: Request, slug: str) -> Response:
        event = _event(slug)
        tables = selectors.tables_of(request.user, event)
        if not is_chief_referee(request.user, event) and not tables.exists():
            _deny(request, _("You have no table in this event."))
        rows = selectors.status_board(event=event, tables=tables)
        return Response(s.TableRowSerializer(rows, many=True).data)


class EntryView(APIView):
    """Live entry of one table's game of one board: each step checked by the engine."""

    @extend_schema(parameters=TABLE_PARAMS, responses={200: s.PositionSerializer})
    def get(self, request: Request, slug: str, table_id: int, number: int) -> Response:
        """The position of the entry in progress (the saved draft), or the empty one."""
        table, board = _entry_table(request, slug, table_id, number)
        draft = EntryDraft.objects.filter(table=table, board=board).first()
        deal = entry_steps.EntryDeal.from_board(board)
        try:
            position = entry_steps.rebuild(deal, draft.steps if draft else [])
        except entry_steps.EntryError:
            position = entry_steps.start(deal)
        return Response(entry_steps.view(position, leads=True))

    @extend_schema(
        parameters=TABLE_PARAMS,
        request=s.EntryCheckSerializer,
        responses={200: s.EntryCheckResultSerializer, **REFUSED},
    )
    def post(self, request: Request, slug: str, table_id: int, number: int) -> Response:
        """Check ``step`` after ``steps``; the accepted steps are saved as the table's draft.

        A refused step is an answer, not an error: ``ok`` false, the referee's message with its
        rule, and the position before it. Steps so far that the engine refuses are a 400.
        """
        table, board = _entry_table(request, slug, table_id, number)
        data = s.EntryCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        position, error = step_check(
            table=table,
            board=board,
            steps=data.validated_data["steps"],
            step=data.validated_data.get("step"),
            actor=request.user,
        )
        return Response(
            {"ok": error is None, "position": entry_steps.view(position), "error": error}
        )


class GameListView(APIView):
    """The versions of one table's game of one board; POST submits a new one."""

    @extend_schema(parameters=TABLE_PARAMS, responses={200: s.GameReadSerializer(many=True)})
    def get(self, request: Request, slug: str, table_id: int, number: int) -> Response:
        table, board = _entry_table(request, slug, table_id, number)
        versions = selectors.game_versions(table=table, board=board).select_related(
            "board__event", "table__round"
        )
        return Response(s.GameReadSerializer(versions, many=True).data)

    @extend_schema(
        parameters=[
            *TABLE_PARAMS,
            OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
        ],
        request=s.GameSubmitSerializer,
        responses={
            201: s.GameSerializer,
            200: OpenApiResponse(
                s.GameSerializer, description=gettext_lazy("A retry: the game stored first.")
            ),
            **REFUSED,
            409: OpenApiResponse(
                s.GameConflictSerializer,
                description=gettext_lazy(
                    "The table has a game of this board that the submission does not replace "
                    "by name (replace true, replaces its version): described under current."
                ),
            ),
            **KEY_REUSED,
        },
    )
    def post(self, request: Request, slug: str, table_id: int, number: int) -> Response:
        """Submit a game: ``steps`` of a finished live entry, a ``quick`` result, or a
        ``record``; validated, stored as a new version, verified by the worker. A board the
        table has a game of takes a new one only with ``replace`` true and ``replaces``, the
        number of its current version (409 otherwise, naming it)."""
        table, board = _entry_table(request, slug, table_id, number)
        data = s.GameSubmitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        key = request.headers.get("Idempotency-Key") or v.get("idempotency_key") or None
        record, given = submission_record(table=table, board=board, submission=v)
        source = "quick" if given == "quick" else "api"
        game = game_submit(
            table=table,
            board=board,
            record=record,
            replaces=s.GameSubmitSerializer.replaced_version(v),
            actor=request.user,
            idempotency_key=key,
            source=source,
        )
        code = status.HTTP_201_CREATED if getattr(game, "stored", True) else status.HTTP_200_OK
        # The game as game_submit returns it, its relations loaded: no read after the commit,
        # which a database lost at that moment would turn into an error for a stored game.
        return Response(s.GameSerializer(game).data, status=code)


class GameDetailView(APIView):
    """One game (any version), shown once its board's embargo lets the user see it."""

    permission_classes = [AllowAny]  # a public read: the embargo decides

    @extend_schema(responses={200: s.GameReadSerializer})
    def get(self, request: Request, pk: int) -> Response:
        game = get_object_or_404(_games(), pk=pk)
        if not game_visible_to(request.user, game):
            raise exceptions.NotFound()
        return Response(s.GameReadSerializer(game).data)


class GameConfirmView(APIView):
    """A second person confirms the current version of a game
    (tournaments.tables.review.game_confirm)."""

    @extend_schema(request=None, responses={200: s.GameSerializer, **CONFLICT})
    def post(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        get_object_or_404(Game, pk=pk)
        game = game_confirm(game_id=pk, actor=request.user)
        return Response(s.GameSerializer(_games().get(pk=game.pk)).data)


class GameResolveView(APIView):
    """A chief referee's ruling on a flagged game (tournaments.tables.review.game_resolve)."""

    @extend_schema(
        request=s.ResolveSerializer, responses={200: s.GameSerializer, **REFUSED, **CONFLICT}
    )
    def post(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated()
        game = get_object_or_404(Game.objects.select_related("board__event"), pk=pk)
        _chief(request, game.board.event)
        data = s.ResolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        game = game_resolve(
            game_id=pk,
            actor=request.user,
            decision=data.validated_data["decision"],
            note=data.validated_data["note"],
        )
        return Response(s.GameSerializer(_games().get(pk=game.pk)).data)


class FlaggedQueueView(APIView):
    """The games the engine flagged that await a ruling, oldest first."""

    @extend_schema(responses={200: s.GameBriefSerializer(many=True)})
    def get(self, request: Request, slug: str) -> Response:
        event = _event(slug)
        _chief(request, event)
        games = selectors.flagged_queue(event=event).select_related("board__event")
        return Response(s.GameBriefSerializer(games, many=True).data)


def _whole_number(request: Request, name: str, *, minimum: int, maximum: int | None = None) -> int:
    """Query parameter `name` as a whole number of at least `minimum` (and at most `maximum`,
    if given), written in decimal digits as the schema's integer is; one of more than 18
    digits (past any page) reads as 10**18, where Python's int() refuses one of thousands.

    Raises:
        ValidationError: anything else (a 400 naming the parameter).
    """
    value = request.query_params[name]
    if value.isascii() and value.isdigit():
        digits = value.lstrip("0") or "0"
        number = int(digits) if len(digits) <= 18 else 10**18
        if number >= minimum and (maximum is None or number <= maximum):
            return number
    if maximum is not None:
        message = _("A whole number from %(minimum)s to %(maximum)s.") % {
            "minimum": minimum,
            "maximum": maximum,
        }
    else:
        message = _("A whole number of at least %(minimum)s.") % {"minimum": minimum}
    raise exceptions.ValidationError({name: [message]})


class AuditPagination(LimitOffsetPagination):
    """A page of the audit log: ``limit`` entries (1 to max_limit) from ``offset`` (0 or
    more). Any other value is refused (400), where DRF's reads it as the first page (or cuts
    it to max_limit), which a client would take for what it asked."""

    default_limit = 100
    max_limit = 500

    def get_limit(self, request: Request) -> int:
        if self.limit_query_param not in request.query_params:
            return self.default_limit
        return _whole_number(request, self.limit_query_param, minimum=1, maximum=self.max_limit)

    def get_offset(self, request: Request) -> int:
        if self.offset_query_param not in request.query_params:
            return 0
        return _whole_number(request, self.offset_query_param, minimum=0)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters: list[dict[str, Any]] = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            limit = parameter["name"] == self.limit_query_param
            parameter["schema"]["minimum"] = 1 if limit else 0
            if limit:
                parameter["schema"]["maximum"] = self.max_limit
        return parameters


class AuditLogView(APIView):
    """The event's audit log, newest first: who, when, what changed; a page of it
    (``limit``, ``offset``) with the count of entries and the links to the pages beside."""

    # Named here so that the schema documents the page (drf-spectacular reads it).
    pagination_class = AuditPagination

    @extend_schema(responses={200: s.AuditEntrySerializer(many=True)})
    def get(self, request: Request, slug: str) -> Response:
        event = _event(slug)
        _chief(request, event)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(selectors.audit_log(event=event), request, view=self)
        return paginator.get_paginated_response(s.AuditEntrySerializer(page, many=True).data)


class BoardGamesView(APIView):
    """The current games of one board at every table once it is open; under the embargo,
    every table for organizers and chief referees, a referee's own tables for him
    (tournaments.core.embargo)."""

    permission_classes = [AllowAny]  # a public read: the embargo decides

    @extend_schema(
        parameters=[
            OpenApiParameter("slug", str, OpenApiParameter.PATH),
            OpenApiParameter("number", int, OpenApiParameter.PATH),
        ],
        responses={200: s.GameBriefSerializer(many=True), **EMBARGOED},
    )
    def get(self, request: Request, slug: str, number: int) -> Response:
        board = get_object_or_404(
            Board.objects.select_related("event"), event__slug=slug, number=number
        )
        games = _games().filter(board=board, replaced_at__isnull=True).order_by("table__number")
        if not visible_to(request.user, board):
            if not is_official(request.user, board.event):
                _deny(
                    request,
                    _("This board's results are embargoed until every table has played it."),
                )
            games = games.filter(table__in=selectors.tables_of(request.user, board.event))
        return Response(s.GameBriefSerializer(games, many=True).data)
