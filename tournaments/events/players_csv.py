"""Players and teams of an event as CSV: import with a preview, and export.

Vocabulary: a *players file* is CSV (UTF-8, comma separated, a header row) with the columns
``name`` (required), ``club``, ``external_id`` (a federation or club number, unique among
players), ``team`` (the team's name in this event; empty for none) and ``categories`` (the
event's categories the player is ranked in, separated by ``;``; optional), in any order. The
*preview* checks every row and says, row by row, what is wrong or what would happen (a new
player, an existing one, his club changed). The *import* writes only when no row is wrong:
all rows in one transaction, or nothing.

*Identity*: a row is the stored player with its external id when it gives one (an external id
names one player site-wide; a player of the row's name without an external id and in no other
event is given it), else the player of exactly its name (the one entered in this event, else
the only one so named, else the only one so named without an external id). Names are unique
within an event, not site-wide: two people of one name are told apart by external id.

Each row is an accepted registration (tournaments.models.Registration, as
tournaments.people.registration accepts one: the event's limit of places holds, the categories
are the event's) and enters the player in the event (tournaments.models.Entry), creating him when
he is new and filling in an empty club or external id of a player who is in no other event; a team
is created when its name is new, and the player added to it. A row never silently changes a
player who plays in other events: a club or an external id that differs from his stored one
(a blank one included) is a row error. Importing the same
rows again changes nothing (and records nothing).

The export writes a cell a spreadsheet would run as a formula with a leading apostrophe
(ddz_site.kernel.spreadsheet.spreadsheet_cell), and the import takes that apostrophe off again
(spreadsheet_text), so an exported file imports back unchanged.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ddz_site.kernel.spreadsheet import spreadsheet_cell, spreadsheet_text
from ddz_site.kernel.text import has_invisible
from tournaments.core.access import Actor, AdministrationRefused, organizer_lock
from tournaments.core.audit import audit_record
from tournaments.core.rules import rules_of
from tournaments.models import (
    Entry,
    Event,
    EventFormat,
    Player,
    Registration,
    RegistrationStatus,
    Team,
)

COLUMNS = ("name", "club", "external_id", "team")
# Read when present, written when the event has categories (an export of an event without
# them is the four columns above).
OPTIONAL = ("categories",)
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
    categories: list[str] = field(default_factory=list)
    action: str = ""
    errors: list[str] = field(default_factory=list)
    player_id: int | None = None  # the stored player the row is; None for a new one
    updates: dict[str, str] = field(default_factory=dict)  # his fields the import fills in


@dataclass
class Preview:
    """The check of a whole file: file-level ``problems`` and the ``rows``."""

    rows: list[PreviewRow]
    problems: list[str] = field(default_factory=list)
    header: list[str] = field(default_factory=list)

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
            ngettext(
                "Nothing was imported: %(n)s problem in the file.",
                "Nothing was imported: %(n)s problems in the file.",
                preview.error_count,
            )
            % {"n": preview.error_count}
        )
        self.preview = preview


def _read(text: str) -> tuple[list[str], list[tuple[int, list[str]]], list[str]]:
    text = text.lstrip("\ufeff")
    # strict: an unclosed quote is an error, not a field swallowing the rest of the file.
    reader = csv.reader(io.StringIO(text), strict=True)
    problems: list[str] = []
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error as exc:
        after = rows[-1][0] if rows else 0
        if "unexpected end of data" in str(exc):
            message = _(
                'A quote (") opened on line %(line)s is never closed: close it, or remove it.'
            ) % {"line": after + 1}
        else:
            message = _("The file is not CSV: %(error)s (line %(line)s).") % {
                "error": exc,
                "line": reader.line_num,
            }
        return [], [], [message]
    rows = [(n, r) for n, r in rows if any(c.strip() for c in r)]
    if not rows:
        return [], [], [_("The file is empty.")]
    if len(rows) == 1:
        problems.append(_("The file has a header line but no player rows."))
    header = [_ALIASES.get(h.strip().lower(), h.strip().lower()) for h in rows[0][1]]
    unknown = [h for h in header if h not in COLUMNS + OPTIONAL]
    if unknown:
        problems.append(
            _("Unknown columns: %(columns)s (the columns are %(known)s).")
            % {"columns": ", ".join(unknown), "known": ", ".join(COLUMNS + OPTIONAL)}
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
        values = {h: spreadsheet_text(c.strip()) for h, c in zip(header, cells, strict=True)}
        # No database text holds NUL: such a cell is a row error, shown with U+FFFD in its
        # place (which the checks below may look up safely).
        with_nul = [h for h in COLUMNS if "\x00" in values.get(h, "")]
        values = {h: v.replace("\x00", "\ufffd") for h, v in values.items()}
        row = PreviewRow(
            line,
            values.get("name", ""),
            values.get("club", ""),
            values.get("external_id", ""),
            values.get("team", ""),
        )
        row.categories = _categories(event, values.get("categories", ""), row.errors)
        for column in with_nul:
            row.errors.append(_("%(column)s holds a NUL character.") % {"column": column})
        for column in (h for h in COLUMNS if has_invisible(values.get(h, ""))):
            row.errors.append(
                _("%(column)s holds invisible characters (such as a zero-width space).")
                % {"column": column}
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
    problems += _limit_problems(event, rows)
    return Preview(rows, problems, header)


def _categories(event: Event, cell: str, errors: list[str]) -> list[str]:
    """The event's categories a row's ``categories`` cell names (separated by ``;`` or ``,``,
    any case), in the event's order; a row error for any other."""
    known = {str(c).casefold(): c for c in event.categories}
    named = [c.strip() for c in cell.replace(",", ";").split(";") if c.strip()]
    unknown = [c for c in named if c.casefold() not in known]
    if unknown:
        errors.append(
            _("No category %(unknown)s in this event; its categories: %(known)s.")
            % {
                "unknown": ", ".join(unknown),
                "known": ", ".join(event.categories) or _("none"),
            }
        )
    chosen = {known[c.casefold()] for c in named if c.casefold() in known}
    return [c for c in event.categories if c in chosen]


