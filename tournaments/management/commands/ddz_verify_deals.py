"""`manage.py ddz_verify_deals EVENT --seed HEX`: re-derive every board of an event from the
revealed seed (games.dealing) and compare: ``{"boards": n, "commitment": HEX, "match":
true}``; ``match`` is true when the seed's SHA-256 is the event's published commitment and
every stored board is the one the seed gives. Exit 0 when it matches, 1 when it does not (the
JSON is printed all the same, boards that differ listed in ``"mismatched"``, so that a script
can tell the outcome by the status alone), 2 for bad input."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.dealing import SeedError
from tournaments.events import selectors
from tournaments.events.rounds import event_deals_verify


class Command(BaseCommand):
    help = "Recompute every board of an event from its revealed deal seed and compare."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="event name or slug")
        parser.add_argument("--seed", required=True, help="the revealed seed, 64 hex digits")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["event"]
        event = selectors.event_named(name)
        if event is None:
            raise CommandError(f"no event named {name!r}", returncode=2)
        if not event.deal_commitment:
            raise CommandError(f"{event.name} has no deal commitment", returncode=2)
        try:
            report = event_deals_verify(event=event, seed=options["seed"])
        except SeedError as exc:
            raise CommandError(str(exc), returncode=2) from None
        out = report.to_dict()
        if report.mismatched:
            out["mismatched"] = report.mismatched
        if not report.seed_matches:
            out["seed_matches_commitment"] = False
        self.stdout.write(json.dumps(out))
        if not report.match:
            # manage.py exits with the returncode, after the report above was written.
            raise CommandError("the seed does not match the event's deals", returncode=1)
