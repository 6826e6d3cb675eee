"""The event's archive carries artificial percentages and weighted scores: restored, the event
exports the same archive and scores the same standings; an archive whose weighted score could
not be scored (weights not above 0 or not summing to 1) is refused and stores nothing, and an
archive written before these existed still restores."""

from __future__ import annotations

import copy
import json

import pytest

from games.models import Game, Status
from tests.factories import duplicate_round
from tournaments.archive.event_archive import ArchiveRejected, event_export, event_import
from tournaments.models import Adjustment, Event
from tournaments.standings.cache import stored_rows
from tournaments.standings.results import computed_rows
from tournaments.standings.rulings import adjusted_scores_set, weighted_score_set
from tournaments.standings.store import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive() -> dict:
    event, _round, tables, (board,) = duplicate_round(tables=4, boards=1, seed="archived")
    for table, score in zip(
        tables, [{"S": 3, "E": -6, "W": 3}, {"S": -3, "E": 6, "W": -3}], strict=False
    ):
        Game.objects.create(
            table=table, board=board, record={}, status=Status.VERIFIED, score=score
        )
    adjusted_scores_set(
        table=tables[2], board=board, scores={"S": "61.8%", "E": "38.2%", "W": "avg"}, reason="x"
    )
    weighted_score_set(
        table=tables[3],
        board=board,
        results=[("1/3", {"S": 6, "E": -3, "W": -3}), ("2/3", {"S": -3, "E": 6, "W": -3})],
        reason="a revoke",
    )
    standings_recompute(event_id=event.pk)
    data = json.loads(json.dumps(event_export(event=event), sort_keys=True))
    event.rounds.all().delete()
    event.delete()
    return data


def test_percentages_and_weighted_scores_are_restored_exactly(archive) -> None:
    by_seat = {(a["table"], a["seat"]): a for a in archive["adjustments"]}
    assert by_seat[(3, "S")]["percentage"] == "61.80" and by_seat[(3, "W")]["percentage"] is None
    assert by_seat[(4, "E")]["weighted"] == [
        {"score": -3, "weight": "1/3"},
        {"score": 6, "weight": "2/3"},
    ]
    restored = event_import(data=copy.deepcopy(archive))
    assert json.loads(json.dumps(event_export(event=restored), sort_keys=True)) == archive
    assert stored_rows(event=restored) == computed_rows(event=restored)


@pytest.mark.parametrize(
    "weighted",
    [
        [{"score": 6, "weight": "1/2"}, {"score": -3, "weight": "1/3"}],
        [{"score": 6, "weight": "3/2"}, {"score": -3, "weight": "-1/2"}],
        [{"score": 6, "weight": "1"}, {"score": -3, "weight": "0"}],
        [{"score": "six", "weight": "1"}],
        [{"score": 6}],
        {"score": 6, "weight": "1"},
        [],
    ],
)
def test_a_weighted_score_that_cannot_be_scored_refuses_the_archive(archive, weighted) -> None:
    item = next(a for a in archive["adjustments"] if a["kind"] == "weighted")
    item["weighted"] = weighted
    with pytest.raises(ArchiveRejected, match="damaged"):
        event_import(data=archive)
    assert not Event.objects.exists() and not Adjustment.objects.exists()


def test_possible_results_on_an_adjustment_of_another_kind_refuse_the_archive(archive) -> None:
    item = next(a for a in archive["adjustments"] if a["kind"] == "avg")
    item["weighted"] = [{"score": 6, "weight": "1"}]
    with pytest.raises(ArchiveRejected, match="damaged"):
        event_import(data=archive)
    item["weighted"], item["percentage"] = [], "150.00"
    with pytest.raises(ArchiveRejected):
        event_import(data=archive)
    assert not Event.objects.exists()


def test_an_archive_written_before_percentages_restores(archive) -> None:
    for item in archive["adjustments"]:
        item["kind"] = "avg"
        del item["percentage"], item["weighted"]
    restored = event_import(data=archive)
    rows = list(Adjustment.objects.values_list("kind", "percentage", "weighted"))
    assert rows == [("avg", None, [])] * 6
    # Average: 50 % of the top 2·(4 − 1) = 6.
    totals = {r["player_id"]: r["total"] for r in computed_rows(event=restored)[None]}
    table = restored.rounds.get().tables.get(number=4)
    assert {totals[s.player_id] for s in table.seats.all()} == {"3"}
