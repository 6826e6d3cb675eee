"""`manage.py ddz_ratings [--full]`: store the duplicate-aware rating now
(tournaments.ratings.service.ratings_recompute: from the first event whose inputs changed, or with
`--full` every rated event from nothing). Prints JSON `{"rows_written": n, "events": m}`."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.ratings import service


class Command(BaseCommand):
    help = "Recompute the duplicate-aware rating (from the first changed event, or --full)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--full", action="store_true", help="rate every event from nothing")

    def handle(self, *args: Any, **options: Any) -> None:
        written = service.ratings_recompute(full=options["full"])
        events = len(service.rated_events())
        self.stdout.write(json.dumps({"rows_written": written, "events": events}))
