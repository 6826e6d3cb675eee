"""`manage.py ddz_demo`: build and play a small duplicate event, then import real records.

The demo event is built like a real one, through the organizer's services
(tournaments.events.rounds, tournaments.events.players_csv) acting as the demo organizer: nine
players entered from a players file, one qualifying stage of four rounds seated by the movement
of tournaments.seating (the Kirkman triple system on nine players: every pair of players meets
at exactly one table), the deal seed committed, then round by round: three boards dealt from
the seed, the round started, the built-in bot (games.bot) bidding and playing every board at
every table through tournaments.tables.submission.game_submit (the referees' write path; Celery
verifies each game, eagerly in the embedded default or in a worker), the round closed and
published. A fifth round is left in play for a walkthrough: seated Swiss by the standings,
three boards dealt, tables 2 and 3 played by the bot, table 1 waiting for the demo referee; its
boards stay under embargo until he has entered them. Then the organizer closes and publishes
it and reveals the seed, and /deals/demo-duplicate/ recomputes every board. The demo accounts
of tournaments.demo.accounts (organizer, chief referee, referee, player) are created or reset
and their logins printed, then the private links of round 5's tables and Ann's player link
(tournaments.links; shown only here, as only their hashes are stored). Then the records of
tests/data/*.jsonl are imported into an archive event. The demo event is
dated today at the demo's hall; the club's cups (tournaments.demo.league) are dated the weeks
before, finished, the last with its prizes; "Demo Open" (tournaments.demo.life) is next
month, its registration open with a few registrations.

``--seed`` makes the run reproducible: the deal seed is SHA-256 of it (so it is no secret:
the demo's boards are for showing, never for play), and the bots are seeded from it too.
"""

from __future__ import annotations

import hashlib
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game, Status
from tournaments.archive.records import records_import
from tournaments.demo import life as demo_life
from tournaments.demo import online as demo_online
from tournaments.demo.accounts import demo_accounts_ensure, demo_organizer_ensure
from tournaments.demo.league import demo_league_build, demo_league_clear, demo_play
from tournaments.events import players_csv, round_states, rounds, stages
from tournaments.events.selectors import event_computed_standings
from tournaments.events.setup import event_create
from tournaments.league.profiles import series_table
from tournaments.links import tokens
from tournaments.management.commands.ddz_standings import standings_rows
from tournaments.models import Event, Player, Round, Table
from tournaments.people import life

DEMO_EVENT = "Demo duplicate"
ARCHIVE_EVENT = "Archive of real games"
PLAYERS = ["Ann", "Bo", "Chen", "Dana", "Eli", "Fang", "Gus", "Hui", "Ivo"]
ROUNDS = 4  # played and published; round ROUNDS + 1 is left in play
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
    deadline = time.monotonic() + timeout
    while True:
        stored = [
            (r.player_id, r.rank, r.total)
            for r in event.standings.filter(stage__isnull=True).order_by("position")
        ]
        computed = [(r.player, r.rank, str(r.total)) for r in event_computed_standings(event=event)]
        if stored == computed:
            return
        if time.monotonic() > deadline:
            raise CommandError("the standings were not recomputed in time")
        time.sleep(0.2)


def _play(*, rules: Any, boards: Any, tables: Any, seed: str) -> int:
    """The bot plays every board at every table; returns how many games it submitted."""
    for board in boards:
        for table in tables:
            demo_play(rules=rules, table=table, board=board, seed=seed)
    return len(boards) * len(tables)


def _demo_event_create(seed: str) -> tuple[Event, Any, Any]:
    """The demo event as its organizer builds it: players entered, the qualifying stage's
    rounds created and seated, the deal seed committed. Returns the event, its organizer and
    the stage."""
    event = event_create(name=DEMO_EVENT, rules="classic")
    td = demo_organizer_ensure(event=event)
    roster = "name\n" + "".join(f"{name}\n" for name in PLAYERS)
    players_csv.players_csv_import(event=event, text=roster, actor=td)
    stage = stages.stage_create(event=event, actor=td, name="Qualifying")
    for _r in range(ROUNDS):
        rounds.round_create(event=event, stage=stage, actor=td)
    stages.stage_seat(stage=stage, actor=td, seed=seed)
    rounds.event_seed_commit(
        event=event,
        actor=td,
        seed=hashlib.sha256(f"ddz-demo-deals:{seed}".encode()).hexdigest(),
    )
    return event, td, stage


