"""`manage.py ddz_import_records FILE --event NAME`: load records as boards and games.

Prints a JSON summary on stdout; each rejected line goes to stderr with its line number, and
the exit status is 2 when any line was rejected (the good lines are stored).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.imports import records_import
from tournaments.models import Event
from tournaments.services import EventRejected, event_create


class Command(BaseCommand):
    help = "Load a JSON-lines file of game records (RECORDS.md) into an event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="JSON-lines file of records, - for stdin")
        parser.add_argument("--event", required=True, help="event name (created if new)")
        parser.add_argument(
            "--rules",
            default=None,
            help="rules of a new event (preset name); default: each record its own",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(name=options["event"]).first()
        if event is None:
            try:
                event = event_create(name=options["event"], rules=options["rules"])
            except EventRejected as exc:
                raise CommandError(exc.message, returncode=2) from None
        try:
            if options["file"] == "-":
                report = records_import(event=event, lines=sys.stdin)
            else:
                with open(options["file"], encoding="utf-8") as fh:
                    report = records_import(event=event, lines=fh)
        except OSError as exc:
            raise CommandError(
                f"cannot read {options['file']}: {exc.strerror}", returncode=2
            ) from None
        except UnicodeDecodeError:
            raise CommandError(f"{options['file']} is not UTF-8 text", returncode=2) from None
        for line, message in report.rejected:
            self.stderr.write(f"line {line}: {message}")
        self.stdout.write(json.dumps({"event": event.name, **report.to_dict()}, ensure_ascii=False))
        if report.rejected:
            raise CommandError(
                f"{len(report.rejected)} of {report.lines} lines rejected", returncode=2
            )
