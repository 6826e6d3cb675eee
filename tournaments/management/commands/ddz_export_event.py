"""`manage.py ddz_export_event EVENT [--output FILE]`: the whole event as a JSON archive."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.archive.event_archive import event_export
from tournaments.events import selectors


class Command(BaseCommand):
    help = "Write the whole event (boards, seating, records, adjustments, standings) as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="event name or slug")
        parser.add_argument("--output", "-o", default="-", help="file to write, - for stdout")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["event"]
        event = selectors.event_named(name)
        if event is None:
            raise CommandError(f"no event named {name!r}", returncode=2)
        text = json.dumps(event_export(event=event), ensure_ascii=False, indent=1)
        if options["output"] == "-":
            self.stdout.write(text)
            return
        try:
            with open(options["output"], "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            raise CommandError(f"cannot write {options['output']}: {exc}", returncode=2) from None
