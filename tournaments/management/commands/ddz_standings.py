"""`manage.py ddz_standings EVENT [--stage N] [--format json|csv]`: the stored standings of an
event, or of one of its stages.

Exact values stay exact (fraction text such as "775/12"); `percentage_decimal` adds the
percentage to two decimal places, rounded half up ("64.58"), for spreadsheets. Output cut short
by its reader (`| head`) ends the command quietly, with status 0.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import sys
from fractions import Fraction
from math import floor
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import exports
from tournaments.models import Event
from tournaments.selectors import event_standings

FIELDS = ["rank", "player", "total", "top", "percentage", "percentage_decimal", "boards"]


def decimal_text(value: object, places: int = 2) -> str | None:
    """An exact value ("775/12", a Fraction) to `places` decimals, rounded half up (away from
    zero): "775/12" → "64.58", "129/2" → "64.50", "1/200" → "0.01"; None and "" → None."""
    if value is None or value == "":
        return None
    exact = Fraction(str(value))
    scale = 10**places
    digits = floor(abs(exact) * scale + Fraction(1, 2))
    sign = "-" if exact < 0 and digits else ""
    whole, part = divmod(digits, scale)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


def standings_rows(event: Event) -> list[dict[str, Any]]:
    """The stored standing rows of `event` as plain dicts (exact values as fraction text)."""
    return [
        {
            "rank": row.rank,
            "player": row.player.name,
            "total": row.total,
            "top": row.top or None,
            "percentage": row.percentage or None,
            "boards": row.boards,
        }
        for row in event_standings(event=event)
    ]


class Command(BaseCommand):
    help = "Print the stored standings of an event (by name or slug)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="event name or slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        parser.add_argument("--stage", type=int, default=None, help="a stage's number")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["event"]
        event = Event.objects.filter(name=name).first() or Event.objects.filter(slug=name).first()
        if event is None:
            raise CommandError(f"no event named {name!r}", returncode=2)
        if options["stage"] is not None:
            stage = event.stages.filter(number=options["stage"]).first()
            if stage is None:
                raise CommandError(f"{event.name} has no stage {options['stage']}", returncode=2)
            rows = [
                {k: (v or None) if k in ("top", "percentage") else v for k, v in row.items()}
                for row in exports.standings_rows(event=event, stage=stage)
            ]
            rows = [{k: row[k] for k in FIELDS if k in row} for row in rows]
        else:
            rows = standings_rows(event)
        for row in rows:
            row["percentage_decimal"] = decimal_text(row["percentage"])
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
                writer.writerow({k: "" if v is None else v for k, v in row.items()})
            self.stdout.flush()  # a closed pipe shows here, not at exit
            return
        self.stdout.write(
            json.dumps(
                {"event": event.name, "method": event.scoring_method, "rows": rows},
                ensure_ascii=False,
            )
        )
        self.stdout.flush()  # a closed pipe shows here, not at exit
