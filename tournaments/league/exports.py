"""CSV exports of series standings and of a person's history (public, like the pages).

Exact values are reduced fractions in text ("37/2"), as in the event exports; a cell a
spreadsheet would run as a formula gets a leading apostrophe (exports.spreadsheet_cell).
"""

from __future__ import annotations

from typing import Any

from ddz_site.kernel.spreadsheet import csv_text
from tournaments.league import profiles
from tournaments.models import Player, Series
from tournaments.scoring.methods import format_fraction


def series_csv(*, series: Series) -> str:
    """The series' standings: rank, person id, player, total, events played, then one column
    per event (its slug) with the points she scored there, "*" after the points not among her
    best k (empty where she did not play), and the tie-break that decided the row."""
    table = profiles.series_table(series)
    slugs = [e.slug for e in table.events]
    fields = ["rank", "person_id", "player", "total", "played", *slugs, "decided_by"]
    rows = []
    for line in table.lines:
        row: dict[str, Any] = {
            "rank": line.rank,
            "person_id": None if line.hidden else line.person.pk,
            "player": line.person.name,
            "total": format_fraction(line.total),
            "played": line.played,
            "decided_by": line.decided_by,
        }
        for slug, (points, counted) in zip(slugs, line.points, strict=True):
            row[slug] = (
                None if points is None else format_fraction(points) + ("" if counted else "*")
            )
        rows.append(row)
    return csv_text(fields, rows)


PERSON_FIELDS = [
    "event",
    "club",
    "series",
    "player_id",
    "name",
    "rank",
    "total",
    "percentage",
    "method",
    "mu",
    "sigma",
    "ordinal",
]


def person_csv(*, person: Player) -> str:
    """A person's history, one row per event oldest first (PERSON_FIELDS): the event's slug,
    club and series, the record she played under, her rank, total and percentage, and her
    rating after it when the site has one."""
    rated = {r.event.pk: r for r in profiles.rating_points(person)}
    rows = []
    for p in profiles.person_events(person):
        s, r = p.standing, rated.get(p.event.pk)
        rows.append(
            {
                "event": p.event.slug,
                "club": p.event.club.slug if p.event.club else "",
                "series": p.event.series.slug if p.event.series else "",
                "player_id": p.player.pk,
                "name": p.player.name,
                "rank": s.rank if s else "",
                "total": s.total if s else "",
                "percentage": s.percentage if s else "",
                "method": p.event.scoring_method,
                "mu": r.mu if r else None,
                "sigma": r.sigma if r else None,
                "ordinal": r.ordinal if r else None,
            }
        )
    return csv_text(PERSON_FIELDS, rows)
