"""A world for the API's schema tests: every door of /api/ has something real to answer.

The referee personas' event (tests.entry_personas: organizer, chief referee, referees of tables
1 and 2, player) with three games of its round: board 1 verified at table 1 (awaiting its
confirmation) and flagged at table 2 (awaiting a ruling), board 2 flagged at table 1 and ruled
to stand; so board 1 is out of embargo and board 2 is not. Beside it, a club's series with an
event whose round is played, closed and published, its standings stored and its players rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from games.models import Game, Status
from tests.entry_personas import World, build_world
from tests.factories import bot_record, duplicate_round, event_finish, round_fill, verified
from tournaments.events import round_states
from tournaments.league import clubs
from tournaments.models import Player, Series
from tournaments.ratings import service as ratings
from tournaments.standings.store import standings_recompute
from tournaments.tables.review import game_resolve
from tournaments.tables.submission import game_submit


@dataclass
class ApiWorld:
    personas: World
    verified: Game  # board 1, table 1: verified, not confirmed, no ruling
    flagged: Game  # board 1, table 2: the declared score is not the engine's, no ruling
    ruled: Game  # board 2, table 1: flagged, then ruled to stand
    series: Series
    rated: Player  # a player of the series' published round, rated

    @property
    def users(self) -> dict[str, User | None]:
        return self.personas.users


def _game(world: World, *, table: int, board: int, flag: bool) -> Game:
    """A bot game entered by the table's referee and verified; with `flag`, its declared score
    is one point off for one seat, so verification flags it (R-REC: the declared score is the
    table's claim, the engine's is the result)."""
    record: dict[str, Any] = bot_record(world.boards[board], world.tables[table])
    if flag:
        declared = dict(record["declared"])
        seat = next(iter(declared))
        record["declared"] = {s: v + 1 if s == seat else v for s, v in declared.items()}
    game = game_submit(
        table=world.tables[table],
        board=world.boards[board],
        record=record,
        actor=world.users[f"referee{table + 1}"],
    )
    verified(game.pk)
    game.refresh_from_db()
    assert game.status == (Status.MISMATCH if flag else Status.VERIFIED), game.status
    return game


def _rated_series(seed: str) -> tuple[Series, Player]:
    """A club's series with one event: a round of two tables and two boards played by the bot,
    closed and published, the event finished, its standings stored and the rating computed."""
    staff = User.objects.create_user(f"club-{seed}", password="x", is_staff=True)
    club = clubs.club_create(name=f"Club {seed}", actor=staff)
    series = clubs.series_create(club=club, actor=staff, name=f"Series {seed}")
    event = clubs.club_event_open(club=club, actor=staff, name=f"Cup {seed}", series=series)
    _event, round_, tables, _boards = duplicate_round(tables=2, boards=2, seed=seed, event=event)
    round_fill(round_, seed=seed)
    round_states.round_close(round_=round_, actor=staff)
    round_states.round_publish(round_=round_, actor=staff)
    event_finish(event, staff)  # only a finished event is rated (tournaments.people.life)
    standings_recompute(event_id=event.pk)
    ratings.ratings_recompute(full=True)
    return series, tables[0].seats.order_by("seat").first().player


def build_api_world(*, seed: str = "api-schema") -> ApiWorld:
    personas = build_world(seed=seed)
    verified = _game(personas, table=0, board=0, flag=False)
    flagged = _game(personas, table=1, board=0, flag=True)
    ruled = _game(personas, table=0, board=1, flag=True)
    ruled = game_resolve(
        game_id=ruled.pk, actor=personas.users["chief"], decision="accept", note="Scorer's slip"
    )
    series, rated = _rated_series(f"{seed}-league")
    return ApiWorld(
        personas=personas,
        verified=verified,
        flagged=flagged,
        ruled=ruled,
        series=series,
        rated=rated,
    )
