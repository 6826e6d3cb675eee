"""`manage.py ddz_table_links EVENT (--round N | --stage N) [--seats] [--hours H] [--site URL]`:
make one private link per table (tournaments.links: the table's referee device) with one seat
link per seat, and print them as JSON:
``{"round": N, "links": [{"table": 1, "url": "/t/…/", "expires": "2025-05-01T18:00:00+00:00"}, …]}``
(``"stage": N`` instead of ``"round"`` for a stage's links); with ``--seats``, the seat links
instead, one line per seat: ``{"round": N, "links": [{"table": 1, "seat": "S", "url": "/s/…/",
"expires": "…"}, …]}``. ``url`` is a path unless ``--site`` gives the site's address. The links
made before for the same round or stage are revoked (seat links with their table's): only the
hashes of the tokens are stored, so this output is the only place the links are seen. Bad
input exits 2 with a one-line message on stderr.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from ddz_site.kernel.errors import DomainError
from tournaments.events import selectors
from tournaments.links import tokens as links_tokens


class Command(BaseCommand):
    help = "Make and print one private link per table of a round (or of a stage)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", help="event name or slug")
        scope = parser.add_mutually_exclusive_group()
        scope.add_argument("--round", type=int, default=None, help="a round's number")
        scope.add_argument("--stage", type=int, default=None, help="a stage's number")
        parser.add_argument(
            "--hours",
            type=int,
            default=links_tokens.DEFAULT_TABLE_HOURS,
            help="hours the links last at most (they end earlier when their round closes)",
        )
        parser.add_argument("--site", default="", help="the site's address, for full URLs")
        parser.add_argument(
            "--seats",
            action="store_true",
            help="print the seat links (one per seat of each table) instead of the table links",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["event"]
        event = selectors.event_named(name)
        if event is None:
            raise CommandError(f"no event named {name!r}", returncode=2)
        round_ = stage = None
        if options["round"] is not None:
            round_ = event.rounds.filter(number=options["round"]).first()
            if round_ is None:
                raise CommandError(f"{event.name} has no round {options['round']}", returncode=2)
        elif options["stage"] is not None:
            stage = event.stages.filter(number=options["stage"]).first()
            if stage is None:
                raise CommandError(f"{event.name} has no stage {options['stage']}", returncode=2)
        else:
            raise CommandError("give --round N or --stage N", returncode=2)
        try:
            made = links_tokens.table_links_make(
                event=event,
                actor=links_tokens.COMMAND_LINE,
                round_=round_,
                stage=stage,
                hours=options["hours"],
            )
        except DomainError as exc:
            raise CommandError(exc.message, returncode=2) from None
        site = options["site"].rstrip("/")
        out: dict[str, Any] = (
            {"round": round_.number}
            if round_ is not None
            else {"stage": stage.number if stage is not None else None}
        )
        if options["seats"]:
            out["links"] = [
                {
                    "table": m.table,
                    "seat": seat,
                    "url": site + url,
                    "expires": m.expires.isoformat(),
                }
                for m in made
                for seat, url in m.seats
            ]
        else:
            out["links"] = [
                {"table": m.table, "url": site + m.url, "expires": m.expires.isoformat()}
                for m in made
            ]
        self.stdout.write(json.dumps(out, ensure_ascii=False))
