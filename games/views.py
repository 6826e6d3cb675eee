"""Public page of one game: its record, verification status and the engine's error."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from games.models import Game
from tournaments.selectors import SEATS, board_is_public


def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(
        Game.objects.select_related("board__event", "table__round").prefetch_related(
            "table__seats__player"
        ),
        pk=pk,
    )
    public = board_is_public(board=game.board) or bool(
        request.user.is_authenticated and request.user.is_staff
    )
    players = {s.seat: s.player for s in game.table.seats.all()}
    record = game.record if isinstance(game.record, dict) else {}
    hands = record.get("hands") if isinstance(record.get("hands"), dict) else {}
    seats = [
        {
            "seat": seat,
            "player": players.get(seat),
            "hand": hands.get(seat, ""),
            "declared": (game.declared or {}).get(seat),
            "score": (game.score or {}).get(seat),
        }
        for seat in SEATS
    ]
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "event": game.board.event,
            "board": game.board,
            "public": public,
            "seats": seats,
            "record": record,
            "bidding": record.get("bidding") or [],
            "plays": record.get("plays") or [],
        },
    )
