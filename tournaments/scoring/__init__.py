"""Duplicate scoring, pure: no Django, no database.

- *methods*: matchpoints, datum (IMP-free differences), two-table net and team board scores
  from the *seat results* of one board (SeatResult: board, table, seat, player, score).
- *ranking*: standings from board points, rank labels ("2="), tie-breaks and the lot.
- *outliers*: results far from the field on a board, for the chief referee.
- *cli*: `python -m tournaments.scoring FILE` (DESIGN.md's command line).
"""
