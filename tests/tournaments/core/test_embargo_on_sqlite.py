"""The embargo's reads run on the embedded default too (SQLite, `make demo`): the boards each
table finished, which the big screen reads while a round is in play, come from one compound
query that SQLite takes (it refuses an ORDER BY inside a UNION's parts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.paths import ROOT_DIR, site_env

SCRIPT = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.test import Client
from tests.factories import bot_record, duplicate_round
from tournaments.core.embargo import finished_boards
from tournaments.models import Round, RoundState
from tournaments.tables.submission import game_submit
event, round_, tables, boards = duplicate_round(tables=2, boards=2, seed="sqlite")
Round.objects.filter(pk=round_.pk).update(state=RoundState.IN_PLAY)
game_submit(table=tables[0], board=boards[0], record=bot_record(boards[0], tables[0]))
finished = finished_boards(round_)
screen = Client(SERVER_NAME="localhost").get(f"/events/{event.slug}/screen/")
print(json.dumps({
    "finished": {str(t): sorted(b) for t, b in finished.items()},
    "expected": {str(tables[0].pk): [boards[0].pk]},
    "screen": screen.status_code,
}))
"""


def test_the_boards_each_table_finished_are_read_on_sqlite(tmp_path: Path) -> None:
    env = site_env()
    env.update(
        DJANGO_SETTINGS_MODULE="ddz_site.settings",
        DJANGO_DEBUG="true",
        DDZ_SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["finished"] == answer["expected"]
    assert answer["screen"] == 200
