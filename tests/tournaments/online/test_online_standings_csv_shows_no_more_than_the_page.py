"""While an online event's window is open its standings page shows totals only (rank, player,
percentage, total), and so does every export of the standings: the CSV has no top, boards,
penalty nor tie-break column until the close, when it has them all again.

Found by a new-user trial: during the window ``standings.csv`` read
``1,Xia (online),11,14,550/7,78.57,,3,``, the top and the boards the page keeps back.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import online_board_play, online_event
from tournaments.online.close import CLOSED, online_window_close
from tournaments.standings.store import standings_recompute
from tournaments.tables.verification import game_verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

TOTALS = ["rank", "player", "total", "percentage", "percentage_decimal"]


def _csv(event_slug: str) -> list[dict[str, str]]:
    answer = Client().get(reverse("public:standings_csv", args=[event_slug]))
    assert answer.status_code == 200
    return list(csv.DictReader(io.StringIO(answer.content.decode())))


def _header(event_slug: str) -> list[str]:
    answer = Client().get(reverse("public:standings_csv", args=[event_slug]))
    return next(csv.reader(io.StringIO(answer.content.decode())))


def test_the_standings_csv_has_the_totals_only_while_the_window_is_open() -> None:
    event, _td, (ann, bob) = online_event(entrants=2, boards=2)
    for user, seed in ((ann, "a"), (bob, "b")):
        game_verify(game_id=online_board_play(event, user, 1, seed=seed).pk)
    standings_recompute(event_id=event.pk)
    assert _header(event.slug) == TOTALS
    rows = _csv(event.slug)
    assert {r["player"] for r in rows} == {"Entrant 1", "Entrant 2"}
    assert all(set(r) == set(TOTALS) for r in rows)
    # After the close: every column again, the boards counted.
    assert online_window_close(event=event, now=event.ends_at + timedelta(seconds=1)) == CLOSED
    header = _header(event.slug)
    assert {"top", "boards", "penalty", "decided_by"} <= set(header)
    assert {r["boards"] for r in _csv(event.slug)} == {"1"}
