"""The embedded default (SQLite, `make demo`) takes results entered at the same moment.

Quick results sent at once to the demo are all stored, never answered 503 "the site's database
cannot be reached". SQLite lets one writer in at a time; a transaction that reads first and
writes after (every submission) waits its turn instead of being refused at once ("database is
locked"). Run in a subprocess on a fresh SQLite
file with the site's own settings (no DATABASE_URL), the way `make demo` runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT_DIR

ROOT = ROOT_DIR

SCRIPT = r"""
import json, threading
from django.db import connections
from games.models import Game
from tests.factories import bot_record, duplicate_round
from tournaments.tables.submission import game_submit

event, _round, tables, boards = duplicate_round(tables=4, boards=2, seed="sqlite-burst")
jobs = [(t, b) for t in tables for b in boards]
start, errors = threading.Barrier(len(jobs)), []

def submit(table, board):
    try:
        record = bot_record(board, table)
        start.wait()
        game_submit(table=table, board=board, record=record)
    except Exception as exc:  # reported, not raised: the count is the assertion
        errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        connections.close_all()

threads = [threading.Thread(target=submit, args=job) for job in jobs]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"stored": Game.objects.count(), "errors": errors}))
"""


@pytest.mark.slow
def test_results_entered_at_the_same_moment_are_all_stored_on_sqlite(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="ddz_site.settings", DDZ_SQLITE_PATH=str(tmp_path / "db"))
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True)
    done = subprocess.run(
        [*manage, "shell", "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"stored": 8, "errors": []}
