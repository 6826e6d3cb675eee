"""`manage.py ddz_standings EVENT [--stage N] [--format json|csv]`: the stored standings of an
event, or of one of its stages.

Exact values stay exact (fraction text such as "775/12"); `percentage_decimal` adds the
percentage to two decimal places, rounded half up ("64.58"), for spreadsheets. `penalty` is the
points taken off the total for the rank and the percentage (none: empty). Output cut short
by its reader (`| head`) ends the command quietly, with status 0.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ddz_site.kernel import spreadsheet
from tournaments.events import selectors
from tournaments.models import Event, Stage
from tournaments.models.standings import compared_with_no_one
from tournaments.results import exports

# `penalty` last (added after the others: a reader of the columns by place keeps them).
FIELDS = [
    "rank",
    "player",
    "total",
    "top",
    "percentage",
    "percentage_decimal",
    "boards",
    "penalty",
]


def standings_rows(event: Event, stage: Stage | None = None) -> list[dict[str, Any]]:
    """The stored standing rows of `event` (or one stage) as plain dicts of FIELDS (exact
    values as fraction text; exports.standings_rows_decimal), an empty value as None: no
    penalty, and no top nor percentage for a player compared with no one."""
    out = []
    for row in exports.standings_rows_decimal(event=event, stage=stage):
        if compared_with_no_one(row["top"]):
            # A top of 0 says nothing either (the pages show "—").
            row["top"] = None
        out.append({k: row[k] if row[k] != "" else None for k in FIELDS})
    return out


class Command(BaseCommand):
    help = "Print the stored standings of an event (by name or slug)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="event name or slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--stage", type=int, default=None, help="a stage's number")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["event"]
        event = selectors.event_named(name)
        if event is None:
            raise CommandError(f"no event named {name!r}", returncode=2)
        stage = None
        if options["stage"] is not None:
            stage = event.stages.filter(number=options["stage"]).first()
            if stage is None:
                raise CommandError(f"{event.name} has no stage {options['stage']}", returncode=2)
        rows = standings_rows(event, stage)
        try:
            self._write(event, rows, options["format"])
        except BrokenPipeError:
            # The reader stopped (`| head`): send what Python still holds to /dev/null, so
            # that nothing complains at exit, and end quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            # A stdout that is not a file (a caller's buffer) has nothing to redirect.
            with contextlib.suppress(OSError, ValueError, AttributeError):
                os.dup2(devnull, sys.stdout.fileno())
            raise SystemExit(0) from None

    def _write(self, event: Event, rows: list[dict[str, Any]], format: str) -> None:
        if format == "csv":
            writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
            writer.writeheader()
            for row in rows:
                writer.writerow(
                    {
                        k: "" if v is None else spreadsheet.spreadsheet_cell(v)
                        for k, v in row.items()
                    }
                )
            self.stdout.flush()  # a closed pipe shows here, not at exit
            return
        self.stdout.write(
            json.dumps(
                {"event": event.name, "method": event.scoring_method, "rows": rows},
                ensure_ascii=False,
            )
        )
        self.stdout.flush()  # a closed pipe shows here, not at exit
