"""A result is replaced only on purpose (tournaments.tables.submission.game_submit): a second
submission for a table and board is refused unless it names the version it replaces, and the
refusal describes that version (its number, who entered it, when, its result); a replacement
naming a version that is no longer the current one is refused naming the newer one, so that
nobody overwrites a version he has not seen (no lost update).
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from games.models import Game
from tests.entry_personas import build_world
from tests.factories import bot_record
from tournaments.models import AuditEntry
from tournaments.tables.submission import GameConflict, game_submit, submission_record
from tournaments.tables.verification import game_verify

pytestmark = pytest.mark.django_db

# R-SC-MULT (classic): bid 1, no bomb nor rocket, the farmers win: u = 1, each farmer +1 and
# the landlord −2.
FARMERS_WIN = {"landlord": "S", "bid": 1, "winner": "farmers"}
FARMERS_WIN_SCORE = {"S": -2, "E": 1, "W": 1}


@pytest.fixture
def world():
    return build_world(seed="replace-on-purpose", tables=2, boards=1)


def _quick(world, quick=FARMERS_WIN):
    table, board = world.tables[0], world.boards[0]
    record, _given = submission_record(table=table, board=board, submission={"quick": quick})
    return record


def test_a_second_submission_is_refused_naming_the_version_it_would_replace(world) -> None:
    table, board = world.tables[0], world.boards[0]
    referee = world.users["referee1"]
    first = game_submit(table=table, board=board, record=_quick(world), actor=referee)
    audits = AuditEntry.objects.count()
    with pytest.raises(GameConflict) as refused:
        game_submit(
            table=table,
            board=board,
            record=bot_record(board, table),
            actor=world.users["chief"],
        )
    seen = refused.value.current
    assert seen is not None
    # Still pending (the worker has not verified it): its result is the engine's all the same.
    assert seen.version == 1 and seen.game_id == first.pk
    assert seen.entered_by == referee.get_username()
    assert seen.submitted_at == first.submitted_at
    assert seen.landlord == "S" and seen.winner == "farmers"
    assert seen.score == FARMERS_WIN_SCORE
    message = refused.value.message
    assert "version 1" in message and referee.get_username() in message
    assert timezone.localtime(first.submitted_at).strftime("%H:%M:%S") in message
    # Nothing stored, nothing audited, the first version untouched.
    assert Game.objects.count() == 1 and AuditEntry.objects.count() == audits
    assert Game.objects.get(pk=first.pk).replaced_at is None


def test_a_replacement_naming_the_current_version_is_stored(world) -> None:
    table, board = world.tables[0], world.boards[0]
    first = game_submit(table=table, board=board, record=_quick(world))
    game_verify(game_id=first.pk)
    second = game_submit(
        table=table,
        board=board,
        record=bot_record(board, table),
        replaces=1,
        actor=world.users["referee1"],
    )
    assert second.version == 2 and second.stored
    assert Game.objects.get(pk=first.pk).replaced_at is not None
    edit = AuditEntry.objects.get(action="game.edit")
    assert edit.changes["replaces"] == first.pk


def test_a_replacement_of_a_version_replaced_since_is_refused_naming_the_newer(world) -> None:
    table, board = world.tables[0], world.boards[0]
    game_submit(table=table, board=board, record=bot_record(board, table))
    # Two referees look at version 1; the chief replaces it first.
    newer = game_submit(
        table=table, board=board, record=_quick(world), replaces=1, actor=world.users["chief"]
    )
    with pytest.raises(GameConflict) as refused:
        game_submit(
            table=table,
            board=board,
            record=bot_record(board, table, seed="late"),
            replaces=1,
            actor=world.users["referee1"],
        )
    seen = refused.value.current
    assert seen is not None and seen.version == 2 and seen.game_id == newer.pk
    assert seen.entered_by == world.users["chief"].get_username()
    assert seen.score == FARMERS_WIN_SCORE
    assert "version 2" in refused.value.message
    assert Game.objects.count() == 2
    assert Game.objects.get(replaced_at__isnull=True).pk == newer.pk
    # Naming version 2, which it has now seen, it is stored as version 3.
    third = game_submit(
        table=table,
        board=board,
        record=bot_record(board, table, seed="late"),
        replaces=2,
        actor=world.users["referee1"],
    )
    assert third.version == 3


@pytest.mark.parametrize("replaces", [3, 0, -1])
def test_a_replacement_naming_a_version_that_is_not_the_current_one_is_refused(
    world, replaces
) -> None:
    table, board = world.tables[0], world.boards[0]
    first = game_submit(table=table, board=board, record=bot_record(board, table))
    with pytest.raises(GameConflict) as refused:
        game_submit(table=table, board=board, record=_quick(world), replaces=replaces)
    assert refused.value.current.version == 1
    assert Game.objects.get().pk == first.pk


def test_the_first_submission_names_no_version(world) -> None:
    table, board = world.tables[0], world.boards[0]
    game = game_submit(table=table, board=board, record=_quick(world))
    assert game.version == 1
    # A passed-out board, described as such: every seat scores 0 (R-PASSOUT).
    other = world.tables[1]
    record = bot_record(board, other)
    order = "SEW" * 2
    start = order.index(board.first_bidder)
    record["bidding"] = [[seat, "pass"] for seat in order[start : start + 3]]
    record["plays"] = []
    record["declared"] = {"S": 0, "E": 0, "W": 0}
    record.pop("declared_winner", None)
    game_submit(table=other, board=board, record=record)
    with pytest.raises(GameConflict) as refused:
        game_submit(table=other, board=board, record=bot_record(board, other))
    assert refused.value.current.score == {"S": 0, "E": 0, "W": 0}
    assert "passed out" in refused.value.message
