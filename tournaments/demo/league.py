"""The demo's club and series (manage.py ddz_demo): built through the services like a real one.

The demo organizer makes the club "Demo Club" (tournaments.league.clubs) and its series "Demo Series
2026" (the default scale of points by place, each player's best two of three events), then
opens three events for the club in the series, a week apart up to last week, at the club's
rooms (tournaments.demo.life), with the categories women and youth. Each is run like the demo
event: the nine demo players entered from a players file (with the categories some declared),
one stage of two rounds seated by the movement, the deal
seed committed (SHA-256 of the demo's seed and the event's number, so the deals are
reproducible), two boards dealt per round from it, every board played at every table by bots
of three strengths (games.bot STYLES: three players play any legal call and play, three their
largest combination, three the heuristic bot), verified, each round closed and published; then
the event is finished (the last with its prizes), so that it counts in the series and ratings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import steps
from games.bot import play_record
from games.notation import rank_cards
from tournaments.demo import life as demo_life
from tournaments.events import players_csv, round_states, rounds, stages
from tournaments.league import clubs
from tournaments.models import Club, Event, Round, Seat, Series, Table
from tournaments.tables.submission import game_submit

CLUB = "Demo Club"
SERIES = "Demo Series 2026"
EVENTS = 3
ROUNDS = 2
BOARDS_PER_ROUND = 2
BEST_OF = 2
# The demo players' styles, weakest first (games.bot.STYLES): names are the demo event's.
STYLE_OF = {
    "Ann": "heuristic",
    "Bo": "random",
    "Chen": "largest",
    "Dana": "heuristic",
    "Eli": "random",
    "Fang": "largest",
    "Gus": "heuristic",
    "Hui": "random",
    "Ivo": "largest",
}


def demo_play(
    *, rules: Any, table: Table, board: Any, seed: str, styles: dict[str, str] | None = None
) -> None:
    """Bots play ``board`` at ``table`` (games.bot.play_record, seeded "seed:board:table";
    ``styles`` by seat, the heuristic bot for a seat not named) and the game is submitted as
    the demo's."""
    record = play_record(
        rules=rules,
        hands={s: rank_cards(c) for s, c in board.hands.items()},
        bottom=rank_cards(board.bottom),
        first_bidder=board.first_bidder,
        seed=f"{seed}:{board.number}:{table.number}",
        record_id=steps.table_record_id(table, board),
        styles=styles,
    )
    game_submit(table=table, board=board, record=record, source="demo")


def demo_league_clear() -> None:
    """Delete the demo's club with its series and events (a run of the demo starts afresh)."""
    club = Club.objects.filter(name=CLUB).first()
    if club is None:
        return
    # Rounds first: a stage is protected while rounds point at it.
    Round.objects.filter(event__club=club).delete()
    Event.objects.filter(club=club).delete()
    Series.objects.filter(club=club).delete()
    club.delete()


def demo_league_build(
    *, actor: Any, seed: str, wait: Callable[[Event], None]
) -> tuple[Club, Series, list[Event]]:
    """Build and play the demo club's series as ``actor`` (the demo organizer, staff);
    ``wait(event)`` returns once every game of the event is verified and its standings
    stored. Returns the club, the series and its events."""
    club = clubs.club_create(name=CLUB, actor=actor)
    series = clubs.series_create(
        club=club, actor=actor, name=SERIES, season="2026", best_of=BEST_OF
    )
    roster = demo_life.demo_roster(list(STYLE_OF))
    today = timezone.localdate()
    events = []
    for n in range(1, EVENTS + 1):
        event = clubs.club_event_open(
            club=club, actor=actor, name=f"Demo Club Cup {n}", series=series
        )
        day = today - timedelta(days=7 * (EVENTS + 1 - n))
        demo_life.demo_cup_open(event=event, actor=actor, day=day)
        players_csv.players_csv_import(event=event, text=roster, actor=actor)
        stage = stages.stage_create(event=event, actor=actor, name="Cup")
        for _r in range(ROUNDS):
            rounds.round_create(event=event, stage=stage, actor=actor)
        stages.stage_seat(stage=stage, actor=actor, seed=f"{seed}:cup:{n}")
        rounds.event_seed_commit(
            event=event,
            actor=actor,
            seed=hashlib.sha256(f"ddz-demo-club-deals:{seed}:{n}".encode()).hexdigest(),
        )
        rules = rounds.rules_of(event)
        for round_ in event.rounds.order_by("number"):
            boards = rounds.round_deal(round_=round_, boards=BOARDS_PER_ROUND, actor=actor)
            round_states.round_start(round_=round_, actor=actor)
            for table in Table.objects.filter(round=round_).order_by("number"):
                styles = {
                    s.seat: STYLE_OF.get(s.player.name, "heuristic")
                    for s in Seat.objects.filter(table=table).select_related("player")
                }
                for board in boards:
                    demo_play(
                        rules=rules, table=table, board=board, seed=f"{seed}:cup:{n}", styles=styles
                    )
            wait(event)
            round_states.round_close(round_=round_, actor=actor)
            round_states.round_publish(round_=round_, actor=actor)
        wait(event)
        demo_life.demo_cup_finish(event=event, actor=actor, with_prizes=n == EVENTS)
        events.append(event)
    return club, series, events