def _limit_problems(event: Event, rows: list[PreviewRow]) -> list[str]:
    """The event's limit of places, as registration keeps it: the rows not accepted already
    may not bring the accepted entries beyond it."""
    limit = event.registration_limit
    if limit is None:
        return []
    accepted = set(
        Registration.objects.filter(
            event=event, status=RegistrationStatus.ACCEPTED, player__isnull=False
        ).values_list("player_id", flat=True)
    )
    new = sum(1 for r in rows if r.player_id is None or r.player_id not in accepted)
    if len(accepted) + new <= limit:
        return []
    over = len(accepted) + new - limit
    return [
        ngettext(
            "The file would bring the accepted entries to %(total)s; the event has %(limit)s "
            "places: raise the limit or remove %(over)s row.",
            "The file would bring the accepted entries to %(total)s; the event has %(limit)s "
            "places: raise the limit or remove %(over)s rows.",
            over,
        )
        % {"total": len(accepted) + new, "limit": limit, "over": over}
    ]


class _Stored(NamedTuple):
    """The stored players the rows of a file may be, read once for all its rows."""

    by_name: dict[str, list[Player]]  # the players of each row's exact name, oldest first
    by_id: dict[str, Player]  # the players of the rows' external ids
    entered: dict[str, Player]  # the players entered in the event, by name
    entered_folded: dict[str, Player]  # the same, by name casefolded
    elsewhere: set[int]  # which of the above are entered in other events


def _stored_players(event: Event, rows: list[PreviewRow]) -> _Stored:
    by_name: dict[str, list[Player]] = defaultdict(list)
    for p in Player.objects.filter(name__in=[r.name for r in rows if r.name]).order_by("pk"):
        by_name[p.name].append(p)
    by_id = {
        p.external_id: p
        for p in Player.objects.filter(
            external_id__in=[r.external_id for r in rows if r.external_id]
        )
    }
    entered = {
        e.player.name: e.player for e in Entry.objects.filter(event=event).select_related("player")
    }
    candidates = {p.pk for ps in by_name.values() for p in ps} | {p.pk for p in by_id.values()}
    elsewhere = set(
        Entry.objects.filter(player_id__in=candidates)
        .exclude(event=event)
        .values_list("player_id", flat=True)
    )
    folded = {name.casefold(): player for name, player in entered.items()}
    return _Stored(by_name, by_id, entered, folded, elsewhere)


