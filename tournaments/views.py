"""Public pages: the event list, an event with its standings, a board's traveller and a
player's scorecard. Thin: fetch through selectors, render."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.models import Board, Status
from tournaments import selectors
from tournaments.models import Event, Player


def _may_see_all(request: HttpRequest) -> bool:
    return bool(request.user.is_authenticated and request.user.is_staff)


def event_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/event_list.html", {"events": selectors.event_list()})


def event_detail(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    boards = (
        Board.objects.filter(event=event)
        .select_related("round")
        .annotate(
            game_count=Count("games", filter=Q(games__replaced_at__isnull=True)),
            verified_count=Count(
                "games",
                filter=Q(games__replaced_at__isnull=True, games__status=Status.VERIFIED),
            ),
        )
        .order_by("number")
    )
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "standings": selectors.event_standings(event=event),
            "boards": boards,
        },
    )


def traveller(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    board = get_object_or_404(
        Board.objects.select_related("event", "round"), event__slug=slug, number=number
    )
    public = selectors.board_is_public(board=board) or _may_see_all(request)
    rows = selectors.board_traveller(board=board) if public else []
    return render(
        request,
        "tournaments/traveller.html",
        {
            "event": board.event,
            "board": board,
            "hands": [(seat, board.hands.get(seat, "")) for seat in selectors.SEATS],
            "public": public,
            "rows": rows,
        },
    )


def scorecard(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    player = get_object_or_404(Player, pk=player_id)
    rows = selectors.player_scorecard(event=event, player=player)
    standing = event.standings.filter(player=player).first()
    return render(
        request,
        "tournaments/scorecard.html",
        {"event": event, "player": player, "rows": rows, "standing": standing},
    )
