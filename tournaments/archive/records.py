"""Import of game records (RECORDS.md §1, one JSON object per line) into an event.

The same deal met twice is the same board (games.notation.deal_key), so games of one deal at
several tables line up on one traveller. Every line is one transaction: a bad line is reported
with its line number (counted from 1) and nothing of it is stored. A record already stored in
the event (same id, same content) is skipped, so importing a file twice stores it once; a
different record under an id already stored is rejected, never silently dropped. A record whose
rules the engine does not know is rejected: without them its seats cannot even be read. Each
game goes through tournaments.tables.submission.game_submit, the one write path.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ddz_site.kernel.errors import DomainError
from games.engine import EngineError, RecordError, RuleSet, read_record
from games.models import Board, Game
from games.notation import deal_key
from games.records import GameRejected, refuse_unstorable
from tournaments.events.boards import board_create
from tournaments.models import Event, Round, Table
from tournaments.tables.submission import game_submit


@dataclass
class ImportReport:
    """What an import did: line counts and one (line number, message) per rejected line."""

    lines: int = 0
    stored: int = 0
    skipped: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)
    game_ids: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "lines": self.lines,
            "stored": self.stored,
            "skipped": self.skipped,
            "rejected": [{"line": n, "error": msg} for n, msg in self.rejected],
        }


def _parse_line(text: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameRejected(_("not JSON: %(error)s") % {"error": exc.msg}) from None
    except (RecursionError, ValueError):
        # Nested deeper than the recursion limit, or a number longer than int() converts.
        raise GameRejected(_("not JSON: nested too deeply or a number too long")) from None
    if not isinstance(obj, dict):
        raise GameRejected(_("a game record must be a JSON object"))
    refuse_unstorable(obj)
    try:
        read_record(obj)
    except RecordError as exc:
        raise GameRejected(_("not a game record: %(error)s") % {"error": exc}) from None
    except EngineError:
        pass  # stored, and flagged by the verifier
    try:
        RuleSet.from_spec(obj.get("rules", "classic"))
    except EngineError as exc:
        raise GameRejected(_("unknown rules: %(error)s") % {"error": exc}) from None
    return obj


def _board_for(event: Event, record: dict[str, Any]) -> Board:
    hands = record.get("hands")
    bottom = record.get("bottom")
    first = record.get("first_bidder") or ""
    if not isinstance(hands, dict) or not isinstance(bottom, str):
        raise GameRejected(_("the record has no deal (hands and bottom cards)"))
    try:
        key = deal_key(hands=hands, bottom=bottom, first_bidder=first)
    except EngineError as exc:
        raise GameRejected(_("the deal is not card notation: %(error)s") % {"error": exc}) from None
    board = Board.objects.filter(event=event, deal_key=key).first()
    if board is None:
        aside, marked = record.get("aside"), record.get("marked")
        board = board_create(
            event=event,
            hands=hands,
            bottom=bottom,
            first_bidder=first,
            aside=aside if isinstance(aside, str) else "",
            marked=marked if isinstance(marked, str) else "",
        )
    return board


def records_import(*, event: Event, lines: Iterable[str]) -> ImportReport:
    """Import JSON lines of records into `event` (see the module docstring).

    Games are stored at round 1 of the event, at table k for the k-th game of a board.
    """
    report = ImportReport()
    round_, _created = Round.objects.get_or_create(event=event, number=1)
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        report.lines += 1
        try:
            with transaction.atomic():
                record = _parse_line(text)
                record_id = str(record.get("id") or "")
                same_id = (
                    Game.objects.filter(
                        board__event=event, record_id=record_id, replaced_at__isnull=True
                    ).values_list("record", flat=True)
                    if record_id
                    else []
                )
                if any(stored == record for stored in same_id):
                    report.skipped += 1
                    continue
                if same_id:
                    raise GameRejected(
                        _("a different game with the id %(id)s is already stored in %(event)s")
                        % {"id": record_id, "event": event}
                    )
                board = _board_for(event, record)
                played = board.games.filter(replaced_at__isnull=True).count()
                table, _new = Table.objects.get_or_create(round=round_, number=played + 1)
                game = game_submit(table=table, board=board, record=record)
        except DomainError as exc:
            report.rejected.append((number, exc.message))
            continue
        report.stored += 1
        report.game_ids.append(game.pk)
    return report