def _rounds_play(*, event: Event, td: Any, rules: Any, seed: str, timeout: float) -> int:
    """Deal, start, play, close and publish each round of the stage; returns the games."""
    games = 0
    for round_ in event.rounds.order_by("number"):
        boards = rounds.round_deal(round_=round_, boards=BOARDS_PER_ROUND, actor=td)
        round_states.round_start(round_=round_, actor=td)
        tables = list(Table.objects.filter(round=round_))
        games += _play(rules=rules, boards=boards, tables=tables, seed=seed)
        # A round closes once every game is settled: verified by the worker.
        _wait_verified(event, timeout)
        round_states.round_close(round_=round_, actor=td)
        round_states.round_publish(round_=round_, actor=td)
    return games


def _open_round_play(
    *, event: Event, stage: Any, td: Any, rules: Any, seed: str
) -> tuple[Any, Any, list[Table], int]:
    """The round left in play, seated Swiss and dealt: the bot plays every table but table 1,
    which is the demo referee's to enter. Returns the round, its boards, its tables by number
    and the games played."""
    open_round = rounds.round_create(event=event, stage=stage, actor=td)
    stages.round_seat_swiss(round_=open_round, actor=td)
    open_boards = rounds.round_deal(round_=open_round, boards=BOARDS_PER_ROUND, actor=td)
    round_states.round_start(round_=open_round, actor=td)
    open_tables = list(Table.objects.filter(round=open_round).order_by("number"))
    games = _play(rules=rules, boards=open_boards, tables=open_tables[1:], seed=seed)
    return open_round, open_boards, open_tables, games


