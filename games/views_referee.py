"""Referee pages: the tables and boards of an event, and the entry of one game.

Only users with the permission to add games (organizers, referees) see them. The entry page
calls games.services.game_submit; a refused record is shown as a form error and nothing is
stored.
"""

from __future__ import annotations

import json

from django.contrib.auth.decorators import permission_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from ddz_site.errors import DomainError
from games.deals import rank_cards
from games.forms import GameRecordForm
from games.models import Board, Game
from games.services import game_submit
from tournaments.models import Event, Table
from tournaments.selectors import SEATS


@permission_required("games.add_game")
def referee_event(request: HttpRequest, slug: str) -> HttpResponse:
    event = get_object_or_404(Event, slug=slug)
    tables = Table.objects.filter(round__event=event).select_related("round")
    boards = Board.objects.filter(event=event, round__isnull=False).order_by("number")
    games = {
        (g.table_id, g.board_id): g
        for g in Game.objects.filter(board__event=event, replaced_at__isnull=True)
    }
    rounds = []
    for table in tables:
        cells = [(b, games.get((table.pk, b.pk))) for b in boards if b.round_id == table.round_id]
        rounds.append((table, cells))
    return render(request, "games/referee_event.html", {"event": event, "rows": rounds})


def _skeleton(board: Board) -> str:
    record = {
        "id": "",
        "rules": board.event.rules,
        "hands": {seat: rank_cards(board.hands.get(seat, "")) for seat in SEATS},
        "bottom": rank_cards(board.bottom),
        "first_bidder": board.first_bidder or None,
        "bidding": [],
        "plays": [],
        "end": None,
        "declared": None,
    }
    return json.dumps(record, ensure_ascii=False, indent=1)


@permission_required("games.add_game")
def game_enter(request: HttpRequest, slug: str, table_id: int, number: int) -> HttpResponse:
    table = get_object_or_404(
        Table.objects.select_related("round__event"), pk=table_id, round__event__slug=slug
    )
    board = get_object_or_404(
        Board.objects.select_related("event"), event__slug=slug, number=number
    )
    if request.method == "POST":
        form = GameRecordForm(request.POST)
        if form.is_valid():
            try:
                game = game_submit(
                    table=table,
                    board=board,
                    record=form.cleaned_data["record"],
                    replace=form.cleaned_data["replace"],
                )
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                return redirect(game.get_absolute_url())
        status = 400
    else:
        form = GameRecordForm(initial={"record": _skeleton(board)})
        status = 200
    return render(
        request,
        "games/game_enter.html",
        {"event": board.event, "board": board, "table": table, "form": form},
        status=status,
    )
