"""`manage.py ddz_demo`: build and play a small duplicate event, then import real records.

Nine players, three tables, four rounds of three boards; the movement is the Kirkman triple
system of tournaments.seating (every pair of players meets at exactly one table). The demo
accounts of tournaments.demo_accounts (organizer, chief referee, referee, player) are created
or reset, and their logins printed. The boards
come from a seeded random source; the built-in bot (games.bot) bids and plays every board at
every table; every game goes through games.services.game_submit, the referees' write path,
and Celery verifies it (eagerly in the embedded default, or in a worker). Then the records of
tests/data/*.jsonl are imported into an archive event.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.bot import play_record
from games.engine import RuleSet, deal_random
from games.imports import records_import
from games.models import Game, Status
from games.services import board_create, game_submit
from tournaments.demo_accounts import demo_accounts_ensure
from tournaments.management.commands.ddz_standings import standings_rows
from tournaments.models import Event, Table
from tournaments.seating import SEATS, kirkman_nine
from tournaments.services import event_create, player_get_or_create, round_seat

DEMO_EVENT = "Demo duplicate"
ARCHIVE_EVENT = "Archive of real games"
PLAYERS = ["Ann", "Bo", "Chen", "Dana", "Eli", "Fang", "Gus", "Hui", "Ivo"]
BOARDS_PER_ROUND = 3


def _wait_verified(event: Event, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while Game.objects.filter(board__event=event, status=Status.PENDING).exists():
        if time.monotonic() > deadline:
            raise CommandError(
                "games are still pending: is a Celery worker running for CELERY_BROKER_URL?"
            )
        time.sleep(0.2)


def _wait_standings(event: Event, timeout: float) -> None:
    """Wait until the stored standings reflect every verified game (the last recompute ran)."""
    from tournaments.selectors import event_computed_standings

    deadline = time.monotonic() + timeout
    while True:
        stored = [(r.player_id, r.rank, r.total) for r in event.standings.order_by("position")]
        computed = [(r.player, r.rank, str(r.total)) for r in event_computed_standings(event=event)]
        if stored == computed:
            return
        if time.monotonic() > deadline:
            raise CommandError("the standings were not recomputed in time")
        time.sleep(0.2)


class Command(BaseCommand):
    help = "Build and play the demo duplicate event, then import the sample of real records."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", default="ddz-demo-2024", help="seed of deals and bots")
        parser.add_argument(
            "--records",
            default=str(Path(settings.BASE_DIR) / "tests" / "data"),
            help="folder of *.jsonl records for the archive event ('' to skip)",
        )
        parser.add_argument("--timeout", type=float, default=300.0)
        parser.add_argument(
            "--site", default="", help="the site's address, to print the logins' full URLs"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        seed: str = options["seed"]
        timeout: float = options["timeout"]
        Event.objects.filter(name__in=[DEMO_EVENT, ARCHIVE_EVENT]).delete()

        rules = RuleSet.from_spec("classic")
        event = event_create(name=DEMO_EVENT, rules="classic")
        players = [player_get_or_create(name=name) for name in PLAYERS]
        rng = random.Random(f"ddz-demo-deals:{seed}")
        board_number = 0
        games = 0
        for r, tables in enumerate(kirkman_nine(), start=1):
            round_ = round_seat(
                event=event,
                number=r,
                tables=[[players[p - 1] for p in table] for table in tables],
            )
            for _b in range(BOARDS_PER_ROUND):
                board_number += 1
                first = SEATS[(board_number - 1) % len(SEATS)]
                deal = deal_random(rules, rng, first_bidder=first)
                board = board_create(
                    event=event,
                    round=round_,
                    number=board_number,
                    hands=deal.hands,
                    bottom=deal.bottom,
                    first_bidder=first,
                )
                for table in Table.objects.filter(round=round_).order_by("number"):
                    record = play_record(
                        rules=rules,
                        hands=deal.rank_hands(),
                        bottom=deal.rank_bottom(),
                        first_bidder=first,
                        seed=f"{seed}:{board_number}:{table.number}",
                        record_id=f"R{r}-B{board_number}-T{table.number}",
                    )
                    game_submit(table=table, board=board, record=record)
                    games += 1
        self.stdout.write(
            f"{event.name}: {len(players)} players, {board_number} boards, {games} games submitted"
        )
        accounts = demo_accounts_ensure(
            event=event,
            table=Table.objects.get(round__event=event, round__number=1, number=1),
            player=players[0],
        )
        _wait_verified(event, timeout)
        _wait_standings(event, timeout)
        counts = {
            status: Game.objects.filter(board__event=event, status=status).count()
            for status in Status.values
        }
        self.stdout.write("verification: " + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
        self.stdout.write(f"\nStandings of {event.name} ({event.get_scoring_method_display()}):")
        for row in standings_rows(event):
            self.stdout.write(
                f"  {row['rank']:>4}  {row['player']:<6} {row['total']:>8} MP  "
                f"{float(eval_fraction(row['percentage'])):6.2f}%"
            )

        folder = options["records"]
        if folder:
            archive = event_create(name=ARCHIVE_EVENT, rules=None)
            stored = rejected = 0
            for path in sorted(Path(folder).glob("*.jsonl")):
                with path.open(encoding="utf-8") as fh:
                    report = records_import(event=archive, lines=fh)
                stored += report.stored
                rejected += len(report.rejected)
            _wait_verified(archive, timeout)
            verified = Game.objects.filter(board__event=archive, status=Status.VERIFIED).count()
            boards = archive.boards.count()
            self.stdout.write(
                f"\n{archive.name}: {stored} records imported ({rejected} rejected) "
                f"as {boards} boards; {verified} of {stored} verified"
            )
        site = options["site"].rstrip("/")
        self.stdout.write(
            "\nDemo logins (DEMO ONLY: these passwords are public; never on a reachable site):"
        )
        for account in accounts:
            self.stdout.write(
                f"  {account.role:<14} {account.username:<15} password {account.password:<15}"
                f" {site}{account.url}"
            )
        self.stdout.write(
            f"  Sign in at {site}/organizer/login/ (any account); "
            f"{site}/admin/ takes demo-organizer (staff)."
        )


def eval_fraction(text: str) -> float:
    """A fraction's text as a float, for display only (ranks are decided exactly)."""
    from fractions import Fraction

    return float(Fraction(text or "0"))
