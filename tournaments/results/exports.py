"""The event's results as CSV files: the stored standings (standings_rows, standings_csv; the
columns of ``manage.py ddz_standings``, the exact percentage and a decimal one for
spreadsheets) and a player's scorecard (scorecard_csv). Every cell goes through
ddz_site.kernel.spreadsheet, so that no spreadsheet runs a cell as a formula.

A file shows no more than its page: while an online event's window is open
(tournaments.core.embargo.results_sealed) the standings CSV has the columns of its leaderboard
only (STANDINGS_SEALED_FIELDS); a player whose top is 0 (no board of his compared with another
table) has no percentage, as the page shows none.
"""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Any

from ddz_site.kernel.spreadsheet import csv_text
from tournaments.core.embargo import results_sealed
from tournaments.events.selectors import event_standings
from tournaments.models import (
    Event,
    Player,
    Stage,
)
from tournaments.models.standings import compared_with_no_one
from tournaments.results import pages

STANDINGS_FIELDS = [
    "rank",
    "player",
    "total",
    "top",
    "percentage",
    "penalty",
    "boards",
    "decided_by",
]
SCORECARD_FIELDS = ["round", "board", "table", "seat", "role", "score", "points", "top", "adjusted"]


def standings_rows(*, event: Event, stage: Stage | None = None) -> list[dict[str, Any]]:
    """The stored standing rows of the event (or one stage) as plain dicts of
    STANDINGS_FIELDS, exact values as fraction text ("37/2")."""
    return [
        {
            "rank": row.rank,
            "player": row.player.name,
            "total": row.total,
            "top": row.top,
            "percentage": row.percentage,
            "penalty": row.penalty,
            "boards": row.boards,
            "decided_by": row.decided_by,
        }
        for row in event_standings(event=event, stage=stage)
    ]


def standings_rows_decimal(*, event: Event, stage: Stage | None = None) -> list[dict[str, Any]]:
    """standings_rows with `percentage_decimal` (decimal_text of the percentage); a row whose
    top is 0 has an empty percentage (compared with no one: nothing, not 0 %)."""
    rows = standings_rows(event=event, stage=stage)
    for row in rows:
        if compared_with_no_one(row["top"]):
            row["percentage"] = ""
        row["percentage_decimal"] = decimal_text(row["percentage"])
    return rows


def decimal_text(value: object, places: int = 2) -> str | None:
    """An exact value ("775/12", a Fraction) to `places` decimals, rounded half up (away from
    zero): "775/12" → "64.58", "129/2" → "64.50", "1/200" → "0.01"; None and "" → None."""
    if value is None or value == "":
        return None
    exact = Fraction(str(value))
    scale = 10**places
    digits = floor(abs(exact) * scale + Fraction(1, 2))
    sign = "-" if exact < 0 and digits else ""
    whole, part = divmod(digits, scale)
    return f"{sign}{whole}.{part:0{places}d}" if places else f"{sign}{whole}"


# The CSV adds, beside the exact percentage, the same rounded column as `ddz_standings`.
STANDINGS_CSV_FIELDS = [
    "rank",
    "player",
    "total",
    "top",
    "percentage",
    "percentage_decimal",
    "penalty",
    "boards",
    "decided_by",
]


# While an online event's window is open: the columns its leaderboard shows (totals only).
STANDINGS_SEALED_FIELDS = ["rank", "player", "total", "percentage", "percentage_decimal"]


def standings_csv(*, event: Event, stage: Stage | None = None) -> str:
    """The stored standings as CSV with a header line (STANDINGS_CSV_FIELDS): the columns of
    `manage.py ddz_standings --format csv` (``percentage_decimal``: the exact percentage to 2
    places, half up) plus the penalty and the tie-break that decided the row; while `event`'s
    online window is open, STANDINGS_SEALED_FIELDS only. A row whose top is 0 has empty
    percentages (nothing compared: not 0 %)."""
    rows = standings_rows_decimal(event=event, stage=stage)
    if results_sealed(event):
        return csv_text(STANDINGS_SEALED_FIELDS, rows)
    return csv_text(STANDINGS_CSV_FIELDS, rows)


def scorecard_csv(
    *, event: Event, player: Player, visible: set[int] | None, sealed: bool = False
) -> str:
    """A player's scorecard as CSV (SCORECARD_FIELDS); boards the viewer may not see yet
    (`visible`, None for all) keep their place with empty results; `sealed` (an online window
    keeping back from the viewer which boards the player started): the header alone."""
    rows: list[dict[str, Any]] = []
    if sealed:
        return csv_text(SCORECARD_FIELDS, rows)
    for row in pages.player_scorecard(event=event, player=player, visible=visible):
        rows.append(
            {
                "round": row.round.number,
                "board": row.board.number,
                "table": row.table.number,
                "seat": row.seat,
                "role": row.role,
                "score": row.score,
                "points": "" if row.points is None else str(row.points),
                "top": "" if row.top is None else str(row.top),
                "adjusted": row.adjusted,
            }
        )
    return csv_text(SCORECARD_FIELDS, rows)
