"""The event's home page lists its boards with their games, in one query that reads each
board's games once (the page a venue's phones open most).

On the 600-player event of `scripts/bench_standings.py` (12 rounds, 14,400 games) the page is
not cached (only its standings fragment is): a board list that joined the games to count them,
and grouped, would run the open-board subqueries once per game (14,400 times) instead of once
per board (72), 4.2 s a view.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Status
from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


def test_the_board_list_counts_each_boards_games_without_joining_them() -> None:
    event, _round, tables, boards = duplicate_round(tables=3, boards=2, seed="board-list")
    first, second = boards
    for table in tables:  # board 1: every table played, two verified
        game = game_submit(table=table, board=first, record=bot_record(first, table))
        if table.number < 3:
            game_verify(game_id=game.pk)
    game_submit(table=tables[0], board=second, record=bot_record(second, tables[0]))
    # A replaced game of board 1 (an earlier version, kept for the record) counts for nothing.
    current = Game.objects.get(table=tables[2], board=first)
    old = Game.objects.get(pk=current.pk)
    old.pk = None
    old.replaced_at = current.submitted_at
    old.idempotency_key = None
    old.version = 0
    old.save()

    with CaptureQueriesContext(connection) as queries:
        page = Client().get(f"/events/{event.slug}/")
    assert page.status_code == 200
    listing = [q["sql"] for q in queries if q["sql"].startswith('SELECT "games_board"."id"')]
    assert len(listing) == 1, listing
    assert 'JOIN "games_game"' not in listing[0] and 'GROUP BY "games_board"' not in listing[0]

    rows = re.findall(
        r'Board (\d)</a>(.*?)</td>\s*<td>\d</td>\s*<td class="num">(\d+)</td>'
        r'<td class="num">(\d*)</td>',
        page.content.decode(),
        re.S,
    )
    # Board 1 is open (every table has a current game; the replaced version counts for
    # nothing): 3 games, 2 verified. Board 2 is being played: its count of games, its verified
    # count withheld (embargo).
    verified = Game.objects.filter(board=first, replaced_at__isnull=True, status=Status.VERIFIED)
    assert verified.count() == 2
    assert [(n, "being played" in note, games, shown) for n, note, games, shown in rows] == [
        ("1", False, "3", "2"),
        ("2", True, "1", ""),
    ]