def demo_events_clear() -> None:
    """Delete the demo's events of a run before (a run of the demo starts afresh): their rounds
    first, since a round protects its stage."""
    names = [DEMO_EVENT, ARCHIVE_EVENT, demo_life.OPEN_EVENT, *demo_online.EVENTS]
    Round.objects.filter(event__name__in=names).delete()
    Event.objects.filter(name__in=names).delete()
    # The online events' robots, entered in no event now (a robot plays for one event only).
    Player.objects.filter(robot=True, entries__isnull=True).delete()


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
        demo_events_clear()
        demo_league_clear()

        event, td, stage = _demo_event_create(seed)
        # Dated around now in its zone: its rounds are played now.
        demo_life.demo_place_set(event=event, actor=td)
        rules = rounds.rules_of(event)
        games = _rounds_play(event=event, td=td, rules=rules, seed=seed, timeout=timeout)
        open_round, open_boards, open_tables, open_games = _open_round_play(
            event=event, stage=stage, td=td, rules=rules, seed=seed
        )
        games += open_games
        board_count = event.boards.count()
        self.stdout.write(
            f"{event.name}: {len(PLAYERS)} players, {ROUNDS} rounds played and published, "
            f"{board_count} boards dealt from the committed seed, {games} games submitted"
        )
        self.stdout.write(
            f"Round {open_round.number} is in play: tables 2 and 3 have played boards "
            f"{open_boards[0].number}-{open_boards[-1].number}; table 1 waits for demo-referee, "
            "and those boards stay hidden from the public until he has entered them."
        )
        accounts = demo_accounts_ensure(
            event=event,
            table=open_tables[0],
            player=Player.objects.get(entries__event=event, name=PLAYERS[0]),
        )
        self._standings_show(event, timeout)
        self._league_show(td=td, seed=seed, timeout=timeout, site_=options["site"].rstrip("/"))
        self._open_show(site=options["site"].rstrip("/"))
        self._online_show(seed=seed, site=options["site"].rstrip("/"), timeout=timeout)
        folder = options["records"]
        if folder:
            self._records_import(folder, timeout)
        site = options["site"].rstrip("/")
        self._logins_show(event=event, open_round=open_round, accounts=accounts, site=site)
        self._links_show(event=event, open_round=open_round, td=td, site=site)

    def _standings_show(self, event: Event, timeout: float) -> None:
        """Once every game is verified and ranked: the verification counts and standings."""
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

    def _league_show(self, *, td: Any, seed: str, timeout: float, site_: str) -> None:
        """The club's series of three events (tournaments.demo.league), then its standings."""

        def settled(cup: Event) -> None:
            _wait_verified(cup, timeout)
            _wait_standings(cup, timeout)

        club, series, cups = demo_league_build(actor=td, seed=seed, wait=settled)
        table = series_table(series)
        self.stdout.write(
            f"\n{club.name}: {series.name}, {len(cups)} events played by bots of three "
            f"strengths, best {series.best_of} of {len(cups)} on the default points by place:"
        )
        for line in table.lines:
            points = " ".join(
                "  -" if p is None else f"{float(p):>3g}{'' if c else '*'}" for p, c in line.points
            )
            self.stdout.write(
                f"  {line.rank:>4}  {line.person.name:<6} {float(line.total):>5g}  ({points})"
            )
        first = table.lines[0].person if table.lines else None
        self.stdout.write(f"  Series standings: {site_}{series.get_absolute_url()}")
        if first is not None:
            self.stdout.write(f"  {first.name}'s profile: {site_}/people/{first.pk}/")

    def _open_show(self, *, site: str) -> None:
        """Demo Open, next month with registration open (tournaments.demo.life)."""
        event = demo_life.demo_open_build()
        counts = ", ".join(f"{n} {s}" for s, n in demo_life.demo_open_summary(event).items())
        self.stdout.write(
            f"\n{event.name}: {life.event_when(event)} at {life.event_where(event)}; "
            f"registration open, {event.registration_limit} places ({counts}): "
            f"{site}{event.get_absolute_url()}"
        )

    def _online_show(self, *, seed: str, site: str, timeout: float) -> None:
        """The online robot duplicates (tournaments.demo.online): one open, one closed."""
        cup, sprint = demo_online.demo_online_build(seed=seed)
        _wait_verified(sprint, timeout)
        _wait_standings(sprint, timeout)
        self.stdout.write(
            f"\n{cup.name}: online against robots, {cup.boards.count()} boards, its window open "
            f"for a week ({life.event_when(cup)}); sign up, enter and play at "
            f"{site}/events/{cup.slug}/online/"
        )
        self.stdout.write(
            f"{sprint.name}: its window closed, standings and travellers public: "
            f"{site}{sprint.get_absolute_url()}"
        )

    def _records_import(self, folder: str, timeout: float) -> None:
        """The real records of `folder` (*.jsonl) into the archive event, once verified."""
        archive = event_create(name=ARCHIVE_EVENT, rules=None)
        stored = rejected = 0
        for path in sorted(Path(folder).glob("*.jsonl")):
            with path.open(encoding="utf-8") as fh:
                report = records_import(event=archive, lines=fh)
            stored += report.stored
            rejected += len(report.rejected)
        _wait_verified(archive, timeout)
        verified = Game.objects.filter(board__event=archive, status=Status.VERIFIED).count()
        board_count = archive.boards.count()
        self.stdout.write(
            f"\n{archive.name}: {stored} records imported ({rejected} rejected) "
            f"as {board_count} boards; {verified} of {stored} verified"
        )

    def _logins_show(self, *, event: Event, open_round: Any, accounts: Any, site: str) -> None:
        """How the seed is revealed, and the demo accounts' logins."""
        self.stdout.write(
            f"\nDeals: commitment {event.deal_commitment}. Once round {open_round.number} is "
            f"entered, closed and published, the organizer reveals the seed on "
            f"{site}/organizer/events/{event.slug}/ and {site}/deals/{event.slug}/ then "
            "recomputes every board."
        )
        self.stdout.write(
            "\nDemo logins (DEMO ONLY: these passwords are public; never on a reachable site):"
        )
        for account in accounts:
            self.stdout.write(
                f"  {account.role:<14} {account.username:<15} password {account.password:<15}"
                f" {site}{account.url}"
            )
        self.stdout.write(
            f"  Sign in at {site}/accounts/login/ (any account); "
            f"{site}/admin/ takes demo-organizer (staff)."
        )

    def _links_show(self, *, event: Event, open_round: Any, td: Any, site: str) -> None:
        """The private links of the open round's tables and Ann's player link. Made last, so
        that they are the links in force (ddz_table_links makes new ones and revokes these);
        only their hashes are stored, so this is where they are seen."""
        table_links = tokens.table_links_make(event=event, round_=open_round, actor=td)
        ann = Player.objects.get(entries__event=event, name=PLAYERS[0])
        player_link = tokens.player_links_make(event=event, players=[ann], actor=td)[0]
        self.stdout.write(
            f"\nPrivate links of round {open_round.number} (no sign-in; until the round closes, "
            f"at the latest {table_links[0].expires:%Y-%m-%d %H:%M} UTC). Each table's link is "
            f"its referee device (it shows the hand of the seat to act); each seat's link "
            f"opens that seat's phone, its own hand only: open table 1's three seats in three "
            f"browser windows and play board 13 a tap a step:"
        )
        for made in table_links:
            self.stdout.write(f"  table {made.table}  {site}{made.url}")
            for seat, url in made.seats:
                self.stdout.write(f"    seat {seat}  {site}{url}")
        self.stdout.write(f"  {ann.name}'s player link  {site}{player_link.url}")


def eval_fraction(text: str) -> float:
    """A fraction's text as a float, for display only (ranks are decided exactly)."""
    return float(Fraction(text or "0"))
