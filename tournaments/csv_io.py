"""Players and teams of an event as CSV: import with a preview, and export.

Vocabulary: a *players file* is CSV (UTF-8, comma separated, a header row) with the columns
``name`` (required), ``club``, ``external_id`` (a federation or club number, unique among
players) and ``team`` (the team's name in this event; empty for none), in any order. The
*preview* checks every row and says, row by row, what is wrong or what would happen (a new
player, an existing one, his club changed). The *import* writes only when no row is wrong:
all rows in one transaction, or nothing.

Each row enters the player in the event (tournaments.models.Entry), creating him when his name
is new and filling in his club and external id; a team is created when its name is new, and
the player added to it.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.audit import audit_record
from tournaments.models import Entry, Event, EventFormat, Player, Team
from tournaments.rounds import AdministrationRefused, organizer_lock, rules_of

COLUMNS = ("name", "club", "external_id", "team")
_ALIASES = {"external id": "external_id", "externalid": "external_id", "id": "external_id"}
MAX_ROWS = 5000
LIMITS = {"name": 120, "club": 120, "external_id": 64, "team": 120}


@dataclass
class PreviewRow:
    """One data row: its ``line`` in the file, values, what it would do (``action``: "new",
    "existing", "update") and its ``errors`` (messages; empty when the row is fine)."""

    line: int
    name: str
    club: str
    external_id: str
    team: str
    action: str = ""
    errors: list[str] = field(default_factory=list)


@dataclass
class Preview:
    """The check of a whole file: file-level ``problems`` and the ``rows``."""

    rows: list[PreviewRow]
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not any(r.errors for r in self.rows) and bool(self.rows)

    @property
    def error_count(self) -> int:
        return len(self.problems) + sum(1 for r in self.rows if r.errors)


class CsvRejected(AdministrationRefused):
    """A players file with errors; ``preview`` says which rows. Nothing was imported."""

    def __init__(self, preview: Preview) -> None:
        super().__init__(
            _("Nothing was imported: %(n)s problems in the file.") % {"n": preview.error_count}
        )
        self.preview = preview


def _read(text: str) -> tuple[list[str], list[tuple[int, list[str]]], list[str]]:
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text))
    problems: list[str] = []
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:
        return [], [], [_("The file is not CSV: %(error)s") % {"error": exc}]
    rows = [(n, r) for n, r in rows if any(c.strip() for c in r)]
    if not rows:
        return [], [], [_("The file is empty.")]
    header = [_ALIASES.get(h.strip().lower(), h.strip().lower()) for h in rows[0][1]]
    unknown = [h for h in header if h not in COLUMNS]
    if unknown:
        problems.append(
            _("Unknown columns: %(columns)s (the columns are %(known)s).")
            % {"columns": ", ".join(unknown), "known": ", ".join(COLUMNS)}
        )
    if "name" not in header:
        problems.append(_("The header has no name column."))
    duplicates = [h for h, n in Counter(header).items() if n > 1]
    if duplicates:
        problems.append(_("Columns named twice: %(columns)s") % {"columns": ", ".join(duplicates)})
    if len(rows) - 1 > MAX_ROWS:
        problems.append(_("At most %(n)s players per file.") % {"n": MAX_ROWS})
    return header, rows[1:], problems


def players_csv_preview(*, event: Event, text: str) -> Preview:
    """Check a players file against ``event`` without writing anything (see the module)."""
    header, data, problems = _read(text)
    if problems:
        return Preview([], problems)
    rows: list[PreviewRow] = []
    for line, cells in data:
        if len(cells) != len(header):
            row = PreviewRow(line, "", "", "", "")
            row.errors.append(
                _("%(found)s fields where the header has %(expected)s.")
                % {"found": len(cells), "expected": len(header)}
            )
            rows.append(row)
            continue
        values = {h: c.strip() for h, c in zip(header, cells, strict=True)}
        row = PreviewRow(
            line,
            values.get("name", ""),
            values.get("club", ""),
            values.get("external_id", ""),
            values.get("team", ""),
        )
        if not row.name:
            row.errors.append(_("The name is empty."))
        for column, limit in LIMITS.items():
            if len(getattr(row, column)) > limit:
                row.errors.append(
                    _("%(column)s is longer than %(n)s characters.")
                    % {"column": column, "n": limit}
                )
        rows.append(row)
    _check_across(event, rows)
    return Preview(rows, problems)


def _check_across(event: Event, rows: list[PreviewRow]) -> None:
    """Duplicates within the file, and agreement with the players already stored."""
    names = Counter(r.name.casefold() for r in rows if r.name)
    ids = Counter(r.external_id for r in rows if r.external_id)
    existing = {p.name: p for p in Player.objects.filter(name__in=[r.name for r in rows])}
    by_id = {
        p.external_id: p
        for p in Player.objects.filter(
            external_id__in=[r.external_id for r in rows if r.external_id]
        )
    }
    for row in rows:
        if row.name and names[row.name.casefold()] > 1:
            row.errors.append(_("%(name)s appears twice in the file.") % {"name": row.name})
        if row.external_id and ids[row.external_id] > 1:
            row.errors.append(
                _("External id %(id)s appears twice in the file.") % {"id": row.external_id}
            )
        player = existing.get(row.name)
        owner = by_id.get(row.external_id)
        if owner is not None and owner.name != row.name:
            row.errors.append(
                _("External id %(id)s belongs to %(other)s.")
                % {"id": row.external_id, "other": owner.name}
            )
        if player and player.external_id and row.external_id != player.external_id:
            row.errors.append(
                _("%(name)s has external id %(id)s already.")
                % {"name": row.name, "id": player.external_id}
            )
        if player is None:
            row.action = "new"
        elif (row.club and row.club != player.club) or (row.external_id and not player.external_id):
            row.action = "update"
        else:
            row.action = "existing"
    if event.format in (EventFormat.TEAM_OF_THREE, EventFormat.TEAM_MATCH):
        k = len(rules_of(event).seats)
        sizes = Counter(r.team for r in rows if r.team)
        current = {
            t.name: set(t.members.values_list("name", flat=True))
            for t in Team.objects.filter(event=event, name__in=list(sizes))
        }
        for row in rows:
            if not row.team:
                row.errors.append(_("Every player of a team event needs a team."))
                continue
            members = current.get(row.team, set()) | {r.name for r in rows if r.team == row.team}
            if len(members) > k:
                row.errors.append(
                    _("Team %(team)s would have %(n)s players; teams here have %(k)s.")
                    % {"team": row.team, "n": len(members), "k": k}
                )


def players_csv_import(*, event: Event, text: str, actor: Any) -> Preview:
    """Import a players file into ``event``: every row, or (when any row is wrong) none.

    Returns the preview of what was done.

    Raises:
        tournaments.rounds.NotOrganizer; CsvRejected: any problem (its ``preview`` says which).
    """
    with transaction.atomic():
        organizer_lock(event, actor)
        preview = players_csv_preview(event=event, text=text)
        if not preview.ok:
            raise CsvRejected(preview)
        teams: dict[str, Team] = {}
        for row in preview.rows:
            player, _created = Player.objects.get_or_create(name=row.name)
            changed = []
            if row.club and row.club != player.club:
                player.club = row.club
                changed.append("club")
            if row.external_id and not player.external_id:
                player.external_id = row.external_id
                changed.append("external_id")
            if changed:
                player.save(update_fields=changed)
            Entry.objects.get_or_create(event=event, player=player)
            if row.team:
                if row.team not in teams:
                    teams[row.team], _new = Team.objects.get_or_create(event=event, name=row.team)
                teams[row.team].members.add(player)
        audit_record(
            event=event,
            actor=actor,
            action="players.import",
            obj=event,
            changes={
                "rows": len(preview.rows),
                "new": [r.name for r in preview.rows if r.action == "new"],
                "teams": sorted(teams),
            },
        )
    return preview


def players_csv_export(*, event: Event) -> str:
    """The players of ``event`` as a players file (the import's columns; one row per entry,
    by name), which imports back unchanged."""
    team_of: dict[int, str] = {}
    for team in Team.objects.filter(event=event).prefetch_related("members"):
        for member in team.members.all():
            team_of[member.pk] = team.name
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for entry in (
        Entry.objects.filter(event=event).select_related("player").order_by("player__name")
    ):
        p = entry.player
        writer.writerow([p.name, p.club, p.external_id, team_of.get(p.pk, "")])
    return out.getvalue()