def _check_across(event: Event, rows: list[PreviewRow]) -> None:
    """Duplicates within the file, and which stored player each row is (see the module)."""
    names = Counter(r.name.casefold() for r in rows if r.name)
    ids = Counter(r.external_id for r in rows if r.external_id)
    stored = _stored_players(event, rows)
    for row in rows:
        if row.errors or not row.name:
            continue
        _check_row(row, names, ids, stored)
    if event.format in (EventFormat.TEAM_OF_THREE, EventFormat.TEAM_MATCH):
        _check_teams(event, rows)


def _check_row(row: PreviewRow, names: Counter[str], ids: Counter[str], stored: _Stored) -> None:
    """One row's duplicates in the file (`names` casefolded and `ids` count them), then its
    stored player and what the import would do to him."""
    if names[row.name.casefold()] > 1:
        row.errors.append(_("%(name)s appears twice in the file.") % {"name": row.name})
    if row.external_id and ids[row.external_id] > 1:
        row.errors.append(
            _("External id %(id)s appears twice in the file.") % {"id": row.external_id}
        )
    player = _identify(
        row, stored.by_name.get(row.name, []), stored.by_id, stored.entered, stored.elsewhere
    )
    if row.errors:
        return
    same_name = stored.entered.get(row.name)
    alike = stored.entered_folded.get(row.name.casefold())
    if alike is not None and alike.name != row.name and (player is None or player.pk != alike.pk):
        row.errors.append(
            _(
                "%(name)s differs from %(other)s, entered in this event, only by its capitals: "
                "write %(other)s for that player, or another name for another."
            )
            % {"name": row.name, "other": alike.name}
        )
        return
    if same_name is not None and (player is None or player.pk != same_name.pk):
        row.errors.append(
            _(
                "Another player named %(name)s (external id %(id)s) is entered in this "
                "event: names are unique within an event."
            )
            % {"name": row.name, "id": same_name.external_id or "—"}
        )
        return
    if player is None:
        row.action = "new"
        return
    _compare_with_stored(row, player, player.pk in stored.elsewhere)


def _compare_with_stored(row: PreviewRow, player: Player, plays_elsewhere: bool) -> None:
    """The fields the import would fill in for the row's stored `player`, and the action; a
    row error instead when that would change a player of other events."""
    row.player_id = player.pk
    if row.external_id and not player.external_id:
        row.updates["external_id"] = row.external_id
    if row.club and row.club != player.club:
        if plays_elsewhere:
            # Another event's roster names him with his club (or none): changing it here,
            # even filling in a blank, would silently change that event's player too.
            row.errors.append(
                _(
                    "%(name)s plays for %(club)s in other events; this row says "
                    "%(row_club)s. Correct the row (or the player, in the admin)."
                )
                % {"name": row.name, "club": player.club or _("no club"), "row_club": row.club}
            )
            return
        row.updates["club"] = row.club
    if row.updates and plays_elsewhere and "external_id" in row.updates:
        row.errors.append(
            _(
                "%(name)s is in other events without an external id; this row gives "
                "%(id)s. Give him his external id in the admin first, or leave it empty."
            )
            % {"name": row.name, "id": row.external_id}
        )
        return
    row.action = "update" if row.updates else "existing"


def _check_teams(event: Event, rows: list[PreviewRow]) -> None:
    """In a team event every row names a team, and no team grows beyond a table's seats."""
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


