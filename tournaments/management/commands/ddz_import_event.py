"""`manage.py ddz_import_event FILE`: restore an event archive made by ddz_export_event.

Prints `{"event": NAME, "slug": SLUG, "boards": n, "games": n}`; a file that is not such an
archive, or an event of the same name already stored, exits 2 and stores nothing.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from tournaments.archive.event_archive import ArchiveRejected, event_import


class Command(BaseCommand):
    help = "Restore an event from its JSON archive (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive, - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            if path == "-":
                data = json.load(sys.stdin)
            else:
                with open(path, encoding="utf-8") as fh:
                    data = json.load(fh)
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}", returncode=2) from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path}: not JSON ({exc.msg})", returncode=2) from None
        except UnicodeDecodeError as exc:
            raise CommandError(
                f"{path}: not UTF-8 (byte {exc.start}); an archive is UTF-8 JSON", returncode=2
            ) from None
        except RecursionError:
            # The parser recurses once per level: no archive nests more than a few levels.
            raise CommandError(
                f"{path}: not an archive (JSON nested too deeply)", returncode=2
            ) from None
        try:
            event = event_import(data=data)
        except ArchiveRejected as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(
            json.dumps(
                {
                    "event": event.name,
                    "slug": event.slug,
                    "boards": event.boards.count(),
                    "games": Game.objects.filter(board__event=event).count(),
                },
                ensure_ascii=False,
            )
        )
