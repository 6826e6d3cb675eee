"""A ruling needs a second person where the event asks two-person confirmation
(Event.confirmation_required; tournaments.tables.review.game_resolve): whoever entered a game,
a flagged claim included, neither lets it stand nor sends it back himself; another chief
referee or an organizer rules on it. An event that asks no confirmation lets him.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games.engine import replay
from games.models import Game, Status
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.core.access import NotAllowed
from tournaments.models import AuditEntry, EventRole, Role
from tournaments.tables.review import game_resolve
from tournaments.tables.submission import game_submit
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    world = build_world(seed="rulings", tables=2, boards=1)
    second = User.objects.create_user("second-chief", password="x")
    EventRole.objects.create(event=world.event, user=second, role=Role.CHIEF_REFEREE)
    world.users["second_chief"] = second
    return world


def _claim(world) -> dict:
    """Board 1 at table 1 cut after a farmer played a card, claimed by the side that lost it:
    a claim the engine cannot prove (R-CLAIM), flagged for a ruling."""
    board, table = world.boards[0], world.tables[0]
    full = bot_record(board, table)
    outcome = replay(full).to_dict()
    landlord = outcome["landlord"]
    loser = (
        landlord
        if outcome["winner"] == "farmers"
        else next(s for s, _c in full["bidding"] if s != landlord)
    )
    for cut in range(4, len(full["plays"]) - 1):
        plays = full["plays"][:cut]
        if not any(s != landlord and c != "pass" for s, c in plays):
            continue
        record = {**full, "plays": plays, "end": {"claim": loser}}
        record.pop("declared", None)
        record.pop("declared_winner", None)
        if replay(record).to_dict()["status"] == "flagged":
            return record
    raise AssertionError("the seeded bot game gives an unprovable claim")


def _mismatch(world) -> dict:
    """Board 1 at table 1 with a declared score one off the engine's (a mismatch)."""
    record = bot_record(world.boards[0], world.tables[0])
    score = replay(record).to_dict()["score"]
    seat = next(iter(score))
    record["declared"] = {s: v + (1 if s == seat else 0) for s, v in score.items()}
    return record


def _entered(world, record: dict, by: str) -> Game:
    game = game_submit(
        table=world.tables[0], board=world.boards[0], record=record, actor=world.users[by]
    )
    game_verify(game_id=game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize(
    "record_of, status, by",
    [(_claim, Status.FLAGGED, "chief"), (_mismatch, Status.MISMATCH, "organizer")],
)
@pytest.mark.parametrize("decision", ["accept", "reject"])
def test_who_entered_a_game_does_not_rule_on_it(world, record_of, status, by, decision) -> None:
    game = _entered(world, record_of(world), by)
    assert game.status == status
    audits = AuditEntry.objects.count()
    with pytest.raises(NotAllowed, match="entered"):
        game_resolve(game_id=game.pk, actor=world.users[by], decision=decision, note="mine")
    game.refresh_from_db()
    assert game.resolution == "" and game.resolved_by is None and game.resolved_at is None
    assert AuditEntry.objects.count() == audits
    # Someone else rules on it.
    ruled = game_resolve(
        game_id=game.pk, actor=world.users["second_chief"], decision=decision, note="checked"
    )
    assert ruled.resolution == decision and ruled.resolved_by == world.users["second_chief"]


def test_a_game_entered_by_a_referee_is_ruled_on_by_the_chief(world) -> None:
    game = _entered(world, _claim(world), "referee1")
    ruled = game_resolve(game_id=game.pk, actor=world.users["chief"], decision="accept", note="ok")
    assert ruled.resolution == "accept" and ruled.score is not None


def test_an_event_without_confirmation_lets_the_enterer_rule(world) -> None:
    world.event.confirmation_required = False
    world.event.save(update_fields=["confirmation_required"])
    game = _entered(world, _claim(world), "chief")
    ruled = game_resolve(game_id=game.pk, actor=world.users["chief"], decision="accept", note="ok")
    assert ruled.resolution == "accept" and ruled.resolved_by == world.users["chief"]
