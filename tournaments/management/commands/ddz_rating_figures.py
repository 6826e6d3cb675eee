"""`manage.py ddz_rating_figures`: the duplicate-aware rating on a simulated field of known
strengths (tournaments.ratings.sim), against the rating from table results alone.

Prints JSON: per kind of skill ("both": auction and play; "play": the play alone), the Kendall tau-b
of each rating's order against the true order after the last event, per seed and their mean:

    {"field": {"players", "levels", "events", "rounds", "boards", "games"},
     "kinds": {"both": {"duplicate": [..], "baseline": [..],
                        "duplicate_mean", "baseline_mean"}, ...}}

The same figures on any machine (seeded). No database is used.
"""

from __future__ import annotations

import json
import statistics
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.ratings import sim


class Command(BaseCommand):
    help = "Kendall tau of the duplicate rating and of the table-results rating on a simulation."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 (default 5)")
        parser.add_argument("--events", type=int, default=8)
        parser.add_argument("--kinds", default="both,play")

    def handle(self, *args: Any, **options: Any) -> None:
        out: dict[str, Any] = {"kinds": {}}
        for kind in options["kinds"].split(","):
            figures = [
                sim.figures(kind=kind, events=options["events"], seed=seed)
                for seed in range(options["seeds"])
            ]
            first = figures[0]
            out["field"] = {
                "players": first.players,
                "levels": first.levels,
                "events": first.events,
                "rounds": first.rounds,
                "boards": first.boards,
                "games": first.games,
            }
            duplicate = [round(f.duplicate, 3) for f in figures]
            baseline = [round(f.baseline, 3) for f in figures]
            out["kinds"][kind] = {
                "duplicate": duplicate,
                "baseline": baseline,
                "duplicate_mean": round(statistics.mean(f.duplicate for f in figures), 3),
                "baseline_mean": round(statistics.mean(f.baseline for f in figures), 3),
            }
        self.stdout.write(json.dumps(out))
