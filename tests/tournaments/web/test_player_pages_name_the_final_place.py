"""A player's own pages (her scorecard, her private link) name her place in the final results
once they are public: after a cut the final's players come first (tournaments.results.prizes,
overall_rows), so a trial's finalist read "Rank 6" on her pages and "1=, Gold" on the prize
list. Her rank in the whole event's standings stays beside it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Board, Game, Status
from tests.tournaments.standings.test_cut_and_swiss_use_stored_rows import _qualifying
from tournaments.events import stages
from tournaments.events.setup import round_seat
from tournaments.models import Event, EventStatus, Player, Prize, Round, StageEntry, Standing
from tournaments.results.prizes import final_results
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db


def _finished_with_a_final():
    """The qualifying stage's first 6 through to a final of one round of two tables, whose
    order reverses the qualifying's at the top; the event finished with a prize for place 1."""
    event, td, qualifying, final, players = _qualifying(tiebreaks=["lot"], cut=6, recomputed=True)
    stages.stage_cut(stage=qualifying, actor=td)
    through = list(
        StageEntry.objects.filter(stage=final).order_by("position").values_list("player", flat=True)
    )
    seated = Player.objects.in_bulk(through)
    order = [[through[5], through[1], through[2]], [through[0], through[3], through[4]]]
    round_ = round_seat(
        event=event, number=2, tables=[[seated[i] for i in table] for table in order]
    )
    Round.objects.filter(pk=round_.pk).update(stage=final)
    board = Board.objects.create(
        event=event, round=round_, number=2, hands={}, bottom="", deal_key="k2"
    )
    tables = list(round_.tables.order_by("number"))
    # The qualifying's 6th wins big at table 1; the qualifying's 1st loses at table 2.
    Game.objects.create(
        table=tables[0],
        board=board,
        record={},
        status=Status.VERIFIED,
        score={"S": 8, "E": -4, "W": -4},
    )
    Game.objects.create(
        table=tables[1],
        board=board,
        record={},
        status=Status.VERIFIED,
        score={"S": -8, "E": 4, "W": 4},
    )
    standings_recompute(event_id=event.pk)
    Prize.objects.create(event=event, category="", place=1, description="Gold")
    Event.objects.filter(pk=event.pk).update(status=EventStatus.FINISHED)
    return Event.objects.get(pk=event.pk), through


def _line(page: str, marker: str) -> str:
    return page.split(f'id="{marker}"', 1)[1].split("</p>", 1)[0]


def test_the_scorecard_names_the_final_place_and_prize_beside_the_whole_events_rank() -> None:
    event, through = _finished_with_a_final()
    # The prize list's places (R-PRIZE-ONE's rankings: the final's players first).
    places = {row.standing.player_id: row for row in final_results(event)[0].rows}
    differ = 0
    for player_id in through:
        whole = Standing.objects.get(event=event, stage__isnull=True, player_id=player_id)
        url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": player_id})
        page = Client().get(url).content.decode()
        final = _line(page, "final-place")
        assert f"Final results: place {places[player_id].place}" in final
        assert ("Gold" in final) == (places[player_id].place == "1")
        assert f"<strong>{whole.rank}</strong>" in _line(page, "standing")
        differ += places[player_id].place != whole.rank
    # The final reorders them: some finalist's two places differ (the trial's contradiction).
    assert differ


def test_no_final_place_before_the_results_are_public() -> None:
    event, td, qualifying, _final, players = _qualifying(tiebreaks=["lot"], cut=6, recomputed=True)
    player = players["t1S"]
    url = reverse("public:scorecard", kwargs={"slug": event.slug, "player_id": player.pk})
    assert 'id="final-place"' not in Client().get(url).content.decode()
