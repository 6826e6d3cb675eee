"""`manage.py ddz_import_records FILE --event NAME`: load records as boards and games.

Prints a JSON summary on stdout; each rejected line goes to stderr with its line number, and
the exit status is 2 when any line was rejected (the good lines are stored).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.archive.records import ImportReport, records_import
from tournaments.events.setup import EventRejected, event_create
from tournaments.models import Event


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
        created = event is None
        if event is None:
            try:
                event = event_create(name=options["event"], rules=options["rules"])
            except EventRejected as exc:
                raise CommandError(exc.message, returncode=2) from None
        try:
            report = self._import(event, options["file"])
        except CommandError:
            if created:
                event.delete()  # a failed import leaves no empty event behind
            raise
        if created and not report.stored:
            event.delete()
            self.stderr.write(f"nothing was stored, so the event {event.name} was not created")
        for line, message in report.rejected:
            self.stderr.write(f"line {line}: {message}")
        self.stdout.write(json.dumps({"event": event.name, **report.to_dict()}, ensure_ascii=False))
        if report.rejected:
            raise CommandError(
                f"{len(report.rejected)} of {report.lines} lines rejected", returncode=2
            )

    def _import(self, event: Event, path: str) -> ImportReport:
        # Bytes that are not UTF-8 become U+FFFD, so such a line is rejected as not JSON with
        # its number, and the good lines around it still go in.
        try:
            if path == "-":
                lines = (raw.decode("utf-8", "replace") for raw in sys.stdin.buffer)
                return records_import(event=event, lines=lines)
            with open(path, "rb") as fh:
                return records_import(
                    event=event, lines=(raw.decode("utf-8", "replace") for raw in fh)
                )
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}", returncode=2) from None
