"""CSV cells a spreadsheet reads as typed: a cell that a spreadsheet would run as a formula
(starting with =, +, - or @, and not a number) is quoted (spreadsheet_cell), and the text of a
CSV file is written with the site's dialect (csv_text).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

# A spreadsheet (Excel, LibreOffice, Google Sheets) opening a CSV runs a cell that begins with
# one of these as a formula (OWASP "CSV injection"); tab and carriage return because some strip
# them before looking.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A number as the exports write it (an integer, a decimal, an exact fraction such as "-37/2"),
# which a spreadsheet reads as the number it is and must stay so.
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?(?:/\d+)?", re.ASCII)


def _runs_as_formula(text: str) -> bool:
    # Apostrophes first: "'=x" is read back as the escape of "=x" (spreadsheet_text), so it
    # needs an escape of its own for the round trip to give "'=x" again.
    core = text.lstrip("'")
    return core.startswith(_FORMULA_START) and not _NUMBER.fullmatch(core)


def spreadsheet_cell(value: Any) -> Any:
    """A CSV cell that a spreadsheet shows as written instead of running it as a formula.

    Text that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (after any
    apostrophes) gets a leading apostrophe, the spreadsheets' mark of a text cell, unless the
    text is a number (``-6``, ``+6``, ``-1.5``, an exact fraction ``-37/2``), which a
    spreadsheet reads as that number. Anything not ``str`` (int, Decimal, Fraction, None) is
    returned as it is. `spreadsheet_text` undoes it:

    >>> spreadsheet_cell("=1+1"), spreadsheet_cell("-6"), spreadsheet_cell("Ann")
    ("'=1+1", '-6', 'Ann')
    """
    if isinstance(value, str) and _runs_as_formula(value):
        return "'" + value
    return value


def spreadsheet_text(cell: str) -> str:
    """The text that `spreadsheet_cell` wrote as `cell` (a CSV read back, the players import):
    one leading apostrophe less where `spreadsheet_cell` adds one, `cell` itself otherwise.

    >>> spreadsheet_text("'=1+1"), spreadsheet_text("''=1+1"), spreadsheet_text("O'Brien")
    ('=1+1', "'=1+1", "O'Brien")
    """
    if cell.startswith("'") and _runs_as_formula(cell[1:]):
        return cell[1:]
    return cell


def csv_text(fields: Sequence[str], rows: list[dict[str, Any]]) -> str:
    """CSV of ``rows`` under a header of ``fields`` (in that order): None as an empty cell,
    text a spreadsheet would run as a formula kept as text (spreadsheet_cell)."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: "" if row.get(k) is None else spreadsheet_cell(row[k]) for k in fields})
    return out.getvalue()
