"""`manage.py ddz_seating --players N --rounds R [--seed S] [--clubs CSV] [--steps N]
[--seats K]`: a movement for players numbered 1..N (tournaments.seating.movements.movement), as
JSON:
``{"rounds", "sit_out", "repeat_pairs", "lower_bound", "seat_imbalance", "club_conflicts",
"club_lower_bound", "optimal", "method"}`` (the bounds proved: by counting, and for a small
field by the exact search, tournaments.seating.exact). ``--clubs`` names a CSV file of
``player,club`` rows (player numbers 1..N, a header row). ``--steps`` bounds the search (the
same arguments give the same movement on any machine); the older ``--time-limit SEC`` still
works and means SEC × STEPS_PER_SECOND steps.
Bad input: exit 2 with a one-line message."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.seating import movements
from tournaments.seating import schedule as seating_schedule
from tournaments.seating import search as seating_search

# What --time-limit SEC means since the search counts steps instead of seconds: its old
# default, 5 s, is the default budget.
STEPS_PER_SECOND = seating_search.SEARCH_STEPS // 5


def read_clubs(path: str, players: int) -> dict[int, str]:
    """``player,club`` rows of a CSV file → {player: club}.

    Raises:
        CommandError: an unreadable file, a player outside 1..N, a row without two fields.
    """
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror}", returncode=2) from None
    clubs: dict[int, str] = {}
    for line, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or (line == 1 and row[0].strip().lower() == "player"):
            continue
        if len(row) != 2 or not row[0].strip().isdigit():
            raise CommandError(f"{path}:{line}: expected player,club", returncode=2)
        number = int(row[0])
        if not 1 <= number <= players:
            raise CommandError(
                f"{path}:{line}: no player {number} among 1..{players}", returncode=2
            )
        clubs[number] = row[1].strip()
    return clubs


class Command(BaseCommand):
    help = "Print a movement for players 1..N over R rounds as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", default="0")
        parser.add_argument("--clubs", default=None, help="CSV file of player,club")
        parser.add_argument(
            "--steps",
            type=int,
            default=None,
            help=f"the search's budget in steps (default {seating_search.SEARCH_STEPS})",
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=None,
            dest="time_limit",
            help=f"deprecated: SEC × {STEPS_PER_SECOND} steps",
        )
        parser.add_argument("--seats", type=int, default=3, help="players per table (2 to 5)")

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds = options["players"], options["rounds"]
        steps = options["steps"]
        if options["time_limit"] is not None:
            if steps is not None:
                raise CommandError("give --steps or --time-limit, not both", returncode=2)
            if not 0 <= options["time_limit"] <= 3600:
                raise CommandError("--time-limit is 0 to 3600 seconds", returncode=2)
            steps = round(options["time_limit"] * STEPS_PER_SECOND)
        if steps is None:
            steps = seating_search.SEARCH_STEPS
        if steps < 0:
            raise CommandError("--steps must not be negative", returncode=2)
        clubs = read_clubs(options["clubs"], players) if options["clubs"] else None
        try:
            schedule = movements.movement(
                players,
                rounds,
                seats=options["seats"],
                seed=options["seed"],
                clubs=clubs,
                steps=steps,
            )
        except seating_schedule.SeatingError as exc:
            raise CommandError(str(exc), returncode=2) from None
        self.stdout.write(json.dumps(schedule.to_dict()))
