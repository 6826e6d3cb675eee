"""`manage.py ddz_standings EVENT [--stage N] [--format json|csv]`: the stored standings of an
event, or of one of its stages."""

from __future__ import annotations

import csv
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments import exports
from tournaments.models import Event
from tournaments.selectors import event_standings

FIELDS = ["rank", "player", "total", "top", "percentage", "boards"]


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
            rows = [{k: row[k] for k in FIELDS} for row in rows]
        else:
            rows = standings_rows(event)
        if options["format"] == "csv":
            writer = csv.DictWriter(self.stdout, fieldnames=FIELDS, lineterminator="\n")
            writer.writeheader()
            for row in rows:
                writer.writerow({k: "" if v is None else v for k, v in row.items()})
            return
        self.stdout.write(
            json.dumps(
                {"event": event.name, "method": event.scoring_method, "rows": rows},
                ensure_ascii=False,
            )
        )
