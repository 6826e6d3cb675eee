"""Problems a new user found on the public pages: the archive event's empty standings, a
scorecard of a player who never sat in the event, the Chinese words of calls, plays, stages and
the engine's error on a game page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from tests.factories import PlayerFactory, duplicate_round
from tournaments.models import Event

pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parent / "data" / "rlcard_rule_agents.jsonl"
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


@pytest.fixture
def archive(tmp_path: Path) -> Event:
    """An event of three imported real games: boards and games, nobody seated."""
    lines = DATA.read_text(encoding="utf-8").splitlines()[:3]
    path = tmp_path / "three.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    call_command("ddz_import_records", str(path), "--event", "Polish archive")
    return Event.objects.get(name="Polish archive")


def test_an_event_that_seats_nobody_says_so_instead_of_waiting(client, archive) -> None:
    assert archive.boards.count() == 3 and not archive.standings.exists()
    for url in (archive.get_absolute_url(), reverse("public:standings", args=[archive.slug])):
        html = client.get(url).content.decode()
        assert "seats no players, so there is nothing to rank" in html
        assert "listed by board" in html and "No standings yet" not in html
        zh = client.get(url, **ZH).content.decode()
        assert "没有安排选手入座" in zh and "No standings" not in zh


def test_a_seated_event_without_results_still_waits_for_them(client) -> None:
    event, *_ = duplicate_round(tables=1, boards=1, seed="polish-wait")
    html = client.get(event.get_absolute_url()).content.decode()
    assert "No standings yet" in html and "seats no players" not in html


def test_the_scorecard_of_a_player_without_a_seat_in_the_event_is_404(client) -> None:
    event, _round, tables, _boards = duplicate_round(tables=1, boards=1, seed="polish-card")
    seated = tables[0].seats.get(seat="S").player
    stranger = PlayerFactory()
    for player, status in ((seated, 200), (stranger, 404)):
        for name in ("public:scorecard", "public:scorecard_csv"):
            url = reverse(name, kwargs={"slug": event.slug, "player_id": player.pk})
            assert client.get(url).status_code == status, (name, player)