def _identify(
    row: PreviewRow,
    named: list[Player],
    by_id: dict[str, Player],
    entered: dict[str, Player],
    elsewhere: set[int],
) -> Player | None:
    """The stored player a row is, None for a new one; appends to ``row.errors`` when it
    cannot tell. By external id when the row gives one, else by exact name: the one entered
    in this event, else the only player of that name, else the only one of that name
    without an external id."""
    if row.external_id:
        owner = by_id.get(row.external_id)
        if owner is not None:
            if owner.name != row.name:
                row.errors.append(
                    _("External id %(id)s belongs to %(other)s.")
                    % {"id": row.external_id, "other": owner.name}
                )
            return owner
        # A player of this name without an external id, in no other event, is given it;
        # anyone else of this name is another person.
        bare = [p for p in named if not p.external_id]
        if len(bare) == 1 and bare[0].pk not in elsewhere:
            return bare[0]
        if len(bare) == 1 and entered.get(row.name) == bare[0]:
            return bare[0]
        return None
    if row.name in entered:
        return entered[row.name]
    if len(named) == 1:
        return named[0]
    bare = [p for p in named if not p.external_id]
    if len(bare) == 1:
        return bare[0]
    if named:
        row.errors.append(
            _("%(n)s players are named %(name)s: give this one's external id.")
            % {"n": len(named), "name": row.name}
        )
    return None


def _entered(event: Event, player: Player, row: PreviewRow, with_categories: bool) -> int:
    """Enter ``player`` with an accepted registration (his categories from the row when the
    file has the column); how many rows it wrote."""
    entry, created = Entry.objects.get_or_create(event=event, player=player)
    changed = int(created)
    if with_categories and entry.categories != row.categories:
        Entry.objects.filter(pk=entry.pk).update(categories=row.categories)
        changed += 1
    registration = Registration.objects.filter(event=event, player=player).first()
    if registration is None:
        Registration.objects.create(
            event=event,
            player=player,
            name=player.name,
            club=player.club,
            email=player.email,
            categories=entry.categories if not with_categories else row.categories,
            status=RegistrationStatus.ACCEPTED,
            decided_at=timezone.now(),
        )
        return changed + 1
    if registration.status != RegistrationStatus.ACCEPTED or (
        with_categories and registration.categories != row.categories
    ):
        Registration.objects.filter(pk=registration.pk).update(
            status=RegistrationStatus.ACCEPTED,
            decided_at=timezone.now(),
            categories=row.categories if with_categories else registration.categories,
        )
        changed += 1
    return changed


def players_csv_import(*, event: Event, text: str, actor: Actor) -> Preview:
    """Import a players file into ``event``: every row, or (when any row is wrong) none.

    Returns the preview of what was done.

    Raises:
        tournaments.core.access.NotOrganizer; CsvRejected: any problem (its ``preview`` says which).
    """
    with transaction.atomic():
        organizer_lock(event, actor)
        preview = players_csv_preview(event=event, text=text)
        if not preview.ok:
            raise CsvRejected(preview)
        teams: dict[str, Team] = {}
        changed = 0
        for row in preview.rows:
            if row.player_id is None:
                player = Player.objects.create(
                    name=row.name, club=row.club, external_id=row.external_id
                )
                changed += 1
            else:
                player = Player.objects.get(pk=row.player_id)
                if row.updates:
                    for column, value in row.updates.items():
                        setattr(player, column, value)
                    player.save(update_fields=list(row.updates))
                    changed += 1
            changed += _entered(event, player, row, "categories" in preview.header)
            if row.team:
                if row.team not in teams:
                    teams[row.team], new = Team.objects.get_or_create(event=event, name=row.team)
                    changed += new
                if not teams[row.team].members.filter(pk=player.pk).exists():
                    teams[row.team].members.add(player)
                    changed += 1
        if not changed:
            # The same roster again: nothing to do, nothing to record.
            return preview
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
    with_categories = bool(event.categories)
    writer.writerow(COLUMNS + OPTIONAL if with_categories else COLUMNS)
    for entry in (
        Entry.objects.filter(event=event).select_related("player").order_by("player__name")
    ):
        p = entry.player
        cells = [p.name, p.club, p.external_id, team_of.get(p.pk, "")]
        if with_categories:
            cells.append(";".join(entry.categories))
        writer.writerow([spreadsheet_cell(v) for v in cells])
    return out.getvalue()
