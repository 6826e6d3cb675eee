"""An event that seats nobody (imported games only) says there is nothing to rank instead of
waiting for standings, in English and in Chinese; a seated event without results still
waits for them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.factories import duplicate_round
from tests.paths import DATA_DIR
from tournaments.models import Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

DATA = DATA_DIR / "rlcard_rule_agents.jsonl"
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


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
