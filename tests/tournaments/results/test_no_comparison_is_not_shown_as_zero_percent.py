"""A player whose top is 0 (each of his boards played at one table only: nobody to compare him
with) has no percentage: the standings, his scorecard and the CSV show "—" (empty in the CSV)
with a short note, never 0 % (nor a running score at 0); a traveller whose top is 0 says the
board was played at one table only and is not compared. Only the display: the stored rows
(their percentage "0", their order and ranks) are unchanged.

Found by a new-user trial: at an online table where every board was played at one table only,
the standings showed everyone 1= with 0 % and 0 of 0, the traveller "Top on this board: 0
matchpoints per seat" and the scorecard "Total 0 · 0%".
"""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_event, online_table_play
from tournaments.models import Player, Standing
from tournaments.online import play
from tournaments.online.close import CLOSED, online_window_close
from tournaments.online.tables import table_fill
from tournaments.standings.store import standings_recompute
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

NOTE = "no comparison yet: each of this player's boards was played at one table only"


def _one_table_each(boards: int = 1) -> tuple[object, Player]:
    """An online-tables event whose one entrant played every board at one table (robots in
    the other seats): nobody to compare him with."""
    event, _td, (ann,) = online_event(entrants=1, boards=boards, tables=True)
    for number in range(1, boards + 1):
        table = play.online_board_start(event=event, user=ann, number=number)
        device = play.entrant_device(ann, event.slug, number)
        assert table_fill(table=table, board=device.board, force=True)
        game_verify(game_id=online_table_play(event, [ann], number).pk)
    standings_recompute(event_id=event.pk)
    return event, Player.objects.get(user=ann)


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", html)


def _page(client: Client, name: str, *args: object) -> str:
    return _text(client.get(reverse(name, args=list(args))).content.decode())


def test_no_comparison_reads_a_dash_with_a_note_not_zero_percent() -> None:
    event, ann = _one_table_each()
    row = Standing.objects.get(event=event, stage=None, player=ann)
    assert (row.top, row.percentage) == ("0", "0")  # stored as computed: only the display
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    # While the window is open: the leaderboard (totals only).
    sealed = _page(client, "public:standings_live", event.slug)
    assert '<td class="num"><span class="not-compared"' in sealed and NOTE in sealed
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    standings = _page(client, "public:standings_live", event.slug)
    percentage_cell = re.search(r'</a></td> <td class="num">(.*?)</td>', standings)
    assert percentage_cell and "—" in percentage_cell.group(1), standings
    assert NOTE in standings
    card = _page(client, "public:scorecard", event.slug, ann.pk)
    header = re.search(r'<p id="standing">(.*?)</p>', card)
    assert header and "%" not in header.group(1) and "<strong>—</strong>" in header.group(1)
    assert NOTE in header.group(1)
    assert 'id="running-score"' not in card  # no percentage to draw, not a line at 0
    traveller = client.get(reverse("public:traveller", args=[event.slug, 1])).content.decode()
    assert "Top on this board" not in traveller
    assert "This board was played at one table only: it is not compared." in traveller
    answer = client.get(reverse("public:standings_csv", args=[event.slug]))
    (line,) = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert line["percentage"] == "" and line["percentage_decimal"] == ""
    assert line["top"] == "0" and line["rank"] == "1"
